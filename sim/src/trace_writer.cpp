#include "trace_writer.h"

#include <algorithm>
#include <fstream>

#include "gemini/ir/json_writer.h"

namespace gemini::sim {

namespace {

// A scope's windows as counter samples: its power by component (W), at
// each window's start, and 0 at the run's end.
void power_counters(ir::JsonWriter& w, const PowerReport& p, const PowerScope& s,
                    std::int64_t pid, const std::string& name, bool by_component) {
  auto sample = [&](double ts_us, const Energy* e, double ns) {
    w.begin_object();
    w.key("ph");
    w.value("C");
    w.key("name");
    w.value(name);
    w.key("pid");
    w.value(pid);
    w.key("ts");
    w.value(ts_us);
    w.key("args");
    w.begin_object();
    const double ps = ns * 1000.0;
    if (by_component) {
      for (std::size_t c = 0; c < kComponents; ++c) {
        w.key(to_string(static_cast<Component>(c)));
        w.value(e && ps > 0 ? e->pj[c] / ps : 0.0);
      }
    } else {
      w.key("total");
      w.value(e && ps > 0 ? e->total() / ps : 0.0);
    }
    w.end_object();
    w.end_object();
  };
  for (std::int64_t k = 0; k < p.windows; ++k)
    sample(p.start_ns(k) / 1000.0, &s.windows[static_cast<std::size_t>(k)],
           p.end_ns_of(k) - p.start_ns(k));
  sample(p.end_ns / 1000.0, nullptr, 0);
}

}  // namespace

bool write_chrome_trace(const std::string& path, const SimContext& ctx,
                        const std::vector<CoreImage>& images,
                        const std::optional<PowerReport>& power, std::string& error) {
  std::ofstream os(path, std::ios::binary);
  if (!os) {
    error = path + ": cannot write the trace";
    return false;
  }
  {
    ir::JsonWriter w(os);
    w.begin_object();
    w.key("displayTimeUnit");
    w.value("ns");
    w.key("traceEvents");
    w.begin_array();
    auto meta = [&](const char* what, std::int64_t pid, std::int64_t tid, const std::string& name) {
      w.begin_object();
      w.key("ph");
      w.value("M");
      w.key("name");
      w.value(what);
      w.key("pid");
      w.value(pid);
      w.key("tid");
      w.value(tid);
      w.key("args");
      w.begin_object();
      w.key("name");
      w.value(name);
      w.end_object();
      w.end_object();
    };
    const std::int64_t port_pid0 = 100000;
    for (std::size_t c = 0; c < images.size(); ++c) {
      meta("process_name", static_cast<std::int64_t>(c), 0,
           "core " + std::to_string(images[c].core_id));
      for (std::size_t e = 0; e < assembler::kEngines; ++e)
        meta("thread_name", static_cast<std::int64_t>(c), static_cast<std::int64_t>(e),
             std::string(assembler::to_string(static_cast<assembler::Engine>(e))));
    }
    for (std::size_t p = 0; p < ctx.params.port_rows.size(); ++p) {
      const std::string name = std::string("DRAM ") + (ctx.params.port_east[p] ? "east" : "west") +
                               " row " + std::to_string(ctx.params.port_rows[p]);
      meta("process_name", port_pid0 + static_cast<std::int64_t>(p), 0, name);
      meta("thread_name", port_pid0 + static_cast<std::int64_t>(p), 0, "read");
      meta("thread_name", port_pid0 + static_cast<std::int64_t>(p), 1, "write");
    }
    if (power) {
      const std::int64_t power_pid = 200000;
      meta("process_name", power_pid, 0, "power");
      power_counters(w, *power, power->package, power_pid, "package (W)", true);
      power_counters(w, *power, power->dram, power_pid, "dram (W)", true);
      if (power->io_die) power_counters(w, *power, *power->io_die, power_pid, "io die (W)", true);
      for (const PowerScope& d : power->dies)
        power_counters(w, *power, d, power_pid, d.name + " (W)", true);
      for (std::size_t c = 0; c < power->cores.size() && c < images.size(); ++c)
        power_counters(w, *power, power->cores[c], static_cast<std::int64_t>(c), "power (W)",
                       false);
    }
    for (const TraceEvent& e : ctx.trace) {
      w.begin_object();
      w.key("ph");
      w.value("X");
      const bool dram = e.track_group < 0;
      w.key("name");
      if (dram)
        w.value(e.track ? "write" : "read");
      else
        w.value(assembler::op_info(static_cast<assembler::Opcode>(e.op))->mnemonic);
      w.key("pid");
      w.value(dram ? port_pid0 + (-1 - e.track_group) : std::int64_t{e.track_group});
      w.key("tid");
      w.value(std::int64_t{e.track});
      w.key("ts");
      w.value(static_cast<double>(e.start) / 1e6);
      w.key("dur");
      w.value(static_cast<double>(e.end - e.start) / 1e6);
      w.key("args");
      w.begin_object();
      if (e.wl >= 0) {
        w.key("workload");
        w.value(std::int64_t{e.wl});
      }
      w.key("bytes");
      w.value(e.bytes);
      w.end_object();
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }
  os << "\n";
  if (!os) {
    error = path + ": writing the trace failed";
    return false;
  }
  return true;
}

}  // namespace gemini::sim
