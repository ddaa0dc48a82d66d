#pragma once
// The energy and statistics parts of the reports (report.h): the text
// sections, the JSON objects (`energy_pj`, `stats`) and the per-workload
// CSV columns. Each walks Report::energy / Report::stats; report.cpp calls
// them where they belong in its layout.

#include <iosfwd>
#include <string>

#include "gemini/ir/json_writer.h"
#include "gemini/sim/report.h"

namespace gemini::sim {

// Text: the total with its breakdown, EDP, the scheduler's estimate.
void print_energy_summary(std::ostream& os, const Report& r);
// Text: energy per core and per layer, then every unit kind's counters.
void print_energy_tables(std::ostream& os, const Report& r);
void print_stats(std::ostream& os, const Report& r);

// JSON: an Energy as {"total": ..., "mac": ..., ..., "static": ...}.
void write_energy(ir::JsonWriter& w, const Energy& e);
// JSON: the top-level `energy_pj` object (breakdown, EDP, events, estimate).
void write_energy_json(ir::JsonWriter& w, const Report& r);
// JSON: `stats`, one object per group with its counters.
void write_stats_json(ir::JsonWriter& w, const Report& r);

// CSV: the header's energy columns and one row's values (leading commas).
std::string energy_csv_header();
std::string energy_csv(const Energy& e);

}  // namespace gemini::sim
