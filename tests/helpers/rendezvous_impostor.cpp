// A hostile process at a job's rendezvous (tests/cli/rendezvous_security.sh): it speaks the real wire
// protocol of comm/tcp_link (the same frames, the handshake of comm/hello_desk where it holds the
// secret) and does what a rank or rank 0 must never be able to make the job do.
//   rendezvous_impostor squat PORT SECONDS PATH   listen first on 127.0.0.1:PORT as a rank 0 would;
//                                   to every hello: a welcome without any proof, then a "host
//                                   textfiles" message naming PATH and a plan whose environment
//                                   names a library; prints each connection it served
//   rendezvous_impostor hello PORT RANK SIZE      a hello that offers no proof; prints what came back
//   rendezvous_impostor forged PORT RANK SIZE     a hello with a nonce, then a proof made with a guessed
//                                   key; prints what came back
//   rendezvous_impostor idle PORT N SECONDS       N connections that say nothing for SECONDS
//   rendezvous_impostor big-hello PORT            a hello frame whose header says 1 GiB, then 1 MiB of it
// With the job's secret (FABRICBENCH_JOB_SECRET, else the host's key file of that port), as RANK of
// SIZE, host IMPOSTOR_HOST (default "impostor"):
//   rendezvous_impostor flood PORT RANK SIZE      joins, then sends exchanges without end
//   rendezvous_impostor fatal PORT RANK SIZE JSON joins, then a failure frame holding JSON
//   rendezvous_impostor silent PORT RANK SIZE     joins, then says nothing
//   rendezvous_impostor follow PORT RANK SIZE FILE  joins and answers rank 0's exchanges as a rank
//                                   does, with FILE's text as its host's section
//   rendezvous_impostor root PORT PATH LIB   rank 0 of 2 that holds the secret: hands rank 1 its
//                                   textfile naming PATH, then asks it to describe its host with LIB;
//                                   prints what rank 1 answered
#include <fmt/format.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "comm/hello_desk.hpp"
#include "comm/job_secret.hpp"
#include "comm/rendezvous_messages.hpp"
#include "comm/tcp_link.hpp"
#include "core/file_io.hpp"

namespace {

using fb::Frame;
using fb::Link;
using fb::SteadyClock;

SteadyClock::time_point in_seconds(double s) { return fb::seconds_after(SteadyClock::now(), s); }

std::string host() {
  const char* h = std::getenv("IMPOSTOR_HOST");
  return h != nullptr ? h : "impostor";
}

std::string secret(int port) {
  if (const char* s = std::getenv(fb::kJobSecretVar)) return s;
  return fb::read_host_key(fmt::format("/tmp/fabricbench-{}/rendezvous-{}.key", ::geteuid(), port));
}

// What rank 0 said last, as one line.
void say_reply(Link& link, double seconds) {
  const auto f = link.receive(in_seconds(seconds));
  if (!f) {
    fmt::print("reply: {}\n", link.broken().empty() ? "none (closed or silent)" : link.broken());
    return;
  }
  fmt::print("reply: frame '{}' of {} bytes\n", f->type, f->payload.size());
}

int squat(int port, double seconds, const std::string& path) {
  const int listener = fb::listen_on("127.0.0.1", port);
  fmt::print("squatting 127.0.0.1:{}\n", port);
  std::fflush(stdout);
  const auto until = in_seconds(seconds);
  std::vector<std::unique_ptr<Link>> served;
  for (;;) {
    const int fd = fb::accept_until(listener, until);
    if (fd < 0) break;
    auto link = std::make_unique<Link>(fd, fb::LinkRole::from_rank);
    const auto hello = link->receive(in_seconds(5));
    fmt::print("served a connection: {}\n", hello ? hello->payload : std::string("no hello"));
    std::fflush(stdout);
    link->send(fb::frame::welcome, R"({"hosts":["impostor","victim"],"local_ranks":[0,0]})");
    const auto order = fmt::format(R"(host textfiles
{{"path":"{}","texts":{{"victim":"pwned\n"}}}})",
                                   path);
    link->send(fb::frame::data, fb::encode_strings({order, ""}));
    link->send(
        fb::frame::data,
        fb::encode_strings(
            {R"({"plan":{},"env":{"LD_PRELOAD":"/tmp/evil.so","NCCL_NET_PLUGIN":"/tmp/evil.so"}})", ""}));
    served.push_back(std::move(link));
  }
  ::close(listener);
  return 0;
}

int unproven_hello(int port, int rank, int size, bool with_nonce) {
  Link link(fb::connect_until("127.0.0.1", port, in_seconds(10)), fb::LinkRole::from_root);
  fb::Hello h{rank, size, 0, host(), with_nonce ? std::string(fb::kNonceBytes, 'n') : ""};
  link.send(fb::frame::hello, fb::hello_payload(h));
  if (with_nonce) {
    const auto challenge = link.receive(in_seconds(10));
    fmt::print("challenge: {}\n", challenge ? "received" : "none");
    link.send(fb::frame::proof, std::string(32, 'p'));  // a guess: the secret is not known
  }
  say_reply(link, 30);
  return 0;
}

int idle(int port, int count, double seconds) {
  std::vector<int> fds;
  for (int i = 0; i < count; ++i) fds.push_back(fb::connect_until("127.0.0.1", port, in_seconds(10)));
  fmt::print("{} idle connections open\n", count);
  std::fflush(stdout);
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  for (const int fd : fds) ::close(fd);
  return 0;
}

int big_hello(int port) {
  Link link(fb::connect_until("127.0.0.1", port, in_seconds(10)), fb::LinkRole::from_root);
  std::string head(1, fb::frame::hello);
  head += std::string("\x00\x00\x00\x40", 4);  // 1 GiB, little-endian
  const int fd = link.fd();
  (void)::write(fd, head.data(), head.size());
  const std::string chunk(1 << 20, '{');
  const auto n = ::send(fd, chunk.data(), chunk.size(), MSG_NOSIGNAL);
  fmt::print("sent a 1 GiB hello's header and {} bytes of it\n", n);
  say_reply(link, 30);
  return 0;
}

std::unique_ptr<Link> join(int port, int rank, int size) {
  std::string why;
  auto link = fb::join_root(fb::connect_until("127.0.0.1", port, in_seconds(30)), secret(port),
                            {rank, size, 0, host(), ""}, in_seconds(30), why);
  if (!link) throw fb::Error(fb::ExitCode::environment, "could not join: " + why);
  const auto welcome = link->receive(in_seconds(60));
  if (!welcome || welcome->type != fb::frame::welcome)
    throw fb::Error(fb::ExitCode::environment, "no welcome");
  fmt::print("joined as rank {} of {}\n", rank, size);
  std::fflush(stdout);
  return link;
}

// Answers rank 0's exchanges as engine/job_main's loop does, with `section` for "describe hosts".
int follow(Link& link, const std::string& section) {
  std::string mine;
  for (int i = 0; i < 100; ++i) {
    if (!link.send(fb::frame::data, mine)) break;
    const auto f = link.receive(in_seconds(120));
    if (!f) break;
    if (f->type != fb::frame::data) {
      fmt::print("rank 0 sent a frame '{}': {}\n", f->type, f->payload.substr(0, 200));
      break;
    }
    const auto all = fb::decode_strings(f->payload);
    const std::string message = all && !all->empty() ? (*all)[0] : "";
    const bool describe = mine.empty() && message.starts_with("describe hosts");
    fmt::print("exchange {}: {}\n", i, message.substr(0, 40));
    std::fflush(stdout);
    if (message == "done") break;
    mine = describe ? section : "";
  }
  say_reply(link, 5);
  return 0;
}

// Rank 0's side of one exchange with rank 1: its part, then everyone's.
std::string exchange(Link& link, const std::string& mine) {
  const auto theirs = link.receive(in_seconds(60));
  if (!theirs || theirs->type != fb::frame::data) {
    fmt::print("rank 1 sent no exchange: {}\n", theirs ? theirs->payload.substr(0, 200) : link.broken());
    return "";
  }
  link.send(fb::frame::data, fb::encode_strings({mine, theirs->payload}));
  return theirs->payload;
}

int root(int port, const std::string& path, const std::string& lib) {
  fb::HelloDesk desk(fb::listen_on("127.0.0.1", port), secret(port), 10);
  std::vector<fb::JoinedRank> joined;
  while (joined.empty()) joined = desk.serve(in_seconds(30));
  auto& link = *joined[0].link;
  const auto& host = joined[0].hello.host;
  link.send(fb::frame::welcome, fb::welcome_payload({{"impostor", host}, {0, 0}}));
  fmt::print("rank 1 joined from {}\n", host);
  exchange(link, fmt::format("host textfiles\n{{\"path\":\"{}\",\"texts\":{{\"{}\":\"pwned 1\\n\"}}}}", path,
                             host));
  fmt::print("rank 1's textfile: '{}'\n", exchange(link, ""));
  exchange(link, "describe hosts\n" + lib);
  const auto last = link.receive(in_seconds(30));
  fmt::print("rank 1 then sent: {}\n",
             last ? std::string(1, last->type) + " " + last->payload.substr(0, 300) : "nothing");
  std::fflush(stdout);
  return 0;
}

int with_secret(const std::string& mode, const std::vector<std::string>& a) {
  const int port = std::stoi(a.at(2));
  auto link = join(port, std::stoi(a.at(3)), std::stoi(a.at(4)));
  if (mode == "flood") {
    int sent = 0;
    while (link->send(fb::frame::data, std::string(1 << 16, 'f')) && sent < 100000) ++sent;
    fmt::print("flood: {} exchanges sent before rank 0 closed the connection\n", sent);
    return 0;
  }
  if (mode == "fatal") {
    link->send(fb::frame::fatal, a.at(5));
    say_reply(*link, 30);
    return 0;
  }
  if (mode == "silent") {
    std::this_thread::sleep_for(std::chrono::seconds(120));
    return 0;
  }
  return follow(*link, fb::read_file(a.at(5), std::uint64_t{64} << 20));
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> a(argv, argv + argc);
  try {
    const std::string mode = a.at(1);
    if (mode == "squat") return squat(std::stoi(a.at(2)), std::stod(a.at(3)), a.at(4));
    if (mode == "hello" || mode == "forged")
      return unproven_hello(std::stoi(a.at(2)), std::stoi(a.at(3)), std::stoi(a.at(4)), mode == "forged");
    if (mode == "idle") return idle(std::stoi(a.at(2)), std::stoi(a.at(3)), std::stod(a.at(4)));
    if (mode == "big-hello") return big_hello(std::stoi(a.at(2)));
    if (mode == "root") return root(std::stoi(a.at(2)), a.at(3), a.at(4));
    return with_secret(mode, a);
  } catch (const std::exception& e) {
    fmt::print("impostor: {}\n", e.what());
    return 3;
  }
}
