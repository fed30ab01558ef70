// The pieces of a job that lets no one in (issue 53, docs/security.md), without processes: HMAC-SHA256
// against RFC 4231's test vectors, the typed messages of the rendezvous (hello, welcome, a failure),
// frames capped by type and direction on a real socket pair, a plan's environment, JSON nesting counted
// on the text, the job's secret chosen by the environment, and summary.md's escaping. The processes:
// tests/cli/rendezvous_security.sh.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <map>
#include <optional>
#include <string>

#include "comm/hmac.hpp"
#include "comm/job_secret.hpp"
#include "comm/job_session.hpp"
#include "comm/rendezvous_messages.hpp"
#include "comm/tcp_link.hpp"
#include "core/json_text.hpp"
#include "expect_error.hpp"
#include "report/markdown_text.hpp"

namespace {

std::string bytes(const std::string& hex) { return fb::from_hex(hex); }

// RFC 4231, section 4: test cases 1-4, 6 and 7 (5 is a truncated output, which HMAC-SHA256 here is not).
TEST(Hmac, Rfc4231TestVectors) {
  struct Case {
    std::string key, data, mac;
  };
  const Case cases[] = {
      {std::string(20, '\x0b'), "Hi There",
       "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
      {"Jefe", "what do ya want for nothing?",
       "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
      {std::string(20, '\xaa'), std::string(50, '\xdd'),
       "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"},
      {bytes("0102030405060708090a0b0c0d0e0f10111213141516171819"), std::string(50, '\xcd'),
       "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"},
      {std::string(131, '\xaa'), "Test Using Larger Than Block-Size Key - Hash Key First",
       "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
      {std::string(131, '\xaa'),
       "This is a test using a larger than block-size key and a larger than block-size data. The key needs "
       "to be "
       "hashed before being used by the HMAC algorithm.",
       "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"},
  };
  for (const auto& c : cases) EXPECT_EQ(fb::to_hex(fb::hmac_sha256(c.key, c.data)), c.mac) << c.data;
  EXPECT_TRUE(fb::same_secret_bytes("abc", "abc"));
  EXPECT_FALSE(fb::same_secret_bytes("abc", "abd"));
  EXPECT_FALSE(fb::same_secret_bytes("abc", "abcd"));
  EXPECT_NE(fb::random_bytes(32), fb::random_bytes(32));
  EXPECT_EQ(fb::from_hex("0g"), "");
  EXPECT_EQ(fb::from_hex("abc"), "");
}

TEST(RendezvousMessages, ProofsBindBothNoncesTheHelloAndTheDirection) {
  const std::string key = "0123456789abcdef";
  const auto hello = fb::hello_payload({1, 2, 0, "cpu1", std::string(32, 'n')});
  const std::string nonce(32, 'r');
  EXPECT_NE(fb::root_proof(key, hello, nonce), fb::rank_proof(key, hello, nonce));  // no reflection
  EXPECT_NE(fb::root_proof(key, hello, nonce), fb::root_proof(key, hello, std::string(32, 's')));
  EXPECT_NE(fb::root_proof(key, hello, nonce),
            fb::root_proof(key, fb::hello_payload({1, 2, 0, "cpu2", std::string(32, 'n')}), nonce));
  EXPECT_NE(fb::root_proof(key, hello, nonce), fb::root_proof("0123456789abcdeF", hello, nonce));
  EXPECT_EQ(fb::root_proof(key, hello, nonce).size(), fb::kHmacBytes);
}

TEST(RendezvousMessages, HellosAreTypedAndTheirHostsAreHostNames) {
  std::string why;
  const auto h = fb::parse_hello(fb::hello_payload({3, 4, 1, "node-7.cluster", std::string(32, 'x')}), why);
  ASSERT_TRUE(h) << why;
  EXPECT_EQ(h->rank, 3);
  EXPECT_EQ(h->size, 4);
  EXPECT_EQ(h->local_rank, 1);
  EXPECT_EQ(h->host, "node-7.cluster");
  EXPECT_EQ(h->nonce, std::string(32, 'x'));
  const std::map<std::string, std::string> bad{
      {R"({"rank":1,"size":2,"local_rank":0,"host":"a\nb"})", "not a host name"},
      {R"({"rank":1,"size":2,"local_rank":0,"host":"<script>"})", "not a host name"},
      {R"({"rank":"1","size":2,"local_rank":0,"host":"a"})", "'rank' is not a whole number"},
      {R"({"rank":1.5,"size":2,"local_rank":0,"host":"a"})", "'rank' is not a whole number"},
      {R"({"rank":1,"size":0,"local_rank":0,"host":"a"})", "'size' 0 is not in"},
      {R"({"rank":1,"size":2,"local_rank":0,"host":"a","nonce":"abcd"})", "nonce is not 32 bytes"},
      {R"([1,2])", "not a JSON object"},
      {"{\"rank\":" + std::string(1000, '[') + std::string(1000, ']') + "}", "nested deeper than 4 levels"},
      {"not json", "parse error"},
  };
  for (const auto& [payload, needle] : bad) {
    std::string w;
    EXPECT_FALSE(fb::parse_hello(payload, w)) << payload;
    EXPECT_NE(w.find(needle), std::string::npos) << w;
  }
  EXPECT_FALSE(fb::valid_host_name(""));
  EXPECT_FALSE(fb::valid_host_name(std::string(256, 'a')));
  EXPECT_TRUE(fb::valid_host_name(std::string(255, 'a')));
  expect_usage_error([] { fb::require_host_name("a\nb", "NCCL_HOSTID"); },
                     "NCCL_HOSTID 'a\\nb' is not a host name");
}

TEST(RendezvousMessages, APeersFailureCodeIsTwoThreeOrFourOnly) {
  EXPECT_EQ(fb::parse_control(R"({"code":2,"text":"usage"})").code, fb::ExitCode::usage);
  EXPECT_EQ(fb::parse_control(R"({"code":3,"text":"env"})").code, fb::ExitCode::environment);
  for (const char* p :
       {R"({"code":0,"text":"all good"})", R"({"code":1})", R"({"code":77})", R"({"code":-1})",
        R"({"code":"zero","text":5,"step":[1]})", R"([[[["x"]]]])", "", "{"}) {
    const auto c = fb::parse_control(p);
    EXPECT_EQ(c.code, fb::ExitCode::run_failed) << p;
    EXPECT_FALSE(c.text.empty()) << p;
  }
  const auto c =
      fb::parse_control(R"({"code":4,"text":"line\n# forged","step":")" + std::string(5000, 's') + "\"}");
  EXPECT_EQ(c.text, "line\\n# forged");
  EXPECT_LT(c.step.size(), 300u);
  EXPECT_EQ(fb::parse_control(fb::control_payload({fb::ExitCode::usage, "why", "step"})).text, "why");
}

TEST(RendezvousMessages, WelcomesHoldEveryRanksHostAndNothingElse) {
  std::string why;
  const auto w = fb::parse_welcome(fb::welcome_payload({{"a", "b"}, {0, 0}}), 2, why);
  ASSERT_TRUE(w) << why;
  EXPECT_EQ(w->hosts, (std::vector<std::string>{"a", "b"}));
  EXPECT_FALSE(fb::parse_welcome(fb::welcome_payload({{"a"}, {}}), 2, why));
  EXPECT_FALSE(fb::parse_welcome(fb::welcome_payload({{"a", "b\n"}, {}}), 2, why));
  EXPECT_FALSE(fb::parse_welcome(fb::welcome_payload({{"a", "b"}, {0, 7}}), 2, why));
  EXPECT_TRUE(fb::parse_welcome(fb::welcome_payload({{"a", "b"}, {}}), 2, why));
}

// A frame's header is held against its cap before any of its payload is kept.
TEST(TcpLink, FramesAreCappedByTypeAndDirection) {
  int fds[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
  fb::Link to_root(fds[0], fb::LinkRole::from_root);
  fb::Link rank0_side(fds[1], fb::LinkRole::from_rank);
  ASSERT_TRUE(to_root.send(fb::frame::hello, std::string(4096, 'h')));
  auto f = rank0_side.receive(fb::seconds_after(fb::SteadyClock::now(), 5));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->payload.size(), 4096u);
  ASSERT_TRUE(to_root.send(fb::frame::hello, std::string(4097, 'h')));
  EXPECT_FALSE(rank0_side.receive(fb::seconds_after(fb::SteadyClock::now(), 5)));
  EXPECT_NE(rank0_side.broken().find("a frame 'H' of 4097 bytes, more than the 4096"), std::string::npos);
  EXPECT_FALSE(rank0_side.pump());  // a broken link reads no more
}

TEST(TcpLink, AFrameOfATypeTheDirectionNeverCarriesBreaksTheLink) {
  int fds[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
  fb::Link a(fds[0], fb::LinkRole::from_root);
  fb::Link rank_side(fds[1], fb::LinkRole::from_root);
  a.send(fb::frame::hello, "x");  // only rank 0 reads hellos
  EXPECT_FALSE(rank_side.receive(fb::seconds_after(fb::SteadyClock::now(), 5)));
  EXPECT_NE(rank_side.broken().find("'H'"), std::string::npos);
  EXPECT_FALSE(fb::frame_cap(fb::LinkRole::from_rank, fb::frame::abort));
  EXPECT_FALSE(fb::frame_cap(fb::LinkRole::from_root, fb::frame::fatal));
  EXPECT_EQ(*fb::frame_cap(fb::LinkRole::from_rank, fb::frame::data), fb::kMaxExchangeBytes);
}

TEST(TcpLink, MalformedExchangesAreRefusedNotRead) {
  const auto good = fb::encode_strings({"a", "", std::string("x\0y", 3)});
  ASSERT_TRUE(fb::decode_strings(good));
  EXPECT_EQ(fb::decode_strings(good)->at(2), std::string("x\0y", 3));
  EXPECT_FALSE(fb::decode_strings(""));
  EXPECT_FALSE(fb::decode_strings(good + "z"));
  EXPECT_FALSE(fb::decode_strings(good.substr(0, good.size() - 1)));
  EXPECT_FALSE(fb::decode_strings(std::string("\xff\xff\xff\x7f", 4)));  // 2^31 items announced in 4 bytes
  EXPECT_FALSE(fb::decode_strings(std::string("\x01\x00\x00\x00\xff\xff\xff\xff", 8)));
}

TEST(JobPlans, APlansEnvironmentHoldsNcclTuningVariablesOnly) {
  std::vector<std::string> dropped;
  const auto kept = fb::plan_environment({{"NCCL_ALGO", "allreduce:ring;broadcast:^tree"},
                                          {"NCCL_PROTO", "LL128"},
                                          {"NCCL_BUFFSIZE", "4194304"},
                                          {"NCCL_NET_PLUGIN", "/tmp/evil.so"},
                                          {"NCCL_TUNER_PLUGIN", "evil"},
                                          {"NCCL_DEBUG_FILE", "/etc/cron.d/x"},
                                          {"NCCL_TOPO_FILE", "/tmp/topo.xml"},
                                          {"LD_PRELOAD", "/tmp/evil.so"},
                                          {"LD_LIBRARY_PATH", "/tmp"},
                                          {"NCCL_MAX_NCHANNELS", "../../x"}},
                                         &dropped);
  EXPECT_EQ(kept, (std::map<std::string, std::string>{{"NCCL_ALGO", "allreduce:ring;broadcast:^tree"},
                                                      {"NCCL_BUFFSIZE", "4194304"},
                                                      {"NCCL_PROTO", "LL128"}}));
  EXPECT_EQ(dropped.size(), 7u);
  const auto message = fb::parse_job_plan_message(
      R"({"plan":{"runs":[]},"env":{"LD_PRELOAD":"/tmp/evil.so","NCCL_ALGO":"Ring","NCCL_PROTO":5}})");
  ASSERT_TRUE(message);
  EXPECT_EQ(message->env, (std::map<std::string, std::string>{{"NCCL_ALGO", "Ring"}}));
  EXPECT_FALSE(fb::parse_job_plan_message(fb::kJobNoMorePlans));
  expect_error([] { fb::parse_job_plan_message(R"({"plan":)" + std::string(100000, '[') + "}"); },
               fb::ExitCode::run_failed, "nested deeper than 64 levels");
  expect_error([] { fb::parse_job_plan_message("[1]"); }, fb::ExitCode::run_failed, "not a plan");
}

TEST(JsonText, NestingIsCountedOnTheTextWithoutRecursion) {
  EXPECT_EQ(fb::json_nesting(R"({"a":[1,{"b":"[[[["}]})", 64), 3);
  EXPECT_EQ(fb::json_nesting(R"(["\"[[[", "\\", [1]])", 64), 2);
  EXPECT_EQ(fb::json_nesting(std::string(300000, '['), 64), 65);  // counting stops past the limit
  std::string why;
  EXPECT_FALSE(fb::parse_json_bounded(std::string(300000, '{'), 64, why));
  EXPECT_EQ(why, "nested deeper than 64 levels");
  EXPECT_FALSE(fb::parse_json_bounded("[1e999]", 64, why));
  EXPECT_TRUE(fb::parse_json_bounded(std::string(64, '[') + std::string(64, ']'), 64, why));
}

fb::EnvLookup env_of(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const std::string& name) -> std::optional<std::string> {
    const auto it = vars.find(name);
    return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
}

fb::TcpJobEnv job_at(const std::string& address, int rank, int size) {
  fb::TcpJobEnv job;
  job.launcher = fb::JobLauncher::torchrun;
  job.rank = rank;
  job.size = size;
  job.master_addr = address;
  job.port = 29401;
  return job;
}

TEST(JobSecret, ChosenFromTheEnvironmentAndRefusedAcrossHostsWithoutOne) {
  const auto across = job_at("192.0.2.7", 1, 16);  // TEST-NET-1: no host of ours
  const auto secret = fb::job_secret(across, env_of({{fb::kJobSecretVar, "0123456789abcdef"}}));
  EXPECT_EQ(secret.key, "0123456789abcdef");
  expect_usage_error(
      [&] {
        fb::job_secret(across, env_of({{fb::kJobSecretVar, "short"}}));
      },
      "holds 5 characters: at least 16");
  expect_usage_error(
      [&] {
        fb::job_secret(across, env_of({{"LOCAL_WORLD_SIZE", "8"}}));
      },
      "a job across hosts needs a shared secret");
  EXPECT_EQ(fb::job_secret(across, env_of({{fb::kInsecureRendezvousVar, "1"}})).key, "");
  EXPECT_EQ(fb::job_secret(job_at("192.0.2.7", 0, 1), env_of({})).key, "");  // one rank: no rendezvous
  // One host: the launcher says so, or the address is a loopback one; rank 1 reads rank 0's key file.
  for (const auto& [address, vars] : std::vector<std::pair<std::string, std::map<std::string, std::string>>>{
           {"192.0.2.7", {{"LOCAL_WORLD_SIZE", "16"}}}, {"127.0.0.1", {}}, {"localhost", {}}}) {
    EXPECT_TRUE(fb::job_on_one_host(job_at(address, 1, 16), env_of(vars))) << address;
    const auto s = fb::job_secret(job_at(address, 1, 16), env_of(vars));
    EXPECT_NE(s.key_file.find("/rendezvous-29401.key"), std::string::npos) << s.key_file;
  }
  auto slurm = job_at("192.0.2.7", 1, 16);
  slurm.launcher = fb::JobLauncher::slurm;
  EXPECT_TRUE(fb::job_on_one_host(slurm, env_of({{"SLURM_STEP_NUM_NODES", "1"}})));
  EXPECT_FALSE(fb::job_on_one_host(slurm, env_of({{"SLURM_STEP_NUM_NODES", "2"}})));
  EXPECT_EQ(fb::new_job_secret().size(), 64u);
}

TEST(MarkdownText, OutsideValuesStayInTheirLineAndCell) {
  EXPECT_EQ(fb::md_text("node-a"), "node-a");
  EXPECT_EQ(fb::md_text("a\n# forged\n| x | y |"), "a\\\\n# forged\\\\n\\| x \\| y \\|");
  EXPECT_EQ(fb::md_text("<script>alert(1)</script>"), "\\<script>alert(1)\\</script>");
  EXPECT_EQ(fb::md_text("[click](javascript:x)"), "\\[click\\](javascript:x)");
  EXPECT_EQ(fb::md_text("GPU0 <-> GPU1, `code`"), "GPU0 <-> GPU1, `code`");
  EXPECT_EQ(fb::md_text("a\\|b"), "a\\\\\\|b");
  EXPECT_EQ(fb::md_text(std::string("\x1b[31m", 5)), "\\\\x1b\\[31m");
}

}  // namespace
