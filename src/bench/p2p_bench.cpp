#include "bench/p2p_bench.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>

#include "core/error.hpp"
#include "core/units.hpp"
#include "gpu/copy_ops.hpp"
#include "gpu/runtime.hpp"
#include "gpu/vendor.hpp"
#include "model/p2p_tests.hpp"

namespace fb {
namespace {

constexpr std::uint32_t kHostSeed = 1000;  // pattern seed of host-side sources

struct Side {
  int device = 0;
  std::string cpulist;
  gpu::Stream stream;
  gpu::DeviceBuffer src;    // holds pattern(seed = device)
  gpu::DeviceBuffer dst;    // receives copies
  gpu::DeviceBuffer chase;  // pointer-chase target for latency
};

// One stream's share of a measurement: `op(copies)` queues that many copies between two events (an
// SM copy as one launch that repeats it, copy-engine copies one by one).
struct Lane {
  Side* side;
  std::function<void(int copies)> op;
};

// A copy-engine copy `copies` times.
template <class Copy>
std::function<void(int)> repeated(Copy copy) {
  return [copy](int copies) {
    for (int c = 0; c < copies; ++c) copy();
  };
}

class P2pBench {
 public:
  P2pBench(const P2pPlan& plan, const ProgressFn& progress, const StopFn& stop)
      : plan_(plan), progress_(progress), stop_(stop) {
    for (std::size_t i = 0; i < plan.gpus.size(); ++i) {
      const int dev = plan.gpus[i];
      gpu::set_device(dev);
      check_memory(dev);
      auto s = std::make_unique<Side>();
      s->device = dev;
      s->cpulist = plan.cpulists.at(i);
      s->src = gpu::DeviceBuffer(plan.bytes);
      s->dst = gpu::DeviceBuffer(plan.bytes);
      if (plan.latency) s->chase = gpu::DeviceBuffer(plan.latency_bytes);
      gpu::fill_pattern(s->src.data(), plan.bytes, static_cast<std::uint32_t>(dev), s->stream);
      s->stream.synchronize();
      sides_.push_back(std::move(s));
    }
  }

  std::vector<P2pMeasurement> run(bool& stopped) {
    stopped = false;
    try {
      run_tests();
    } catch (const Stopped&) {
      stopped = true;
    }
    note_copy_carrier();
    return std::move(out_);
  }

 private:
  struct Stopped {};  // thrown between samples once stop_ says so; caught in run()

  // A "copy engine" figure that no DMA engine made (AMD with HSA_ENABLE_SDMA=0) says so.
  void note_copy_carrier() {
    const auto note = gpu::copy_carrier_note(gpu::copy_carrier(std::getenv("HSA_ENABLE_SDMA")));
    if (note.empty()) return;
    for (auto& m : out_) {
      if (p2p_test_spec(m.test).copier != P2pCopier::copy_engine || m.samples == 0) continue;
      m.note = m.note.empty() ? std::string(note) : fmt::format("{}; {}", m.note, note);
    }
  }

  void run_tests() {
    if (plan_.pairs && sides_.size() > 1) {
      for (auto& a : sides_)
        for (auto& b : sides_)
          if (a != b) unidirectional(*a, *b);
      for (std::size_t i = 0; i < sides_.size(); ++i)
        for (std::size_t j = i + 1; j < sides_.size(); ++j) bidirectional(*sides_[i], *sides_[j]);
      if (plan_.latency)
        for (auto& a : sides_)
          for (auto& b : sides_)
            if (a != b) peer_latency(*a, *b);
    }
    if (plan_.host) host_tests();
  }

  // More than the GPU has in all is a wrong --size (usage); more than is free now, a GPU
  // that others are using (environment).
  void check_memory(int dev) const {
    const auto need = 2 * plan_.bytes + (plan_.latency ? plan_.latency_bytes : 0);
    const auto mem = gpu::mem_info();
    if (mem.free < need)
      throw Error(need > mem.total ? ExitCode::usage : ExitCode::environment,
                  fmt::format("p2p with {} per copy needs {} on GPU {} but {} of {} is free; lower --size",
                              format_bytes(plan_.bytes), format_bytes(need), dev, format_bytes(mem.free),
                              format_bytes(mem.total)));
  }

  // Per-lane bandwidth (GB/s) of each sample.
  std::vector<std::vector<double>> time_lanes(std::vector<Lane>& lanes) {
    std::vector<std::vector<double>> gbps(lanes.size());
    for (int s = 0; s < plan_.samples; ++s) {
      if (stop_ && stop_()) throw Stopped{};
      std::vector<std::unique_ptr<gpu::Event>> start;
      std::vector<std::unique_ptr<gpu::Event>> stop;
      for (auto& lane : lanes) {
        gpu::set_device(lane.side->device);
        start.push_back(std::make_unique<gpu::Event>());
        stop.push_back(std::make_unique<gpu::Event>());
        gate_.hold(lane.side->stream);
        start.back()->record(lane.side->stream);
        lane.op(plan_.copies_per_sample);
        stop.back()->record(lane.side->stream);
      }
      gate_.release();
      for (std::size_t l = 0; l < lanes.size(); ++l) {
        stop[l]->synchronize();
        const double us = gpu::Event::elapsed_ms(*start[l], *stop[l]) * 1e3;
        gbps[l].push_back(gb_per_s(static_cast<double>(plan_.bytes) * plan_.copies_per_sample, us));
      }
    }
    return gbps;
  }

  static P2pMeasurement summarize(P2pTest test, int src, int dst, const std::vector<double>& v) {
    auto sorted = v;
    std::sort(sorted.begin(), sorted.end());
    P2pMeasurement m;
    m.test = test;
    m.src = src;
    m.dst = dst;
    m.unit = p2p_test_spec(test).unit;
    m.value = sorted[sorted.size() / 2];
    m.min = sorted.front();
    m.max = sorted.back();
    m.samples = static_cast<int>(sorted.size());
    return m;
  }

  void poison(Side& s) {
    gpu::set_device(s.device);
    gpu::memset_async(s.dst.data(), 0, plan_.bytes, s.stream);
    s.stream.synchronize();
  }

  std::int64_t verify(Side& holder, std::uint32_t seed) {
    gpu::set_device(holder.device);
    return static_cast<std::int64_t>(
        gpu::count_pattern_mismatches(holder.dst.data(), plan_.bytes, seed, holder.stream));
  }

  // One copy direction a -> b, measured each way the table lists (copy engine or SM kernel, issued
  // by the destination (read) or the source (write)).
  void unidirectional(Side& a, Side& b) {
    const bool b_reads_a = gpu::enable_peer_access(b.device, a.device);
    const bool a_writes_b = gpu::enable_peer_access(a.device, b.device);
    const std::string staged = b_reads_a && a_writes_b ? "" : "staged through host memory: no peer access";
    const std::uint64_t bytes = plan_.bytes;
    auto ce = [pa = &a, pb = &b, bytes](Side& runner) {
      return Lane{&runner, repeated([pa, pb, r = &runner, bytes] {
                    gpu::copy_peer_async(pb->dst.data(), pb->device, pa->src.data(), pa->device, bytes,
                                         r->stream);
                  })};
    };
    auto sm = [pa = &a, pb = &b, bytes](Side& runner) {
      return Lane{&runner, [pa, pb, r = &runner, bytes](int copies) {
                    gpu::sm_copy_async(pb->dst.data(), pa->src.data(), bytes, r->stream, copies);
                  }};
    };
    for (const auto& spec : kP2pTests) {
      if (spec.path != P2pPath::peer || spec.bidirectional || spec.unit != P2pUnit::gbps) continue;
      const bool reads = spec.issuer == P2pIssuer::destination;
      Side& runner = reads ? b : a;
      // A copy engine stages through the host without peer access; an SM kernel cannot.
      const bool possible = spec.copier == P2pCopier::copy_engine || (reads ? b_reads_a : a_writes_b);
      if (!possible) {
        P2pMeasurement m;
        m.test = spec.id;
        m.src = a.device;
        m.dst = b.device;
        m.unit = spec.unit;
        m.note = "not measured: an SM copy needs peer access";
        out_.push_back(m);
        continue;
      }
      progress_(fmt::format("{} GPU{} -> GPU{}", spec.id, a.device, b.device));
      poison(b);
      std::vector<Lane> lanes{spec.copier == P2pCopier::copy_engine ? ce(runner) : sm(runner)};
      auto m = summarize(spec.id, a.device, b.device, time_lanes(lanes)[0]);
      m.bytes = plan_.bytes;
      m.wrong = verify(b, static_cast<std::uint32_t>(a.device));
      m.note = staged;
      out_.push_back(m);
    }
  }

  // Both directions at once; the figure is the sum of the two directions (nvbandwidth's total).
  void bidirectional(Side& a, Side& b) {
    const bool peers =
        gpu::enable_peer_access(a.device, b.device) && gpu::enable_peer_access(b.device, a.device);
    for (const auto& spec : kP2pTests) {
      if (spec.path != P2pPath::peer || !spec.bidirectional) continue;
      const bool sm = spec.copier == P2pCopier::sm;
      const P2pTest test = spec.id;
      if (sm && !peers) continue;
      progress_(fmt::format("{} GPU{} <-> GPU{}", test, a.device, b.device));
      poison(a);
      poison(b);
      const std::uint64_t bytes = plan_.bytes;
      auto copy_into = [bytes, sm](Side& to, Side& from) {
        return Lane{&to, [t = &to, f = &from, bytes, sm](int copies) {
                      if (sm) {
                        gpu::sm_copy_async(t->dst.data(), f->src.data(), bytes, t->stream, copies);
                        return;
                      }
                      for (int c = 0; c < copies; ++c)
                        gpu::copy_peer_async(t->dst.data(), t->device, f->src.data(), f->device, bytes,
                                             t->stream);
                    }};
      };
      std::vector<Lane> lanes{copy_into(b, a), copy_into(a, b)};
      const auto per_lane = time_lanes(lanes);
      std::vector<double> total;
      total.reserve(per_lane[0].size());
      for (std::size_t k = 0; k < per_lane[0].size(); ++k) total.push_back(per_lane[0][k] + per_lane[1][k]);
      auto m = summarize(test, a.device, b.device, total);
      m.bytes = plan_.bytes;
      m.wrong =
          verify(b, static_cast<std::uint32_t>(a.device)) + verify(a, static_cast<std::uint32_t>(b.device));
      m.note = peers ? "" : "staged through host memory: no peer access";
      out_.push_back(m);
    }
  }

  P2pMeasurement chase(P2pTest test, int src, Side& runner, const void* start, bool host) {
    std::vector<double> ns;
    ns.reserve(static_cast<std::size_t>(plan_.samples));
    for (int s = 0; s < plan_.samples; ++s) {
      if (stop_ && stop_()) throw Stopped{};
      ns.push_back(gpu::chase_ns_per_hop(start, plan_.latency_hops, runner.stream));
    }
    auto m = summarize(test, src, runner.device, ns);
    m.bytes = plan_.latency_bytes;
    m.note =
        fmt::format("pointer chase over {} {} memory, {} B stride, one thread",
                    format_bytes(plan_.latency_bytes), host ? "pinned host" : "peer", plan_.latency_stride);
    return m;
  }

  // GPU b loads from GPU a's memory, one dependent load at a time.
  void peer_latency(Side& a, Side& b) {
    if (!gpu::enable_peer_access(b.device, a.device)) return;
    progress_(fmt::format("latency GPU{} reads GPU{}", b.device, a.device));
    gpu::set_device(a.device);
    gpu::build_chase(a.chase.data(), plan_.latency_bytes, plan_.latency_stride, false, a.stream);
    gpu::set_device(b.device);
    out_.push_back(chase(P2pTest::latency, a.device, b, a.chase.data(), false));
  }

  // A copy on `s`'s stream within the GPU or over its host link: an SM copy (host memory through its
  // mapped address) or the copy engine.
  Lane copy_lane(Side& s, bool sm, void* dst, const void* src) const {
    const std::uint64_t bytes = plan_.bytes;
    if (sm)
      return {&s,
              [&s, dst, src, bytes](int copies) { gpu::sm_copy_async(dst, src, bytes, s.stream, copies); }};
    return {&s, repeated([&s, dst, src, bytes] { gpu::copy_async(dst, src, bytes, s.stream); })};
  }

  // Each way over the GPU's host link, by its copy engine and by an SM copy kernel reading or
  // writing the pinned host memory (nvbandwidth's host_to_device_memcpy_ce/_sm and the reverse).
  void host_link(Side& s, gpu::PinnedBuffer& h) {
    const std::uint64_t bytes = plan_.bytes;
    const auto seed = kHostSeed + static_cast<std::uint32_t>(s.device);
    void* mapped = const_cast<void*>(gpu::mapped_device_pointer(h.data()));
    progress_(fmt::format("host -> GPU{} and back", s.device));
    gpu::fill_pattern_host(h.data(), bytes, seed);
    for (const auto test : {P2pTest::h2d, P2pTest::h2d_sm}) {
      poison(s);
      const bool sm = p2p_test_spec(test).copier == P2pCopier::sm;
      std::vector<Lane> lanes{copy_lane(s, sm, s.dst.data(), sm ? mapped : h.data())};
      auto m = summarize(test, -1, s.device, time_lanes(lanes)[0]);
      m.bytes = bytes;
      m.wrong = verify(s, seed);
      out_.push_back(m);
    }
    for (const auto test : {P2pTest::d2h, P2pTest::d2h_sm}) {
      std::memset(h.data(), 0, bytes);  // so that a copy that moved nothing shows as wrong words
      const bool sm = p2p_test_spec(test).copier == P2pCopier::sm;
      std::vector<Lane> lanes{copy_lane(s, sm, sm ? mapped : h.data(), s.src.data())};
      auto m = summarize(test, s.device, -1, time_lanes(lanes)[0]);
      m.bytes = bytes;
      m.wrong = static_cast<std::int64_t>(gpu::count_pattern_mismatches_host(h.data(), bytes, s.device));
      out_.push_back(m);
    }
  }

  // The GPU's own memory: a copy-engine copy between two of its buffers (nvbandwidth's
  // device_local_copy), the bytes copied counted once.
  void local_copy(Side& s) {
    progress_(fmt::format("GPU{} memory copy", s.device));
    poison(s);
    std::vector<Lane> lanes{copy_lane(s, false, s.dst.data(), s.src.data())};
    auto m = summarize(P2pTest::local_copy, s.device, s.device, time_lanes(lanes)[0]);
    m.bytes = plan_.bytes;
    m.wrong = verify(s, static_cast<std::uint32_t>(s.device));
    out_.push_back(m);
  }

  void host_tests() {
    std::vector<std::unique_ptr<gpu::PinnedBuffer>> host;
    host.reserve(sides_.size());
    for (auto& s : sides_) host.push_back(std::make_unique<gpu::PinnedBuffer>(plan_.bytes, s->cpulist));
    for (std::size_t i = 0; i < sides_.size(); ++i) {
      host_link(*sides_[i], *host[i]);
      local_copy(*sides_[i]);
    }
    if (sides_.size() > 1) all_at_once(host);
    if (plan_.latency) {
      for (std::size_t i = 0; i < sides_.size(); ++i) {
        auto& s = *sides_[i];
        progress_(fmt::format("latency GPU{} reads host memory", s.device));
        gpu::PinnedBuffer buf(plan_.latency_bytes, s.cpulist);
        gpu::set_device(s.device);
        gpu::build_chase(buf.data(), plan_.latency_bytes, plan_.latency_stride, true, s.stream);
        out_.push_back(chase(P2pTest::host_latency, -1, s, gpu::mapped_device_pointer(buf.data()), true));
      }
    }
  }

  // Every GPU's host link at once: shared PCIe uplinks and root ports show up here.
  void all_at_once(std::vector<std::unique_ptr<gpu::PinnedBuffer>>& host) {
    for (const auto& spec : kP2pTests) {
      if (!spec.every_gpu) continue;
      const bool to_device = spec.path == P2pPath::host_to_gpu;
      const P2pTest test = spec.id;
      progress_(fmt::format("{}: every GPU at once", test));
      std::vector<Lane> lanes;
      for (std::size_t i = 0; i < sides_.size(); ++i) {
        auto& s = *sides_[i];
        auto& h = *host[i];
        if (to_device) {
          gpu::fill_pattern_host(h.data(), plan_.bytes, kHostSeed + s.device);
          poison(s);
        }
        lanes.push_back(
            copy_lane(s, false, to_device ? s.dst.data() : h.data(), to_device ? h.data() : s.src.data()));
      }
      const auto per_lane = time_lanes(lanes);
      for (std::size_t i = 0; i < sides_.size(); ++i) {
        auto& s = *sides_[i];
        auto m = summarize(test, to_device ? -1 : s.device, to_device ? s.device : -1, per_lane[i]);
        m.bytes = plan_.bytes;
        m.wrong = to_device ? verify(s, kHostSeed + static_cast<std::uint32_t>(s.device))
                            : static_cast<std::int64_t>(
                                  gpu::count_pattern_mismatches_host(host[i]->data(), plan_.bytes, s.device));
        out_.push_back(m);
      }
    }
  }

  const P2pPlan& plan_;
  const ProgressFn& progress_;
  const StopFn& stop_;
  std::vector<std::unique_ptr<Side>> sides_;
  gpu::StartGate gate_;
  std::vector<P2pMeasurement> out_;
};

}  // namespace

std::vector<P2pMeasurement> run_p2p(const P2pPlan& plan, const ProgressFn& progress, const StopFn& stop,
                                    bool& stopped) {
  P2pBench bench(plan, progress, stop);
  return bench.run(stopped);
}

}  // namespace fb
