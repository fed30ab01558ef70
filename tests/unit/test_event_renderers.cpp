// The two forms of the engine's events on stderr (app/event_renderers.hpp): the console's words
// and --progress json's lines, each against hand-written output; and how --progress is read.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "app/event_renderers.hpp"
#include "app/progress_output.hpp"
#include "expect_error.hpp"

namespace {

fb::Event event(fb::EventKind kind, std::string text) { return fb::make_event(kind, std::move(text)); }

std::vector<fb::Event> every_kind() {
  fb::Event first = event(fb::EventKind::progress, "sweeping NCCL's default (1 of 3)");
  first.sweep = fb::SweepPosition{0, 3, 0.0, std::nullopt};
  fb::Event second =
      event(fb::EventKind::progress, "sweeping Ring/LL (2 of 3, 10 s so far, about 20 s left)");
  second.sweep = fb::SweepPosition{1, 3, 10.0, 20.0};
  fb::Event rank_warning = event(fb::EventKind::warning, "not bound to CPUs");
  rank_warning.rank = 2;
  return {event(fb::EventKind::stage, "reading NCCL's own choices from its log"),
          first,
          second,
          rank_warning,
          event(fb::EventKind::warning, "NCCL_ALGO is set"),
          event(fb::EventKind::note, "one GPU selected"),
          event(fb::EventKind::stopped,
                "interrupted after 1 of 3 configurations began: the report holds what "
                "was measured"),
          event(fb::EventKind::error, "rank 1 (b) during 'x': \"bad\"\tvalue\x01"),
          event(fb::EventKind::internal_error, "on rank 1: json parse"),
          event(fb::EventKind::detail, "      12.5      80.1  loading NCCL")};
}

// What `Sink` writes for `events`, through a real FILE*.
template <typename Sink>
std::string rendered(const std::vector<fb::Event>& events) {
  char* buffer = nullptr;
  std::size_t size = 0;
  std::FILE* out = open_memstream(&buffer, &size);
  {
    Sink sink(out);
    for (const auto& e : events) sink.emit(e);
  }
  std::fclose(out);
  std::string text(buffer, size);
  std::free(buffer);  // NOLINT(cppcoreguidelines-no-malloc): open_memstream's buffer
  return text;
}

}  // namespace

TEST(EventRenderers, JsonLinesAreOneObjectPerLineKindAndTextFirst) {
  EXPECT_EQ(rendered<fb::JsonLineEvents>(every_kind()),
            R"json({"kind":"stage","text":"reading NCCL's own choices from its log"}
{"kind":"progress","text":"sweeping NCCL's default (1 of 3)","done":0,"total":3,"elapsed_s":0.0}
{"kind":"progress","text":"sweeping Ring/LL (2 of 3, 10 s so far, about 20 s left)","done":1,"total":3,"elapsed_s":10.0,"left_s":20.0}
{"kind":"warning","text":"not bound to CPUs","rank":2}
{"kind":"warning","text":"NCCL_ALGO is set"}
{"kind":"note","text":"one GPU selected"}
{"kind":"stopped","text":"interrupted after 1 of 3 configurations began: the report holds what was measured"}
{"kind":"error","text":"rank 1 (b) during 'x': \"bad\"\tvalue\u0001"}
{"kind":"internal_error","text":"on rank 1: json parse"}
{"kind":"detail","text":"      12.5      80.1  loading NCCL"}
)json");
}

TEST(EventRenderers, JsonLinesReplaceBytesThatAreNotUtf8) {
  EXPECT_EQ(rendered<fb::JsonLineEvents>({event(fb::EventKind::error, "file \xff")}),
            "{\"kind\":\"error\",\"text\":\"file \xef\xbf\xbd\"}\n");  // U+FFFD
}

// The words fabricbench has always printed (tests/cli/ read them too).
TEST(EventRenderers, ConsoleSaysTheWordsUsersKnow) {
  EXPECT_EQ(rendered<fb::ConsoleEvents>(every_kind()),
            "fabricbench: reading NCCL's own choices from its log\n"
            "fabricbench: sweeping NCCL's default (1 of 3)\n"
            "fabricbench: sweeping Ring/LL (2 of 3, 10 s so far, about 20 s left)\n"
            "fabricbench: rank 2: warning: not bound to CPUs\n"
            "fabricbench: warning: NCCL_ALGO is set\n"
            "fabricbench: note: one GPU selected\n"
            "fabricbench: interrupted after 1 of 3 configurations began: the report holds what was measured\n"
            "fabricbench: error: rank 1 (b) during 'x': \"bad\"\\tvalue\\x01\n"  // one line, as every error
            "fabricbench: internal error: on rank 1: json parse\n"
            "      12.5      80.1  loading NCCL\n");  // a table's line, as it is
}

TEST(ProgressOutput, FormatComesFromTheRawCommandLine) {
  using fb::ProgressFormat;
  EXPECT_EQ(fb::progress_format_from_args({"fabricbench", "run", "all_reduce"}), ProgressFormat::console);
  EXPECT_EQ(fb::progress_format_from_args({"fabricbench", "run", "--progress", "json"}),
            ProgressFormat::json);
  EXPECT_EQ(fb::progress_format_from_args({"fabricbench", "--progress=console", "algos"}),
            ProgressFormat::console);
  expect_usage_error(
      [] {
        fb::progress_format_from_args({"fabricbench", "--progress", "xml"});
      },
      "unknown --progress format 'xml'");
}
