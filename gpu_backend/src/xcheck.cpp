#include "gemini/gpu/xcheck.h"

#include <algorithm>
#include <boost/json.hpp>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <random>

#include "gemini/assembler/instr_views.h"
#include "gemini/model/tile_op_factory.h"

namespace gemini::gpu {
namespace {

using assembler::Opcode;

std::size_t index_of(model::TileKind k) { return static_cast<std::size_t>(k); }

// The tile operations a program's pe_run / vp_run instructions perform, in
// the order of each core's program: a pe_run computes sums; the last of a
// chain (pe_cfg's `chain`) also requantises them, as the functional PE does.
template <class Fn>
void each_candidate(const assembler::Program& p, Fn&& fn) {
  for (const assembler::LoweredCore& c : p.cores) {
    std::int64_t chain = 1, done = 0;
    const auto& instrs = c.program.instrs;
    for (std::uint32_t i = 0; i < instrs.size(); ++i) {
      const assembler::Instr& in = instrs[i];
      if (in.op == Opcode::pe_cfg) {
        chain = assembler::decode<assembler::PeConfig>(in).chain;
        done = 0;
      } else if (in.op == Opcode::pe_run) {
        fn(c.program.core_id, i, model::TileKind::conv);
        if (++done >= chain) {
          fn(c.program.core_id, i, model::TileKind::requantize);
          done = 0;
        }
      } else if (in.op == Opcode::vp_run) {
        const assembler::VpOp op = assembler::decode<assembler::VpRun>(in).op;
        fn(c.program.core_id, i, model::tile_kind_of(assembler::layer_op_of(op), false));
      }
    }
  }
}

}  // namespace

std::int64_t XCheckReport::ops() const {
  std::int64_t n = 0;
  for (const XKindStats& k : kinds) n += k.ops;
  return n;
}

std::int64_t XCheckReport::mismatching_ops() const {
  std::int64_t n = 0;
  for (const XKindStats& k : kinds) n += k.mismatching_ops;
  return n;
}

std::uint64_t XCheck::key(std::int32_t core, std::uint32_t instr, model::TileKind kind) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(core)) << 36) ^
         (static_cast<std::uint64_t>(instr) << 4) ^ static_cast<std::uint64_t>(kind);
}

XCheck::XCheck(Backend& backend, const assembler::Program& program, const model::Network& net,
               const XCheckOptions& options)
    : backend_(backend), net_(net), options_(options) {
  report_.backend = backend.name();
  report_.device = backend.device();
  std::vector<std::uint64_t> keys;
  each_candidate(program, [&](std::int32_t core, std::uint32_t i, model::TileKind k) {
    keys.push_back(key(core, i, k));
  });
  report_.candidates = static_cast<std::int64_t>(keys.size());
  if (options_.sample > 0 && options_.sample < keys.size()) {
    // A seeded partial Fisher-Yates shuffle: the first `sample` keys.
    std::mt19937_64 rng(options_.seed);
    for (std::size_t i = 0; i < options_.sample; ++i) {
      std::uniform_int_distribution<std::size_t> pick(i, keys.size() - 1);
      std::swap(keys[i], keys[pick(rng)]);
    }
    sample_.insert(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(options_.sample));
  } else {
    options_.sample = 0;
  }
}

bool XCheck::wants(const sim::TileSite& site, model::TileKind kind) {
  if (!report_.error.empty()) return false;
  return options_.sample == 0 || sample_.count(key(site.core_id, site.instr, kind)) > 0;
}

void XCheck::seen(const model::TileOp& op, const sim::TileSite& site, const void* result,
                  double seconds) {
  if (!report_.error.empty()) return;
  const std::size_t k = index_of(op.kind);
  Queue& q = queues_[k];
  XKindStats& st = report_.kinds[k];
  const std::int64_t n = op.elements();
  ++st.ops;
  st.elements += n;
  st.simulator_seconds += seconds;
  q.batch.add(op);
  q.pending.push_back({site, static_cast<std::int64_t>(q.expected.size())});
  if (op.wide()) {
    const auto* v = static_cast<const std::int32_t*>(result);
    q.expected.insert(q.expected.end(), v, v + n);
  } else {
    const auto* v = static_cast<const std::int8_t*>(result);
    q.expected.insert(q.expected.end(), v, v + n);
  }
  if (q.batch.bytes() + 4 * q.expected.size() >= options_.batch_bytes) flush(k);
}

void XCheck::flush(std::size_t k) {
  Queue& q = queues_[k];
  if (q.batch.empty()) return;
  XKindStats& st = report_.kinds[k];
  std::vector<std::int32_t>& got = got_;  // kept: its pages stay mapped between batches
  std::string error;
  const auto t0 = std::chrono::steady_clock::now();
  const bool ok = run_batch(backend_, q.batch, got, error);
  st.backend_seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!ok) {
    report_.error = error;
  } else {
    for (std::size_t i = 0; i < q.batch.size(); ++i) {
      const model::TileOp& op = q.batch.op(i);
      const std::int32_t* mine = q.expected.data() + q.pending[i].expected;
      const std::int32_t* theirs = got.data() + q.batch.offset(i);
      bool bad = false;
      for (std::int64_t e = 0; e < op.elements(); ++e) {
        if (mine[e] == theirs[e]) continue;
        const std::int64_t d = std::llabs(std::int64_t{mine[e]} - theirs[e]);
        st.max_abs_diff = static_cast<std::int32_t>(
            std::min<std::int64_t>(INT32_MAX, std::max<std::int64_t>(st.max_abs_diff, d)));
        if (!report_.first) {
          XMismatch m;
          m.kind = op.kind;
          m.site = q.pending[i].site;
          if (m.site.layer >= 0 && static_cast<std::size_t>(m.site.layer) < net_.ops.size())
            m.layer = net_.ops[static_cast<std::size_t>(m.site.layer)].name;
          std::int32_t o[4];
          model::box_coords(op.out, e, o);
          m.n = o[0];
          m.c = o[1];
          m.h = o[2];
          m.w = o[3];
          m.simulator = mine[e];
          m.backend = theirs[e];
          report_.first = m;
        }
        bad = true;
      }
      st.mismatching_ops += bad;
    }
  }
  q.batch.clear();
  q.pending.clear();
  q.expected.clear();
}

XCheckReport XCheck::finish() {
  for (std::size_t k = 0; k < kTileKinds; ++k) flush(k);
  return report_;
}

void print_xcheck(std::ostream& os, const XCheckReport& r) {
  char buf[256];
  os << "xcheck: the simulator's functional units against the " << r.backend << " backend ("
     << r.device << ")\n";
  std::snprintf(buf, sizeof buf, "%-11s %10s %11s %14s %7s %12s %12s\n", "op", "ops", "mismatching",
                "elements", "max|d|", "simulator s", "backend s");
  os << buf;
  for (std::size_t k = 0; k < kTileKinds; ++k) {
    const XKindStats& s = r.kinds[k];
    if (s.ops == 0) continue;
    std::snprintf(buf, sizeof buf,
                  "%-11s %10" PRId64 " %11" PRId64 " %14" PRId64 " %7d %12.3f %12.3f\n",
                  model::to_string(static_cast<model::TileKind>(k)), s.ops, s.mismatching_ops,
                  s.elements, s.max_abs_diff, s.simulator_seconds, s.backend_seconds);
    os << buf;
  }
  os << r.ops() << " of the program's " << r.candidates << " tile operations checked\n";
  if (r.first) {
    const XMismatch& m = *r.first;
    os << "first mismatch: " << model::to_string(m.kind) << " of layer "
       << (m.layer.empty() ? "?" : m.layer) << ", core " << m.site.core_id << ", workload "
       << m.site.workload << ", instruction " << m.site.instr << ", at [" << m.n << "," << m.c
       << "," << m.h << "," << m.w << "]: simulator " << m.simulator << ", " << r.backend << " "
       << m.backend << "\n";
  }
  if (!r.error.empty()) os << "xcheck: the " << r.backend << " backend failed: " << r.error << "\n";
  if (r.passed()) {
    os << "xcheck: PASS (bit-exact)\n";
  } else if (r.ops() == 0 && r.error.empty()) {
    os << "xcheck: FAIL (no tile operation was checked)\n";
  } else {
    os << "xcheck: FAIL\n";
  }
}

std::string xcheck_json(const XCheckReport& r) {
  boost::json::object o;
  o["backend"] = r.backend;
  o["device"] = r.device;
  o["candidates"] = r.candidates;
  o["checked"] = r.ops();
  o["mismatching"] = r.mismatching_ops();
  o["passed"] = r.passed();
  if (!r.error.empty()) o["error"] = r.error;
  boost::json::object kinds;
  for (std::size_t k = 0; k < kTileKinds; ++k) {
    const XKindStats& s = r.kinds[k];
    if (s.ops == 0) continue;
    kinds[model::to_string(static_cast<model::TileKind>(k))] = {
        {"ops", s.ops},
        {"mismatching_ops", s.mismatching_ops},
        {"elements", s.elements},
        {"max_abs_diff", s.max_abs_diff},
        {"simulator_seconds", s.simulator_seconds},
        {"backend_seconds", s.backend_seconds}};
  }
  o["kinds"] = std::move(kinds);
  if (r.first) {
    const XMismatch& m = *r.first;
    o["first_mismatch"] = {
        {"kind", model::to_string(m.kind)}, {"layer", m.layer},
        {"core", m.site.core_id},           {"workload", m.site.workload},
        {"instruction", m.site.instr},      {"at", boost::json::array{m.n, m.c, m.h, m.w}},
        {"simulator", m.simulator},         {"backend", m.backend}};
  }
  return boost::json::serialize(o);
}

}  // namespace gemini::gpu
