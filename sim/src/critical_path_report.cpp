#include "critical_path_report.h"

#include <array>
#include <cinttypes>
#include <cstdio>
#include <string>

#include "json_kv.h"

namespace gemini::sim {
namespace {

std::string share(std::int64_t part, std::int64_t whole) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%",
                whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
  return buf;
}

}  // namespace

void print_path_waits(std::ostream& os, const CriticalPath& p) {
  if (!p.traced) return;
  const std::int64_t total = p.total();
  os << "  waited for:";
  for (std::size_t k = 0; k < kWaitKinds; ++k)
    os << (k ? ", " : " ") << to_string(static_cast<WaitKind>(k)) << ' ' << p.waits[k] << " ("
       << share(p.waits[k], total) << ')';
  os << "\n";
  if (!p.blames.empty()) {
    os << "  what held the waits (kind: cycles on the path, steps, what):\n";
    for (const PathBlame& b : p.blames)
      os << "    " << to_string(b.kind) << ": " << b.cycles << ", " << b.count << ", " << b.what
         << "\n";
  }
  os << "  blocking waits the path went through (cycles blocked, count; the time is the chain "
        "waited for, above):";
  for (std::size_t i = 0; i < p.jump_sums.size(); ++i)
    os << (i ? ", " : " ") << p.jump_sums[i].kind << ' ' << p.jump_sums[i].cycles << " ("
       << p.jump_sums[i].count << ")";
  os << "\n";
  for (const PathJump& j : p.jumps) {
    os << "    " << j.kind << ": core " << j.core_id << ' ' << j.opcode << " of " << j.layer
       << " blocked " << j.cycles << " cycles on core " << j.to_core << ' ' << j.to_opcode << " of "
       << j.to_layer;
    // The two kinds the path spent most of that time on.
    std::size_t a = 0, b = 1;
    if (j.meanwhile[b] > j.meanwhile[a]) std::swap(a, b);
    for (std::size_t k = 2; k < kWaitKinds; ++k)
      if (j.meanwhile[k] > j.meanwhile[a]) {
        b = a;
        a = k;
      } else if (j.meanwhile[k] > j.meanwhile[b]) {
        b = k;
      }
    if (j.meanwhile[a] > 0) {
      os << "; meanwhile " << to_string(static_cast<WaitKind>(a)) << ' '
         << share(j.meanwhile[a], j.cycles);
      if (j.meanwhile[b] > 0)
        os << ", " << to_string(static_cast<WaitKind>(b)) << ' ' << share(j.meanwhile[b], j.cycles);
    }
    os << "\n";
  }
}

void write_path_waits_json(ir::JsonWriter& w, const CriticalPath& p) {
  const JsonKv kv{w};
  auto waits = [&](const std::array<std::int64_t, kWaitKinds>& cycles, bool all) {
    w.begin_object();
    for (std::size_t k = 0; k < kWaitKinds; ++k)
      if (all || cycles[k] > 0) kv(to_string(static_cast<WaitKind>(k)), cycles[k]);
    w.end_object();
  };
  w.key("waits");
  waits(p.waits, true);
  w.key("blames");
  w.begin_array();
  for (const PathBlame& b : p.blames) {
    w.begin_object();
    kv("kind", std::string_view(to_string(b.kind)));
    kv("what", std::string_view(b.what));
    kv("cycles", b.cycles);
    kv("steps", b.count);
    w.end_object();
  }
  w.end_array();
  w.key("blocking_waits");
  w.begin_object();
  for (const JumpSum& s : p.jump_sums) {
    w.key(s.kind);
    w.begin_object();
    kv("cycles", s.cycles);
    kv("count", s.count);
    w.end_object();
  }
  w.end_object();
  w.key("longest_blocking_waits");
  w.begin_array();
  for (const PathJump& j : p.jumps) {
    w.begin_object();
    kv("kind", std::string_view(j.kind));
    kv("core_id", j.core_id);
    kv("opcode", std::string_view(j.opcode));
    kv("layer", std::string_view(j.layer));
    kv("cycles", j.cycles);
    kv("on_core_id", j.to_core);
    kv("on_opcode", std::string_view(j.to_opcode));
    kv("on_layer", std::string_view(j.to_layer));
    w.key("meanwhile");
    waits(j.meanwhile, false);
    w.end_object();
  }
  w.end_array();
}

}  // namespace gemini::sim
