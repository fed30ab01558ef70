#include "comm/rendezvous_messages.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "comm/hmac.hpp"
#include "core/json_text.hpp"
#include "core/text.hpp"

namespace fb {
namespace {

using nlohmann::json;

constexpr int kMessageDepth = 4;  // none of these messages nests deeper
constexpr std::size_t kMaxText = 2000;

std::optional<json> object_of(const std::string& payload, std::string& why) {
  auto j = parse_json_bounded(payload, kMessageDepth, why);
  if (j && !j->is_object()) {
    why = "not a JSON object";
    return std::nullopt;
  }
  return j;
}

// The member as an int in [lo, hi]; nullopt (with `why`) when it is missing, not a whole number or out.
std::optional<int> int_member(const json& j, const char* key, int lo, int hi, std::string& why) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number_integer()) {
    why = fmt::format("'{}' is not a whole number", key);
    return std::nullopt;
  }
  const auto v = it->get<std::int64_t>();
  if (v < lo || v > hi) {
    why = fmt::format("'{}' {} is not in {}-{}", key, v, lo, hi);
    return std::nullopt;
  }
  return static_cast<int>(v);
}

std::string cut_text(std::string_view text) {
  const auto kept = text.substr(0, kMaxText);
  return escape_control(kept) + (text.size() > kMaxText ? " [cut]" : "");
}

std::string proof(std::string_view label, const std::string& key, const std::string& hello,
                  const std::string& root_nonce) {
  std::string message(label);
  message += '\n';
  message += root_nonce;
  message += hello;
  return hmac_sha256(key, message);
}

}  // namespace

bool valid_host_name(std::string_view name) {
  if (name.empty() || name.size() > kMaxHostName) return false;
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '-' || c == '_' || c == ':';
    if (!ok) return false;
  }
  return true;
}

void require_host_name(std::string_view name, std::string_view origin) {
  if (!valid_host_name(name))
    FB_USAGE_ERROR(fmt::format("{} '{}' is not a host name: 1-{} letters, digits, '.', '-', '_' or ':'",
                               origin, escape_control(name.substr(0, 300)), kMaxHostName));
}

std::string hello_payload(const Hello& hello) {
  json j{{"rank", hello.rank}, {"size", hello.size}, {"host", hello.host}, {"local_rank", hello.local_rank}};
  if (!hello.nonce.empty()) j["nonce"] = to_hex(hello.nonce);
  return j.dump();
}

std::optional<Hello> parse_hello(const std::string& payload, std::string& why) {
  const auto j = object_of(payload, why);
  if (!j) return std::nullopt;
  Hello h;
  const auto size = int_member(*j, "size", 1, 1 << 20, why);
  const auto rank = int_member(*j, "rank", -1, 1 << 20, why);
  const auto local = int_member(*j, "local_rank", -1, 1 << 20, why);
  if (!size || !rank || !local) return std::nullopt;
  h.size = *size;
  h.rank = *rank;
  h.local_rank = *local;
  const auto host = j->find("host");
  if (host == j->end() || !host->is_string() || !valid_host_name(host->get_ref<const std::string&>())) {
    why = "its host is not a host name";
    return std::nullopt;
  }
  h.host = host->get<std::string>();
  if (const auto nonce = j->find("nonce"); nonce != j->end()) {
    h.nonce = nonce->is_string() ? from_hex(nonce->get_ref<const std::string&>()) : "";
    if (h.nonce.size() != kNonceBytes) {
      why = "its nonce is not 32 bytes of hex";
      return std::nullopt;
    }
  }
  return h;
}

std::string root_proof(const std::string& key, const std::string& hello, const std::string& root_nonce) {
  return proof("fabricbench rendezvous 1: rank 0", key, hello, root_nonce);
}

std::string rank_proof(const std::string& key, const std::string& hello, const std::string& root_nonce) {
  return proof("fabricbench rendezvous 1: rank", key, hello, root_nonce);
}

std::string welcome_payload(const Welcome& welcome) {
  return json{{"hosts", welcome.hosts}, {"local_ranks", welcome.local_ranks}}.dump();
}

namespace {

// The welcome's hosts (each a host name) and local ranks (each in 0..size-1, or none), into `w`.
bool read_welcome_lists(const json& hosts, const json& locals, int size, Welcome& w, std::string& why) {
  for (const auto& h : hosts) {
    if (!h.is_string() || !valid_host_name(h.get_ref<const std::string&>())) {
      why = "a host that is not a host name";
      return false;
    }
    w.hosts.push_back(h.get<std::string>());
  }
  for (const auto& l : locals) {
    if (!l.is_number_integer() || l.get<std::int64_t>() < 0 || l.get<std::int64_t>() >= size) {
      why = "a local rank out of range";
      return false;
    }
    w.local_ranks.push_back(l.get<int>());
  }
  return true;
}

}  // namespace

std::optional<Welcome> parse_welcome(const std::string& payload, int size, std::string& why) {
  const auto j = object_of(payload, why);
  if (!j) return std::nullopt;
  const auto hosts = j->find("hosts");
  const auto locals = j->find("local_ranks");
  const auto n = static_cast<std::size_t>(size);
  const bool shaped = hosts != j->end() && hosts->is_array() && hosts->size() == n && locals != j->end() &&
                      locals->is_array() && (locals->empty() || locals->size() == n);
  if (!shaped) {
    why = fmt::format("not {} hosts and local ranks", size);
    return std::nullopt;
  }
  Welcome w;
  if (!read_welcome_lists(*hosts, *locals, size, w, why)) return std::nullopt;
  return w;
}

std::string control_payload(const Control& control) {
  return json{{"code", static_cast<int>(control.code)}, {"text", control.text}, {"step", control.step}}
      .dump();
}

Control parse_control(const std::string& payload) {
  std::string why;
  const auto j = object_of(payload, why);
  if (!j)
    return {ExitCode::run_failed, fmt::format("failed (a malformed failure message: {})", cut_text(why)), ""};
  Control c;
  if (const auto code = j->find("code"); code != j->end() && code->is_number_integer()) {
    const auto v = code->get<std::int64_t>();
    if (v >= 2 && v <= 4) c.code = static_cast<ExitCode>(v);
  }
  const auto text = j->find("text");
  c.text = text != j->end() && text->is_string() ? cut_text(text->get_ref<const std::string&>()) : "failed";
  if (const auto step = j->find("step"); step != j->end() && step->is_string())
    c.step = step_label(step->get<std::string>());
  return c;
}

std::string step_label(const std::string& payload) {
  return cut_text(std::string_view(payload).substr(0, 256));
}

}  // namespace fb
