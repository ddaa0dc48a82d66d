// The Gemini scheduler's design points (scheduler_point.h).
#include "gemini/sweep/scheduler_point.h"

#include <boost/json/serialize.hpp>
#include <cmath>
#include <cstdlib>

#include "gemini/ir/hw_config.h"

namespace gemini::sweep {
namespace json = boost::json;

namespace {

// A cell as a number; nullopt when the column is absent, empty or not one.
std::optional<double> number(const std::map<std::string, std::string>& row, const char* column) {
  const auto it = row.find(column);
  if (it == row.end() || it->second.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(it->second.c_str(), &end);
  if (!end || *end != '\0' || !std::isfinite(v)) return std::nullopt;
  return v;
}

// A member of a component of `base`, when both exist.
const json::value* member(const json::object& base, const char* component, const char* key) {
  const json::value* c = base.if_contains(component);
  return c && c->is_object() ? c->get_object().if_contains(key) : nullptr;
}

std::int64_t pe_field(const json::object& base, const char* key, std::int64_t fallback) {
  const json::value* v = member(base, "pe", key);
  return v && v->is_int64() ? v->get_int64() : fallback;
}

// The parameters of `chiplets` that are the section's own, not its
// interface's (sim/src/chiplets.cpp, read_own): kept when the interface
// changes; every other member is the old interface's.
constexpr const char* kChipletsOwn[] = {"interface", "x_cut", "y_cut", "d2d_gbps",
                                        "d2d_latency_ns"};

}  // namespace

std::optional<HardwarePoint> gemini_hardware_point(const std::map<std::string, std::string>& row,
                                                   const json::object& base, std::string& error) {
  struct Need {
    const char* column;
    double value = 0;
  };
  Need need[] = {{"xlen"},    {"ylen"},     {"xcut"},     {"ycut"},     {"tech"},
                 {"freq_mhz"}, {"nop_gbps"}, {"noc_gbps"}, {"dram_gbps"}};
  for (Need& n : need) {
    const auto v = number(row, n.column);
    if (!v || *v <= 0) {
      error = std::string("column \"") + n.column + "\": expected a number > 0, got \"" +
              (row.count(n.column) ? row.at(n.column) : std::string("(no such column)")) + "\"";
      return std::nullopt;
    }
    n.value = *v;
  }
  const double xlen = need[0].value, ylen = need[1].value, xcut = need[2].value,
               ycut = need[3].value, tech = need[4].value, mhz = need[5].value,
               nop = need[6].value, noc = need[7].value, dram = need[8].value;
  for (const auto* n : {&need[2], &need[3]})
    if (n->value != std::floor(n->value)) {
      error = std::string("column \"") + n->column + "\": expected a whole number of dies";
      return std::nullopt;
    }
  const auto d2d = row.find("d2d");
  if (d2d == row.end() || d2d->second.empty()) {
    error = "column \"d2d\": expected the die-to-die interface (XSR, USR, UCIe)";
    return std::nullopt;
  }
  if (const json::value* nm = member(base, "silicon", "process_nm");
      nm && nm->is_number() && nm->to_number<double>() != tech) {
    error = "column \"tech\": the point is at " + row.at("tech") +
            " nm, the base configuration at " + json::serialize(*nm) +
            " nm (the scheduler scales its energies by process node: give this input a "
            "configuration at " +
            row.at("tech") + " nm, e.g. \"hw\": \"gemini-hpca24-7nm\")";
    return std::nullopt;
  }
  const double f = mhz / 1000.0;
  const ir::PeConfig pe_default;
  const double macs = static_cast<double>(pe_field(base, "rows", pe_default.rows) *
                                          pe_field(base, "cols", pe_default.cols) *
                                          pe_field(base, "lanes", pe_default.lanes));
  HardwarePoint p;
  auto set = [&](const char* path, json::value v) { p.params.emplace_back(path, std::move(v)); };
  set("clock.frequency_mhz", mhz);
  set("noc.link_gbps", noc * f);
  set("chiplets.x_cut", static_cast<std::int64_t>(xcut));
  set("chiplets.y_cut", static_cast<std::int64_t>(ycut));
  set("chiplets.d2d_gbps", nop * f);
  const json::value* iface = member(base, "chiplets", "interface");
  const std::string base_iface = iface && iface->is_string() ? std::string(iface->get_string())
                                                             : std::string("XSR");
  if (base_iface != d2d->second)
    if (const json::value* c = base.if_contains("chiplets"); c && c->is_object())
      for (const auto& kv : c->get_object()) {
        bool own = false;
        for (const char* k : kChipletsOwn) own = own || kv.key() == k;
        if (!own) set(("chiplets." + std::string(kv.key())).c_str(), nullptr);
      }
  set("chiplets.interface", json::value(d2d->second));
  // Bytes per cycle over the mesh's TOPS at the same clock: per TOPS, the
  // clock cancels.
  set("dram.gbps_per_tops", dram / (xlen * ylen * macs * 2.0 / 1000.0));
  set("dram.port_gbps", nullptr);

  SchedulerFigures& s = p.figures;
  if (const auto ns = number(row, "latency_cycles")) {
    s.time_us = *ns / 1000.0;
    s.cycles = *ns * f;
  }
  s.energy_pj = number(row, "energy_pj");
  s.overall_usd = number(row, "cost_overall");
  for (const auto& [ours, column] : kSchedulerEnergyComponents)
    if (const auto v = number(row, column)) s.energy_components.emplace_back(ours, *v);
  return p;
}

}  // namespace gemini::sweep
