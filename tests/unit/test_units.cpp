#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/text.hpp"
#include "core/units.hpp"

using fb::parse_size;

TEST(ParseSize, PlainBytesAndBinarySuffixes) {
  EXPECT_EQ(parse_size("8"), 8u);
  EXPECT_EQ(parse_size("4096B"), 4096u);
  EXPECT_EQ(parse_size("64K"), 65536u);
  EXPECT_EQ(parse_size("64k"), 65536u);
  EXPECT_EQ(parse_size("16M"), 16u * 1024 * 1024);
  EXPECT_EQ(parse_size("1G"), 1073741824u);
  EXPECT_EQ(parse_size("2GiB"), 2147483648u);
  EXPECT_EQ(parse_size("8g"), 8589934592u);
  EXPECT_EQ(parse_size("1T"), 1099511627776u);
}

TEST(ParseSize, RejectsWhatIsNotASize) {
  for (const char* bad : {"", "G", "-1", "1.5G", "12X", "0", "0K", "1 G", "99999999999999999999"}) {
    try {
      parse_size(bad, "-b");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const fb::Error& e) {
      EXPECT_EQ(e.code(), fb::ExitCode::usage) << bad;
      EXPECT_NE(std::string(e.what()).find("-b"), std::string::npos) << e.what();
    }
  }
}

TEST(ParseSize, DecimalSuffixesAreAmbiguousAndRefused) {
  try {
    parse_size("1GB");
    FAIL();
  } catch (const fb::Error& e) {
    EXPECT_NE(std::string(e.what()).find("GiB"), std::string::npos) << e.what();
  }
}

TEST(ParseSize, OverflowIsAnError) {
  EXPECT_THROW(parse_size("17179869184G"), fb::Error);  // 2^34 GiB = 2^64 bytes
}

TEST(FormatBytes, ExactAndFractional) {
  EXPECT_EQ(fb::format_bytes(8), "8 B");
  EXPECT_EQ(fb::format_bytes(65536), "64 KiB");
  EXPECT_EQ(fb::format_bytes(1073741824), "1 GiB");
  EXPECT_EQ(fb::format_bytes(1610612736), "1.5 GiB");
  EXPECT_EQ(fb::format_bytes(1000), "1000 B");
}

// What an error message suggests must parse back to the same size.
TEST(SizeArgument, ParsesBackToTheSameSize) {
  EXPECT_EQ(fb::size_argument(131072), "128K");
  EXPECT_EQ(fb::size_argument(4294967296), "4G");
  EXPECT_EQ(fb::size_argument(1ULL << 40), "1T");
  EXPECT_EQ(fb::size_argument(1536ULL << 20), "1536M");  // 1.5 GiB
  EXPECT_EQ(fb::size_argument(1000), "1000");
  EXPECT_EQ(fb::size_argument(8), "8");
  for (const std::uint64_t b : {8ULL, 1000ULL, 131072ULL, 1536ULL << 20, 3ULL << 30, (1ULL << 40) + 1})
    EXPECT_EQ(parse_size(fb::size_argument(b)), b) << b;
}

TEST(Bandwidth, GigabytesAreDecimal) {
  // 1 GiB in 3237.43 us: 1073741824 / 3237.43e-6 / 1e9 = 331.66 GB/s
  EXPECT_NEAR(fb::gb_per_s(1073741824.0, 3237.43), 331.665, 1e-3);
  EXPECT_DOUBLE_EQ(fb::gb_per_s(1e9, 1e6), 1.0);
  EXPECT_DOUBLE_EQ(fb::gb_per_s(100, 0), 0.0);
}

// A value echoed into a one-line message: every control character written out, the rest kept.
TEST(EscapeControl, WritesControlCharactersOut) {
  EXPECT_EQ(fb::escape_control("plain text, 42 GB/s"), "plain text, 42 GB/s");
  EXPECT_EQ(fb::escape_control("a\nb\tc\rd"), "a\\nb\\tc\\rd");
  EXPECT_EQ(fb::escape_control(std::string("x\x1c\x1b[1m\x7f") + '\0' + "y"), "x\\x1c\\x1b[1m\\x7f\\x00y");
  EXPECT_EQ(fb::escape_control("caf\xc3\xa9"), "caf\xc3\xa9");  // UTF-8 stays as it is
}

// How the views say several GPUs or ports of a kind: counted in the order each first appears.
TEST(Text, CountedJoinCountsInOrderOfFirstAppearance) {
  EXPECT_EQ(fb::counted_join({"NVIDIA H200", "NVIDIA H100", "NVIDIA H200"}),
            "2 x NVIDIA H200 + 1 x NVIDIA H100");
  EXPECT_EQ(fb::counted_join({"IB 400 Gb/s"}, ", "), "1 x IB 400 Gb/s");
  EXPECT_EQ(fb::counted_join({"a", "b", "a", "b", "c"}, ", "), "2 x a, 2 x b, 1 x c");
  EXPECT_EQ(fb::counted_join({}), "");
}
