#include "trace_writer.h"

#include <algorithm>
#include <fstream>

#include "gemini/ir/json_writer.h"

namespace gemini::sim {

bool write_chrome_trace(const std::string& path, const SimContext& ctx,
                        const std::vector<CoreImage>& images, std::string& error) {
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
