#pragma once
// A p2p bandwidth figure for tests: five samples, verified, nothing else set.
#include <string_view>

#include "model/result.hpp"

inline fb::P2pMeasurement p2p_figure(std::string_view test, int src, int dst, double gbps) {
  fb::P2pMeasurement m;
  m.test = fb::parse_enum<fb::P2pTest>(test);
  m.src = src;
  m.dst = dst;
  m.unit = fb::P2pUnit::gbps;
  m.value = gbps;
  m.samples = 5;
  m.bytes = 1 << 20;
  m.wrong = 0;
  return m;
}
