#pragma once
// Power over time in the reports (power.h): the text table (print_report
// prints it after the energy), the JSON `power` section (write_report_json,
// last before `host`); write_power_csv is report.h's.
#include <iosfwd>

#include "gemini/ir/json_writer.h"
#include "gemini/sim/report.h"

namespace gemini::sim {
void print_power(std::ostream& os, const PowerReport& p);
void write_power_json(ir::JsonWriter& w, const PowerReport& p);
}  // namespace gemini::sim
