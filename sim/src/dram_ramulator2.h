#pragma once
// "ramulator2" DRAM (docs/timing-model.md): one Ramulator 2 memory system per
// port. dram_ramulator2_config.cpp reads the model's parameters into the
// YAML configuration Ramulator reads; dram_ramulator2.cpp is the model that
// drives it. Built only with Ramulator 2 (cmake/ramulator2.cmake);
// dram_ramulator2_absent.cpp stands in otherwise.

#include <memory>
#include <string>

#include "gemini/sim/dram_model.h"

namespace gemini::sim {

struct Ramulator2Config {
  std::string yaml;   // Frontend and MemorySystem sections, as Ramulator reads them
  Tick tick_ps = 0;   // one memory-system tick: the DRAM clock
  std::string label;  // "DDR4 (ddr4_3200)", for messages
};

// Declares and reads the model's parameters. When `r` reads a section
// (not a listing) and the values check, a trial memory system is built so
// that anything Ramulator rejects is an error here, naming the parameter.
Ramulator2Config read_ramulator2_config(ParamReader& r);

// One port's model; nullptr with `error` (Ramulator's own words) when
// Ramulator rejects the configuration. Never throws. A model that cannot
// make progress throws ModelStall from advance() (model_stall.h).
std::unique_ptr<DramModel> make_ramulator2_model(const Ramulator2Config& c, std::string& error);

// The timing relations Ramulator assumes and does not check, on the values
// model `m` (one make_ramulator2_model built) resolved from its standard's
// presets and every override: every level of the organisation (channels,
// ranks, banks, rows, columns) at least one, every timing 0 or more, and a refresh
// interval that leaves room to serve a request (nREFI > nRFC + nRP + nRCD +
// nCL + nBL). "" when they hold, else what does not, in Ramulator's names.
std::string ramulator2_timing_problem(const DramModel& m);

// Builds `c`'s memory system in a child process and serves a few reads and
// writes there (Ramulator stops its process on some configurations, e.g.
// a division by zero on an organisation of 0 channels): "" when it comes
// back, else the refusal with Ramulator's last words.
std::string probe_ramulator2(const Ramulator2Config& c);

}  // namespace gemini::sim
