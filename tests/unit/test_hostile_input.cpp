// Hostile input (issue 18): the checked number conversion, parsers that neither recurse on
// input length nor let an exception other than a usage error escape, the JSON limits with
// their paths, the checked reader and writer, and the arithmetic that used to wrap.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "bench/plan.hpp"
#include "cli/p2p_cli.hpp"
#include "cli/run_request.hpp"
#include "comm/nccl_log.hpp"
#include "core/error.hpp"
#include "core/file_io.hpp"
#include "core/parse_number.hpp"
#include "expect_error.hpp"
#include "model/result_json.hpp"
#include "request/command_requests.hpp"
#include "topo/smi_text.hpp"

namespace {
namespace fs = std::filesystem;

std::string fixture(const std::string& path) {
  return fb::read_file(std::string(FB_FIXTURE_DIR) + "/" + path);
}

// A fresh folder under the system's temporary folder, removed at the end of the test.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "fb-hostile-XXXXXX").string();
    path = ::mkdtemp(tmpl.data());
  }
  ~TempDir() { fs::remove_all(path); }
  [[nodiscard]] std::string operator/(const std::string& name) const { return (path / name).string(); }
};

// --- the checked conversion -----------------------------------------------------------------

TEST(ParseNumber, WholeNumbersInRangeOnly) {
  EXPECT_EQ(fb::parse_whole("42", "x"), 42);
  EXPECT_EQ(fb::parse_whole("-3", "x"), -3);
  expect_usage_error([] { fb::parse_whole("99999999999999999999", "--n"); },
                     "--n '99999999999999999999' is out of range");
  expect_usage_error([] { fb::parse_whole("1.5", "--n"); }, "'1.5' is not a whole number");
  expect_usage_error([] { fb::parse_whole("", "--n"); }, "is not a whole number");
  expect_usage_error([] { fb::parse_whole(" 1", "--n"); }, "is not a whole number");
  expect_usage_error([] { fb::parse_int_in("-1", "--n", 0, 10); }, "in [0, 10]");
  expect_usage_error([] { fb::parse_int_in("4294967296", "--n"); }, "out of range");
}

// Registers and masks: all 64 bits, "0x" optional in hexadecimal, never a sign or a space.
TEST(ParseNumber, UnsignedTakesAll64Bits) {
  EXPECT_EQ(fb::try_parse_unsigned("18446744073709551615"), 18446744073709551615u);
  EXPECT_EQ(fb::try_parse_unsigned("0x8000000000000008", 16), 0x8000000000000008u);
  EXPECT_EQ(fb::try_parse_unsigned("10de", 16), 0x10deu);
  EXPECT_FALSE(fb::try_parse_unsigned("0x10", 10));
  EXPECT_FALSE(fb::try_parse_unsigned("18446744073709551616"));
  EXPECT_FALSE(fb::try_parse_unsigned("-1"));
  EXPECT_FALSE(fb::try_parse_unsigned("+1"));
  EXPECT_FALSE(fb::try_parse_unsigned(" 1"));
  EXPECT_FALSE(fb::try_parse_unsigned("0x", 16));
  EXPECT_FALSE(fb::try_parse_unsigned(""));
}

TEST(ParseNumber, FiniteRealsOnly) {
  EXPECT_DOUBLE_EQ(fb::parse_finite("1.5", "-f"), 1.5);
  EXPECT_DOUBLE_EQ(fb::parse_finite("1e3", "-f"), 1000);
  for (const char* bad : {"inf", "nan", "1e999", "-inf", "", "2x"})
    expect_usage_error([bad] { fb::parse_finite(bad, "-f"); }, "is not a finite number");
}

TEST(ParseNumber, DoublesBecomeIntegersOnlyWhenWholeAndInRange) {
  EXPECT_EQ(fb::whole_from_double(3.0), 3);
  EXPECT_EQ(fb::whole_from_double(-9223372036854775808.0), std::numeric_limits<std::int64_t>::min());
  EXPECT_FALSE(fb::whole_from_double(9223372036854775808.0));
  EXPECT_FALSE(fb::whole_from_double(1e300));
  EXPECT_FALSE(fb::whole_from_double(2.5));
  EXPECT_FALSE(fb::whole_from_double(std::numeric_limits<double>::quiet_NaN()));
}

// --- parsers that cannot recurse on input length ------------------------------------------

TEST(HostileText, RocmSmiLongEscapeDigitsAndSpacesDoNotCrash) {
  const std::string real = fixture("topo/mi300x8/rocm-smi-showtopo.txt");
  // A 50k-character escape sequence: removed in one pass, the rest still parsed.
  EXPECT_EQ(fb::parse_rocm_smi_topo(real + "\x1b[" + std::string(50000, ';') + "m\n").n, 8);
  // 60k digits in a Numa line: a usage error, not a stack overflow.
  std::string digits = real;
  digits.replace(digits.find("Numa Node: 0"), 12, "Numa Node: " + std::string(60000, '7'));
  expect_usage_error([&] { fb::parse_rocm_smi_topo(digits); }, "unreadable NUMA line");
  // A long run of spaces where the pattern allows them.
  std::string spaces = real;
  spaces.replace(spaces.find("(Topology) Numa Node:"), 21,
                 "(Topology)" + std::string(200000, ' ') + "Numa Node:");
  EXPECT_EQ(fb::parse_rocm_smi_topo(spaces).numa_node.size(), 8u);
}

TEST(HostileText, RocmSmiGpuIndexAndMatrixAreBounded) {
  const std::string real = fixture("topo/mi300x8/rocm-smi-showtopo.txt");
  std::string huge_gpu = real;  // one line in the NUMA section allocated 8.4 GB
  huge_gpu.insert(huge_gpu.find('\n', huge_gpu.find("(Topology) Numa Node:")) + 1,
                  "GPU[2147483646] : (Topology) Numa Node: 0\n");
  expect_usage_error([&] { fb::parse_rocm_smi_topo(huge_gpu); }, "above the limit of 4095");
  std::string wide = real;
  const auto row = wide.find("\nGPU0", wide.find("Weight between two GPUs")) + 1;
  std::string cells;
  for (int i = 0; i < 5000; ++i) cells += " 0";
  wide.insert(wide.find('\n', row), cells);
  expect_usage_error([&] { fb::parse_rocm_smi_topo(wide); }, "more than 4096 GPUs");
  std::string bad_cell = real;
  const auto first = bad_cell.find("\nGPU0", bad_cell.find("Hops between two GPUs")) + 1;
  bad_cell.insert(bad_cell.find('\n', first), " 99999999999");
  expect_usage_error([&] { fb::parse_rocm_smi_topo(bad_cell); }, "unreadable row");
}

TEST(HostileText, NcclLogLongLinesAndHugeNumbers) {
  const std::string real =
      fixture("nccl/nccl-2.28.3-all_reduce-8B-1GiB-2procs-rank0-INFO-INIT-GRAPH-TUNING.log");
  const auto reference = fb::parse_nccl_log(real);
  ASSERT_FALSE(reference.choices.empty());
  // 200k characters of what the transport pattern matched lazily: linear now.
  const std::string long_via =
      "h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via " + std::string(200000, 'x') + "\n";
  const std::string long_word = "h:1:1 [0] NCCL INFO " + std::string(200000, 'A') + ": 8 Bytes\n";
  const auto s = fb::parse_nccl_log(real + long_via + long_word);
  EXPECT_EQ(s.transports, reference.transports);  // "xxx...": no transport NCCL has, counted unreadable
  EXPECT_EQ(s.unreadable_connections, reference.unreadable_connections + 1);
  ASSERT_EQ(s.choices.size(), reference.choices.size());
  for (const auto& [op, sizes] : reference.choices) {
    ASSERT_EQ(s.choices.at(op).size(), sizes.size()) << op;
    for (const auto& [bytes, c] : sizes) {
      EXPECT_EQ(s.choices.at(op).at(bytes).algo, c.algo);
      EXPECT_EQ(s.choices.at(op).at(bytes).channels, c.channels);
    }
  }
  // Numbers out of int range (stoi threw out_of_range): the line is not NCCL's, skipped.
  const auto huge = fb::parse_nccl_log(
      "x NCCL INFO AllReduce: 8 Bytes -> Algo RING proto LL channel{Lo..Hi}={0..99999999999}\n"
      "x NCCL INFO 99999999999 coll channels, 1 collnet channels, 0 nvls channels, 2 p2p channels\n"
      "x NCCL INFO AllReduce: 99999999999999999999999 Bytes -> Algo RING proto LL channel{Lo..Hi}={0..1}\n");
  EXPECT_TRUE(huge.choices.empty());
  EXPECT_FALSE(huge.coll_channels);
}

TEST(HostileText, NcclLogStillReadsEveryKindOfLine) {
  const auto s = fb::parse_nccl_log(
      "h:1:1 [0] NCCL INFO NCCL version 2.28.3+cuda13.0\n"
      "h:1:1 [0] NCCL INFO AllReduce: 1048576 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={2..5}\n"
      "h:1:1 [0] NCCL INFO Channel 01 : 0[0] -> 1[1] [send] via SHM/direct/direct  \n"
      "h:1:1 [0] NCCL INFO 24 coll channels, 24 collnet channels, 1 nvls channels, 32 p2p channels, 3 per "
      "peer\n");
  EXPECT_EQ(s.version, "2.28.3");
  ASSERT_EQ(s.choices.at("AllReduce").count(1048576), 1u);
  EXPECT_EQ(s.choices.at("AllReduce").at(1048576).algo, "RING");
  EXPECT_EQ(s.choices.at("AllReduce").at(1048576).proto, "SIMPLE");
  EXPECT_EQ(s.choices.at("AllReduce").at(1048576).channels, 4);
  EXPECT_EQ(s.transports, (std::set<std::string>{"SHM/direct/direct"}));
  EXPECT_EQ(s.coll_channels, 24);
  EXPECT_EQ(s.nvls_channels, 1);
  EXPECT_EQ(s.p2p_channels, 32);
}

// --- JSON documents ---------------------------------------------------------------------------

std::string healthy() { return fixture("results/h200x2-run-6coll-1M-4G-procs.json"); }

std::string with_point_field(const std::string& field, const std::string& value) {
  auto j = nlohmann::json::parse(healthy());
  std::string text = j.dump();
  const std::string key = "\"" + field + "\":";
  const auto at = text.find(key, text.find("\"points\""));
  const auto end = text.find_first_of(",}", at);
  return text.replace(at + key.size(), end - at - key.size(), value);
}

TEST(HostileJson, TopLevelAndSchemaTypes) {
  for (const char* doc : {"[]", "42", "\"s\"", "null"})
    expect_usage_error([doc] { fb::parse_result(doc); }, "$: expected a result document (an object)");
  expect_usage_error([] { fb::parse_result(R"({"schema": 7})"); }, "$.schema: unsupported result schema 7");
  expect_usage_error([] { fb::parse_result(R"({"schema": ["fabricbench.result/1"]})"); }, "$.schema");
  expect_usage_error([] { fb::parse_result(R"({"schema": "fabricbench.result/1", "x": 1e999})"); },
                     "not a JSON document");
}

TEST(HostileJson, WholeNumberFieldsAreCheckedWithTheirPath) {
  expect_usage_error([] { fb::parse_result(with_point_field("bytes", "1e23")); },
                     "$.runs[0].points[0].bytes: expected a whole number in [0, 2^64-1], got 9.99");
  expect_usage_error([] { fb::parse_result(with_point_field("wrong", "1e300")); },
                     "$.runs[0].points[0].wrong: expected a whole number in [-1, 2^63-1]");
  expect_usage_error([] { fb::parse_result(with_point_field("count", "-1")); }, "points[0].count");
  expect_usage_error([] { fb::parse_result(with_point_field("iters_per_batch", "2.5")); }, "iters_per_batch");
  expect_usage_error([] { fb::parse_result(with_point_field("iters_per_batch", "1e12")); },
                     "iters_per_batch");
  // A whole number written as a float is still a whole number.
  EXPECT_EQ(fb::parse_result(with_point_field("bytes", "1048576.0")).runs[0].points[0].bytes, 1048576u);
  EXPECT_EQ(fb::parse_result(with_point_field("wrong", "3")).runs[0].points[0].wrong, 3);
}

TEST(HostileJson, GpuIdsNumaKeysAndNestingAreBounded) {
  auto j = nlohmann::json::parse(healthy());
  j["runs"][0]["gpus"] = {0, 100000};
  expect_usage_error([&] { fb::parse_result(j.dump()); },
                     "$.runs[0].gpus[1]: expected a whole number in [-1, 4095]");
  j = nlohmann::json::parse(healthy());
  j["runs"][0]["gpus"] = std::vector<int>(5000, 0);
  expect_usage_error([&] { fb::parse_result(j.dump()); }, "5000 GPUs, more than the limit of 4096");
  j = nlohmann::json::parse(healthy());
  ASSERT_TRUE(j.contains("topology") && j["topology"].is_object());
  j["topology"]["numa_cpulists"]["x"] = "0-3";
  expect_usage_error([&] { fb::parse_result(j.dump()); },
                     "$.topology.numa_cpulists: key 'x' is not a whole number");
  j["topology"]["numa_cpulists"] = {{"99999999999", "0-3"}};
  expect_usage_error([&] { fb::parse_result(j.dump()); }, "key '99999999999'");
  const std::string deep = R"({"schema": "fabricbench.result/1", "a": )" + std::string(100000, '[') +
                           std::string(100000, ']') + "}";
  expect_usage_error([&] { fb::parse_result(deep); }, "nested deeper than 64 levels");
}

TEST(HostileJson, RealDocumentsStillLoad) {
  for (const char* name :
       {"h200x2-combined", "h200x2-doctor-quick", "h200x2-run-6coll-1M-4G-procs", "synthetic-scale"})
    EXPECT_NO_THROW(fb::parse_result(fixture(std::string("results/") + name + ".json"))) << name;
}

// --- the checked reader and writer ---------------------------------------------------------

TEST(HostileFiles, OnlyRegularFilesAreRead) {
  const TempDir dir;
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  // A FIFO with no writer: refused at once (the old reader blocked in open() forever).
  expect_usage_error([&] { fb::read_file(dir / "fifo"); }, "a FIFO, not a regular file");
  expect_usage_error([&] { fb::read_file(dir.path.string()); }, "a directory, not a regular file");
  expect_usage_error([] { fb::read_file("/dev/zero"); }, "a character device, not a regular file");
  expect_usage_error([&] { fb::read_file(dir / "missing"); }, "No such file");
  EXPECT_FALSE(fb::read_file_if_readable(dir / "missing", 10));
  std::ofstream(dir / "big") << std::string(100, 'x');
  expect_usage_error([&] { fb::read_file(dir / "big", 99); }, "larger than the limit of 99 bytes");
  EXPECT_EQ(fb::read_file(dir / "big", 100), std::string(100, 'x'));
}

TEST(HostileFiles, OutputPaths) {
  const TempDir dir;
  fs::create_directory(dir.path / "out");
  expect_usage_error([&] { fb::write_file_atomically(dir / "out", "x"); }, "a directory");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()),
            1);  // no temporary left
  // A symlink: its target is written, the link stays.
  std::ofstream(dir / "target") << "old";
  fs::create_symlink(dir.path / "target", dir.path / "link");
  fb::write_file_atomically(dir / "link", "new");
  EXPECT_TRUE(fs::is_symlink(dir.path / "link"));
  EXPECT_EQ(fb::read_file(dir / "target"), "new");
  // A dangling one is refused rather than guessed at.
  fs::create_symlink(dir.path / "nowhere", dir.path / "dangling");
  expect_usage_error([&] { fb::write_file_atomically(dir / "dangling", "x"); }, "does not exist");
  // Devices are written through, never replaced; through links of our own, so that a writer that
  // renames (the old one replaced /dev/null when run as root) damages only the link.
  fs::create_symlink("/dev/null", dir.path / "null");
  fb::write_file_atomically(dir / "null", "x");
  EXPECT_TRUE(fs::is_symlink(dir.path / "null"));
  if (::access("/dev/full", W_OK) == 0) {
    fs::create_symlink("/dev/full", dir.path / "full");
    expect_error([&] { fb::write_file_atomically(dir / "full", "x"); }, fb::ExitCode::run_failed,
                 "No space left on device");
  }
  // A FIFO nobody reads: an error now, not a wait forever.
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  expect_error([&] { fb::write_file_atomically(dir / "fifo", "x"); }, fb::ExitCode::run_failed,
               "cannot write");
  // A new regular file, whole.
  fb::write_file_atomically(dir / "new.md", "text");
  EXPECT_EQ(fb::read_file(dir / "new.md"), "text");
}

TEST(HostileFiles, OutputEqualToAnInputIsRefused) {
  const TempDir dir;
  std::ofstream(dir / "in.json") << "{}";
  fs::create_symlink(dir.path / "in.json", dir.path / "alias.json");
  expect_usage_error([&] { fb::check_output_is_not_an_input(dir / "in.json", {dir / "in.json"}); },
                     "is the input");
  expect_usage_error(
      [&] {
        fb::check_output_is_not_an_input(dir / "alias.json", {"", dir / "in.json"});
      },
      "is the input");
  EXPECT_NO_THROW(fb::check_output_is_not_an_input(dir / "other.json", {dir / "in.json"}));
  EXPECT_NO_THROW(fb::check_output_is_not_an_input("/dev/null", {"/dev/null"}));
}

// --- arithmetic that wrapped -------------------------------------------------------------

TEST(HostileArithmetic, StepFactors) {
  fb::RunOptions o;
  o.min_bytes = "1";
  o.max_bytes = "16";
  o.step_factor = 1.5;  // 1 * 1.5 rounded down is 1: the sweep used to stop at one size
  EXPECT_EQ(fb::build_sizes(o), (std::vector<std::uint64_t>{1, 2, 3, 4, 6, 9, 13}));
  o.max_bytes = "1G";
  for (const double f : {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    o.step_factor = f;
    expect_usage_error([&] { fb::build_sizes(o); }, "must be a finite number greater than 1");
  }
  o.min_bytes = "1M";
  o.step_factor = 1e308;
  expect_usage_error([&] { fb::build_sizes(o); }, "steps from 1 MiB past 1 GiB at once");
  // No double-to-integer conversion out of range at the top of the range.
  EXPECT_EQ(fb::size_sweep(1ULL << 62, ~0ULL, 5.0, 0), (std::vector<std::uint64_t>{1ULL << 62}));
}

TEST(HostileArithmetic, MemoryNeedsSaturate) {
  const fb::BufferNeeds needs{9223372036317904896ULL, 9223372036317904896ULL};
  EXPECT_EQ(needs.total_with_nccl(), ~0ULL);  // it wrapped to 0, which fitted every GPU
  const fb::BufferNeeds small{1, 2};
  EXPECT_EQ(small.total_with_nccl(), 3 + fb::kNcclReserveBytes);
}

TEST(HostileArithmetic, LatencyStrideDoesNotWrap) {
  fb::P2pOptions o;
  o.latency_stride = "8388608T";  // 2^63: doubled it wrapped to 0, "at most half" passed
  expect_usage_error([&] { fb::p2p_request(o); }, "at most half of --latency-size");
}

TEST(HostileArithmetic, TimeoutsAndRootAreCheckedEarly) {
  for (const double t :
       {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(), 1e300, 0.0})
    expect_usage_error([t] { fb::check_timeout(t, "--timeout"); }, "--timeout must be in (0, 604800]");
  fb::RunOptions o;
  o.collectives = {"broadcast"};
  o.request.root = -1;
  expect_usage_error([&] { fb::run_request(o); }, "-r/--root must be >= 0");
  expect_usage_error([] { fb::parse_gpu_selection("0-2000000000"); }, "is out of range");
}

}  // namespace
