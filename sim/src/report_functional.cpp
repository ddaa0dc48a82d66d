// The functional part of `gemini sim`'s text (report.h: FunctionalReport,
// print_functional): every layer's check, where wrong values start, and
// where the first wrong value of such a layer came from (its provenance).
#include <cinttypes>
#include <ostream>
#include <string>

#include "gemini/sim/report.h"
#include "text_format.h"

namespace gemini::sim {
namespace {

std::string describe(const Provenance::Writer& w) {
  if (w.none) return "no instruction (never written before the read)";
  std::string s = fmt("core %d #%u %s", w.core_id, w.pc, w.opcode.c_str());
  std::string what;
  if (w.workload_id >= 0)
    what =
        fmt("workload %" PRId64 "%s%s", w.workload_id, w.layer.empty() ? "" : " ", w.layer.c_str());
  if (w.transfer >= 0) what += fmt("%stransfer %" PRId64, what.empty() ? "" : ", ", w.transfer);
  if (w.dram >= 0)
    what +=
        fmt("%sfrom DRAM 0x%" PRIx64, what.empty() ? "" : ", ", static_cast<std::uint64_t>(w.dram));
  if (w.opcode == "noc_send") what += " (received from that core)";
  return what.empty() ? s : s + " (" + what + ")";
}

std::string show_at(const std::int32_t at[4]) {
  return fmt("[%d,%d,%d,%d]", at[0], at[1], at[2], at[3]);
}

void print_provenance(std::ostream& os, const LayerCheck& l) {
  if (!l.provenance || !l.first) return;
  const Provenance& p = *l.provenance;
  os << fmt(
      "where the first wrong value of %s came from: [%d,%d,%d,%d] on core %d, #%u %s "
      "(workload %" PRId64 "): %d, want %d\n",
      l.layer.c_str(), l.first->n, l.first->k, l.first->h, l.first->w, p.core_id, p.pc,
      p.opcode.c_str(), l.first->workload_id, l.first->got, l.first->want);
  std::string by;
  for (const auto& [operand, n] : p.differing_by_operand)
    by += fmt("%s%s %" PRId64, by.empty() ? " (" : ", ", operand.c_str(), n);
  if (!by.empty()) by += ")";
  os << fmt("  it read %" PRId64 " input elements; %" PRId64 " differ from the reference%s\n",
            p.inputs_read, p.inputs_differing, by.c_str());
  for (const Provenance::Input& x : p.examples) {
    std::string want;
    for (std::size_t i = 0; i < x.want.size(); ++i)
      want += (i ? " or " : "") + std::to_string(x.want[i]);
    os << fmt("    %s %s: %d, want %s; last written by %s\n", x.operand.c_str(),
              show_at(x.at).c_str(), x.got, want.c_str(), describe(x.writer).c_str());
  }
  if (!p.writers.empty()) os << "  last writers of the differing inputs:\n";
  for (const auto& [w, n] : p.writers) os << fmt("    %8" PRId64 "  %s\n", n, describe(w).c_str());
  os << "  => " << p.verdict << "\n";
}

}  // namespace

std::int64_t FunctionalReport::mismatches() const {
  std::int64_t n = 0;
  for (const LayerCheck& l : layers) n += l.mismatches();
  return n;
}

std::int64_t FunctionalReport::incomplete() const {
  std::int64_t n = 0;
  for (const LayerCheck& l : layers) n += !l.complete();
  return n;
}

std::int64_t FunctionalReport::elements() const {
  std::int64_t n = 0;
  for (const LayerCheck& l : layers) n += l.elements();
  return n;
}

void print_functional(std::ostream& os, const FunctionalReport& f) {
  if (!f.enabled) return;
  std::int64_t layers = 0;
  for (const LayerCheck& l : f.layers) layers += l.elements() > 0;
  os << fmt("\nfunctional (seed %" PRIu64 ", %s): %" PRId64 " elements of %" PRId64
            " layers checked against the reference, %" PRId64 " mismatches, %" PRId64
            " faults; %" PRId64 " bytes moved, %.3f GMAC\n",
            f.seed, f.model.c_str(), f.elements(), layers, f.mismatches(), f.fault_count,
            f.bytes_moved, static_cast<double>(f.macs) / 1e9);
  const auto model_layers = static_cast<std::int64_t>(f.layers.size());
  os << fmt("coverage: %" PRId64 " of the model's %" PRId64
            " layers computed whole (every element of their output)\n",
            model_layers - f.incomplete(), model_layers);
  for (const auto& [quirk, n] : f.quirks)
    os << fmt("  corrected from the model: %s x %" PRId64 "\n", quirk.c_str(), n);
  os << fmt("%-32s %9s %12s %10s %12s %10s %8s  %s\n", "layer", "computed", "tile elems",
            "mismatch", "DRAM elems", "mismatch", "max|d|",
            "first mismatch [n,k,h,w] (core, workload)");
  for (const LayerCheck& l : f.layers) {
    if (l.elements() == 0 && l.complete()) continue;
    const std::string computed =
        l.complete() ? std::string("100%")
                     : fmt("%.1f%%", l.defined > 0 ? 100.0 * static_cast<double>(l.computed) /
                                                         static_cast<double>(l.defined)
                                                   : 0.0);
    std::string first = "-";
    if (l.first)
      first = fmt("[%d,%d,%d,%d] %s on core %d, workload %" PRId64 ": %d, want %d", l.first->n,
                  l.first->k, l.first->h, l.first->w, l.first->where.c_str(), l.first->core_id,
                  l.first->workload_id, l.first->got, l.first->want);
    os << fmt("%-32s %9s %12" PRId64 " %10" PRId64 " %12" PRId64 " %10" PRId64 " %8d  %s\n",
              l.layer.c_str(), computed.c_str(), l.tile_elements, l.tile_mismatches,
              l.dram_elements, l.dram_mismatches, l.max_abs_diff, first.c_str());
  }
  for (const FunctionalFault& x : f.faults)
    os << fmt("fault: core %d #%u workload %" PRId64 " (%s): %s\n", x.core_id, x.instruction,
              x.workload_id, x.layer.c_str(), x.message.c_str());
  if (f.fault_count > static_cast<std::int64_t>(f.faults.size()))
    os << fmt("... %" PRId64 " more faults\n",
              f.fault_count - static_cast<std::int64_t>(f.faults.size()));
  for (const std::string& o : f.origins)
    os << "wrong values start at layer " << o
       << " (every layer it reads matched the reference): look at its workloads\n";
  for (const std::string& o : f.origins)
    for (const LayerCheck& l : f.layers)
      if (l.layer == o) print_provenance(os, l);
  os << (f.passed() ? "functional: PASS (bit-exact)\n" : "functional: FAIL\n");
}

}  // namespace gemini::sim
