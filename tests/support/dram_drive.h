#pragma once
// Driving one DRAM model directly (no SystemC), as the DRAM unit tests do:
// a sink that records every progress report, the model a `dram` section
// chooses, and a loop that advances it until it has nothing left.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gemini/sim/dram_model.h"

namespace gemini::sim {

struct Recorder : DramSink {
  std::map<std::uint64_t, std::vector<std::pair<std::int64_t, Tick>>> seen;
  std::vector<std::uint64_t> order;  // tags in completion order
  void progress(std::uint64_t tag, std::int64_t done, Tick t) override {
    seen[tag].emplace_back(done, t);
    if (order.empty() || order.back() != tag) order.push_back(tag);
  }
  Tick done_at(std::uint64_t tag) const { return seen.at(tag).back().second; }
};

// The model a `dram` section chooses, for one port.
inline std::unique_ptr<DramModel> dram(const boost::json::object& section) {
  std::string error;
  auto m = make_dram_model(section, DramContext{}, error);
  EXPECT_NE(m, nullptr) << error;
  return m;
}

// A model's counter, as the reports read it: from the statistics it
// registers (-1 when it has none of that name).
inline std::int64_t stat(const DramModel& m, const char* name) {
  StatGroup g("dram", "dram_west0");
  m.register_stats(g);
  return g.snapshot().value_or(name, -1);
}

// Advances `m` from time 0 at the times it asks for until it has nothing left.
inline void drain(DramModel& m, Recorder& r) {
  Tick now = 0;
  for (Tick next = m.advance(now, r); next != kNever; next = m.advance(now, r)) now = next;
}

}  // namespace gemini::sim
