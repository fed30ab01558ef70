#pragma once
// Rank 0's side of the rendezvous before a rank is trusted (comm/tcp_session): every connection to
// its port is read at once, each with a short limit of its own, so that idle connections, a slow
// peer or a flood cannot make the real ranks wait; a connection holds one hello of at most 4 KiB.
// With the job's secret (comm/job_secret), a hello that offers a nonce gets rank 0's nonce and its
// proof, and its rank is trusted only once its own proof checks out. A connection that says nothing
// in time, sends what is not a hello, cannot prove the secret or closes is dropped with one log line
// (the first 20 of them; then a count): the job goes on. The other side of the handshake,
// join_root, checks the listener's proof before it gives its own. A group of ranks' star
// (comm/group_bootstrap) uses the same two sides with a key of its own.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "comm/rendezvous_messages.hpp"
#include "comm/tcp_link.hpp"

namespace fb {

// A rank that completed the handshake: what it said, its link, where it came from.
struct JoinedRank {
  Hello hello;
  std::unique_ptr<Link> link;
  std::string from;
};

// Makes the handshake as `mine` (its nonce drawn here where `key` is set) on `fd`, a connection to the
// listener, which it takes over: the link, or null with `why` when the process there did not prove
// `key`, answered otherwise or went away (it is then closed). Throws the listener's refusal (an abort
// frame) as an Error of its code.
std::unique_ptr<Link> join_root(int fd, const std::string& key, Hello mine, SteadyClock::time_point deadline,
                                std::string& why);

// Where the rendezvous's notes go (a connection ignored, where rank 0 listens): one line each, without
// the "fabricbench: " prefix. Empty: standard error.
using RendezvousLog = std::function<void(const std::string& line)>;
void say(const RendezvousLog& log, const std::string& line);

class HelloDesk {
 public:
  // Takes over `listener`. `key` "" reads hellos without a handshake (--insecure-rendezvous, one rank).
  HelloDesk(int listener, std::string key, double hello_limit_s, RendezvousLog log = {});
  ~HelloDesk();
  HelloDesk(const HelloDesk&) = delete;
  HelloDesk& operator=(const HelloDesk&) = delete;

  // Serves connections until `until`; the ranks that completed their handshake meanwhile.
  std::vector<JoinedRank> serve(SteadyClock::time_point until);

  // Connections dropped so far, and the last one's line.
  [[nodiscard]] int ignored() const { return ignored_; }
  [[nodiscard]] const std::string& last_ignored() const { return last_ignored_; }

 private:
  struct Pending {
    std::unique_ptr<Link> link;
    std::string from;
    SteadyClock::time_point until;
    std::string hello;  // its payload, once read
    Hello said;
    std::string root_nonce;  // once challenged
    bool done = false;       // joined, or dropped
  };
  void accept_waiting();
  void read(Pending& p, std::vector<JoinedRank>& joined);
  void on_frame(Pending& p, const Frame& f, std::vector<JoinedRank>& joined);
  void on_hello(Pending& p, const Frame& f, std::vector<JoinedRank>& joined);
  void ignore(Pending& p, const std::string& why);

  int listener_;
  std::string key_;
  double hello_limit_s_;
  RendezvousLog log_;
  std::vector<Pending> pending_;
  int ignored_ = 0;
  std::string last_ignored_;
};

}  // namespace fb
