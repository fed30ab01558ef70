#include "core/events.hpp"

#include <nlohmann/json.hpp>

namespace fb {
namespace {

// One mapping for both forms: nlohmann::json (the workers' messages) and ordered_json (the
// lines scripts read, kind first).
template <typename Json>
Json event_object(const Event& e) {
  Json j;
  j["kind"] = std::string(to_string(e.kind));
  j["text"] = e.text;
  if (e.rank) j["rank"] = *e.rank;
  if (e.sweep) {
    j["done"] = e.sweep->done;
    j["total"] = e.sweep->total;
    j["elapsed_s"] = e.sweep->elapsed_s;
    if (e.sweep->left_s) j["left_s"] = *e.sweep->left_s;
  }
  return j;
}

}  // namespace

void to_json(nlohmann::json& j, const Event& event) { j = event_object<nlohmann::json>(event); }

void from_json(const nlohmann::json& j, Event& event) {
  event.kind = parse_enum<EventKind>(j.at("kind").get<std::string>());
  event.text = j.at("text").get<std::string>();
  event.rank = j.contains("rank") ? std::optional<int>(j.at("rank").get<int>()) : std::nullopt;
  event.sweep.reset();
  if (!j.contains("done")) return;
  SweepPosition& s = event.sweep.emplace();
  s.done = j.at("done").get<int>();
  s.total = j.at("total").get<int>();
  s.elapsed_s = j.at("elapsed_s").get<double>();
  if (j.contains("left_s")) s.left_s = j.at("left_s").get<double>();
}

std::string event_json_line(const Event& event) {
  return event_object<nlohmann::ordered_json>(event).dump(-1, ' ', false,
                                                          nlohmann::json::error_handler_t::replace);
}

}  // namespace fb
