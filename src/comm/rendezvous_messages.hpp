#pragma once
// The messages of the TCP rendezvous and of a job's control frames, typed: each is parsed from a
// bounded frame (comm/tcp_link) without exceptions and with its nesting limited, every member
// checked for its type and range, and a host name held to what a host name may hold. What a peer
// sends is data: a value it cannot choose (an exit code outside 2-4, a host name with a newline)
// is refused or mapped, never taken as it came. The handshake's proofs of the job's secret
// (HMAC-SHA256, comm/hmac) bind both nonces and the hello, in both directions.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace fb {

inline constexpr std::size_t kNonceBytes = 32;
inline constexpr std::size_t kMaxHostName = 255;

// A host name as a rank may say it (its own, or NCCL_HOSTID): 1-255 characters of letters, digits,
// '.', '-', '_' and ':'. Nothing else reaches a document, a textfile or a log as a host.
bool valid_host_name(std::string_view name);
// Error(usage) naming the value (its control characters written out) and where it came from.
void require_host_name(std::string_view name, std::string_view origin);

// Rank r's first frame.
struct Hello {
  int rank = -1;
  int size = 0;
  int local_rank = -1;
  std::string host;
  std::string nonce;  // kNonceBytes raw bytes; empty when the rank has no secret to prove
};
std::string hello_payload(const Hello& hello);
std::optional<Hello> parse_hello(const std::string& payload, std::string& why);

// Rank 0's answer to an authenticated hello: its nonce and its proof; and rank r's proof back.
std::string root_proof(const std::string& key, const std::string& hello, const std::string& root_nonce);
std::string rank_proof(const std::string& key, const std::string& hello, const std::string& root_nonce);

// What rank 0 tells every rank once all have joined: every rank's host and local rank.
struct Welcome {
  std::vector<std::string> hosts;
  std::vector<int> local_ranks;  // empty: from the hosts
};
std::string welcome_payload(const Welcome& welcome);
// `size` ranks expected; each host valid, each local rank in 0..size-1.
std::optional<Welcome> parse_welcome(const std::string& payload, int size, std::string& why);

// A rank's failure (fatal) or rank 0's order to end (abort).
struct Control {
  ExitCode code = ExitCode::run_failed;
  std::string text;
  std::string step;
};
std::string control_payload(const Control& control);
// Never fails: a malformed frame is a failure of code 4 that says so. The code is kept only when it
// is 2, 3 or 4 (a peer cannot make a job end in success or choose another code); the texts are cut
// to 2,000 characters with their control characters written out.
Control parse_control(const std::string& payload);

// A step's label as a rank reports it (rank 0 names it in messages): cut and escaped likewise.
std::string step_label(const std::string& payload);

}  // namespace fb
