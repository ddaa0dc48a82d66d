#include "critical_path_report.h"

#include <array>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "json_kv.h"
#include "text_format.h"

namespace gemini::sim {
namespace {

std::string share(std::int64_t part, std::int64_t whole) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%",
                whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
  return buf;
}

std::string kinds_text(const std::array<std::int64_t, kPathKinds>& c, std::int64_t of) {
  std::string out;
  for (std::size_t k = 0; k < kPathKinds; ++k) {
    if (of > 0 ? c[k] * 2000 < of : c[k] == 0) continue;  // under 0.05%
    if (!out.empty()) out += ", ";
    out += fmt("%s %.1f%%", to_string(static_cast<PathKind>(k)),
               of > 0 ? 100.0 * static_cast<double>(c[k]) / static_cast<double>(of) : 0.0);
  }
  return out.empty() ? "-" : out;
}

}  // namespace

const char* to_string(PathKind k) {
  switch (k) {
    case PathKind::compute:
      return "compute";
    case PathKind::dram:
      return "dram";
    case PathKind::noc:
      return "noc";
    case PathKind::token:
      return "token";
    case PathKind::other:
    case PathKind::kCount:
      break;
  }
  return "other";
}

std::int64_t CriticalPath::total() const {
  std::int64_t s = 0;
  for (std::int64_t c : cycles) s += c;
  return s;
}
// The critical path in a few lines: where its time goes, the layers it
// spends it in, and its longest segments.
void print_critical_path(std::ostream& os, const CriticalPath& p) {
  if (!p.traced) return;
  const std::int64_t total = p.total();
  std::set<std::int32_t> cores;
  for (const PathSegment& s : p.segments) cores.insert(s.core_id);
  os << fmt("\ncritical path (the chain of operations and waits that sets the total): %" PRId64
            " cycles, %zu segments on %zu cores, %" PRId64 " instructions\n",
            total, p.segments.size(), cores.size(), p.steps);
  os << "  " << kinds_text(p.cycles, total) << "\n";
  print_path_waits(os, p);
  struct Layer {
    std::string name;
    std::int64_t cycles = 0, segments = 0;
    std::array<std::int64_t, kPathKinds> kinds{};
    std::set<std::int32_t> cores;
  };
  std::vector<Layer> layers;
  std::map<std::string, std::size_t> index;
  for (const PathSegment& s : p.segments) {
    const std::string name = s.layer.empty() ? "(no workload)" : s.layer;
    auto [it, fresh] = index.emplace(name, layers.size());
    if (fresh) layers.push_back(Layer{name, 0, 0, {}, {}});
    Layer& l = layers[it->second];
    ++l.segments;
    l.cores.insert(s.core_id);
    for (std::size_t k = 0; k < kPathKinds; ++k) {
      l.kinds[k] += s.cycles[k];
      l.cycles += s.cycles[k];
    }
  }
  std::stable_sort(layers.begin(), layers.end(),
                   [](const Layer& a, const Layer& b) { return a.cycles > b.cycles; });
  constexpr std::size_t kShown = 12;
  os << fmt("  %-28s %12s %7s %9s %6s  %s\n", "layer on the path", "cycles", "share", "segments",
            "cores", "by kind");
  for (std::size_t i = 0; i < layers.size() && i < kShown; ++i) {
    const Layer& l = layers[i];
    os << fmt("  %-28s %12" PRId64 " %6.1f%% %9" PRId64 " %6zu  %s\n", l.name.c_str(), l.cycles,
              total > 0 ? 100.0 * static_cast<double>(l.cycles) / static_cast<double>(total) : 0.0,
              l.segments, l.cores.size(), kinds_text(l.kinds, l.cycles).c_str());
  }
  if (layers.size() > kShown) os << fmt("  ... %zu more layers\n", layers.size() - kShown);
  std::vector<const PathSegment*> longest;
  for (const PathSegment& s : p.segments) longest.push_back(&s);
  std::stable_sort(longest.begin(), longest.end(), [](const PathSegment* a, const PathSegment* b) {
    return a->end - a->start > b->end - b->start;
  });
  if (longest.size() > 8) longest.resize(8);
  os << "  longest segments (core, workload, layer: cycles [from, to], by kind):\n";
  for (const PathSegment* s : longest) {
    std::int64_t len = 0;
    for (std::int64_t c : s->cycles) len += c;
    os << fmt("    core %d, workload %" PRId64 ", %s: %" PRId64 " [%" PRId64 ", %" PRId64 "], %s\n",
              s->core_id, s->workload_id, s->layer.empty() ? "-" : s->layer.c_str(), len, s->start,
              s->end, kinds_text(s->cycles, len).c_str());
  }
}

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
