#pragma once
// The result document's version, "fabricbench.result/MAJOR.MINOR" (docs/result-schema.md): a
// build reads every minor of its major (a later minor only adds what a reader may ignore) and
// refuses anything else by name.
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string_view>

namespace fb {

struct SchemaVersion {
  int major = 0;
  int minor = 0;
  bool operator==(const SchemaVersion&) const = default;
};

inline constexpr std::string_view kResultSchemaName = "fabricbench.result";
// What this build writes; it reads every minor of this major (result_version.cpp's unit test
// checks that the two constants agree).
inline constexpr SchemaVersion kResultVersion{1, 6};
inline constexpr const char* kResultSchema = "fabricbench.result/1.6";

// "fabricbench.result/1.7" -> {1, 7}; a bare major ("fabricbench.result/1", written before the
// minor existed) is its .0. nullopt for another name, a missing major or anything but digits.
std::optional<SchemaVersion> parse_schema_version(std::string_view text);

// Throws Error(usage) "$.schema: unsupported result schema ..." unless `schema` is a string of
// kResultVersion's major, saying what the file holds and what this build reads.
void check_result_schema(const nlohmann::json& schema);

}  // namespace fb
