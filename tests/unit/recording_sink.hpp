#pragma once
// An EventSink that keeps what it is told, for tests that check what the engine said.
#include <vector>

#include "core/events.hpp"

class RecordingSink final : public fb::EventSink {
 public:
  void emit(const fb::Event& event) override { events.push_back(event); }
  std::vector<fb::Event> events;
};
