#include "gemini/assembler/invocation.h"

#include <algorithm>
#include <array>
#include <string>

namespace gemini::assembler {

std::optional<Instr> bind(const Invocation& inv, std::string& error) {
  Instr in;
  if (!bind(inv, in, error)) return std::nullopt;
  return in;
}

bool bind(const Invocation& inv, Instr& in, std::string& error) {
  const OpInfo* op = op_info(inv.op);
  auto fail = [&](const std::string& msg) {
    error = std::string(op ? op->mnemonic : "?") + " (" + std::string(inv.origin) + "): " + msg;
    return false;
  };
  if (!op) return fail("unknown opcode");
  if (inv.overflow) return fail("more bindings than the signature has slots");
  in = Instr{};
  in.op = inv.op;
  in.workload = inv.workload;
  if (op->engine == Engine::kCount) {
    if (!inv.queue) return fail("needs a queue");
    in.queue = *inv.queue;
  } else {
    if (inv.queue && *inv.queue != op->engine) return fail("runs on its own queue");
    in.queue = op->engine;
  }
  if (inv.flag) {
    if (op->flag_name.empty()) return fail("has no flag");
    in.flags = 1;
  }
  std::array<bool, kMaxFields> done{};  // per field of the opcode
  // Bindings mostly come in table order, so the search for a name starts
  // after the field found last and wraps around.
  const std::size_t nf = op->fields.size();
  std::size_t hint = 0;
  auto field_index = [&](std::string_view name) -> std::optional<std::size_t> {
    for (std::size_t k = 0; k < nf; ++k) {
      const std::size_t i = hint + k < nf ? hint + k : hint + k - nf;
      if (op->fields[i].name == name) {
        hint = i + 1 < nf ? i + 1 : 0;
        return i;
      }
    }
    return std::nullopt;
  };
  auto slot = [&](std::size_t fi) { return field_slot_index(*op, fi); };
  auto set = [&](std::size_t fi, std::int64_t v) -> bool {
    const Field& f = op->fields[fi];
    if (v < f.min || v > f.max) {
      error = std::string(op->mnemonic) + " (" + std::string(inv.origin) +
              "): " + std::string(f.name) + "=" + std::to_string(v) + " outside [" +
              std::to_string(f.min) + ", " + std::to_string(f.max) + "]";
      return false;
    }
    in.set_scalar(slot(fi), v);
    done[fi] = true;
    return true;
  };
  auto set_box = [&](std::size_t fi, const Box& b) -> bool {
    const Field& f = op->fields[fi];
    for (int d = 0; d < 4; ++d)
      if (b.lo[d] < f.min || b.hi[d] > f.max || b.lo[d] > b.hi[d]) {
        error = std::string(op->mnemonic) + " (" + std::string(inv.origin) +
                "): " + std::string(f.name) + " has a coordinate outside [0, " +
                std::to_string(f.max) + "] or lower > upper";
        return false;
      }
    in.set_box_at(slot(fi), b);
    done[fi] = true;
    return true;
  };

  for (const auto& [slot, t] : inv.tensors) {
    auto fi = field_index(slot);
    if (!fi || op->fields[*fi].access == Access::none)
      return fail("has no tensor slot \"" + std::string(slot) + "\"");
    const Field& f = op->fields[*fi];
    if (done[*fi]) return fail("tensor slot \"" + std::string(slot) + "\" bound twice");
    if (!t.unused && t.access != f.access)
      return fail(std::string(t.access == Access::write ? "writes" : "reads") + " through " +
                  (f.access == Access::write ? "write" : "read") + " slot \"" + std::string(slot) +
                  "\"");
    if (!set(*fi, t.unused ? 0 : t.addr)) return false;
    // The slot's bytes and box fields: fields of the same role without access.
    for (std::size_t k = 0; k < op->fields.size(); ++k) {
      const Field& g = op->fields[k];
      if (g.role != f.role || g.access != Access::none || done[k]) continue;
      if (g.type == FieldType::box) {
        if (t.unused) {
          if (!set_box(k, Box{})) return false;
          continue;
        }
        if (!t.box) continue;  // may come from another slot of the same role
        if (!set_box(k, *t.box)) return false;
      } else {
        if (!set(k, t.unused ? 0 : t.bytes)) return false;
      }
    }
  }
  for (const auto& [name, v] : inv.args) {
    auto fi = field_index(name);
    if (!fi || op->fields[*fi].access != Access::none || op->fields[*fi].role != Role::none ||
        op->fields[*fi].type == FieldType::box)
      return fail("has no argument slot \"" + std::string(name) + "\"");
    if (done[*fi]) return fail("argument \"" + std::string(name) + "\" bound twice");
    if (!set(*fi, v)) return false;
  }
  for (const auto& [name, b] : inv.boxes) {
    auto fi = field_index(name);
    if (!fi || op->fields[*fi].type != FieldType::box)
      return fail("has no box slot \"" + std::string(name) + "\"");
    if (!set_box(*fi, b)) return false;
  }
  for (std::size_t i = 0; i < op->fields.size(); ++i)
    if (!done[i]) return fail("slot \"" + std::string(op->fields[i].name) + "\" is not bound");
  return true;
}

bool RepeatBinder::matches(const Invocation& inv) const {
  if (!ready_ || inv.op != first_.op || inv.overflow || inv.tensors.size != 0 ||
      inv.boxes.size != 0 || inv.args.size != n_)
    return false;
  for (std::size_t i = 0; i < n_; ++i) {
    const auto& [name, v] = inv.args[i];
    if (name != names_[i] || v < fields_[i]->min || v > fields_[i]->max) return false;
  }
  const OpInfo& op = first_.info();
  if (op.engine == Engine::kCount ? !inv.queue : inv.queue && *inv.queue != op.engine) return false;
  return !inv.flag || !op.flag_name.empty();
}

bool RepeatBinder::bind(const Invocation& inv, Instr& out, std::string& error) {
  if (matches(inv)) {
    out = first_;
    out.workload = inv.workload;
    if (inv.queue) out.queue = *inv.queue;
    out.flags = inv.flag ? 1 : 0;
    for (std::size_t i = 0; i < n_; ++i) out.set_value(*fields_[i], inv.args[i].second);
    return true;
  }
  if (!assembler::bind(inv, out, error)) return false;
  // Remember the shape of the first one bound, when it qualifies.
  if (ready_ || inv.tensors.size != 0 || inv.boxes.size != 0 || inv.args.size > names_.size())
    return true;
  const OpInfo& op = out.info();
  for (std::size_t i = 0; i < inv.args.size; ++i) {
    auto slot = find_field(op, inv.args[i].first);
    if (!slot || slot->is_box) return true;
    names_[i] = inv.args[i].first;
    fields_[i] = slot->field;
  }
  n_ = inv.args.size;
  first_ = out;
  ready_ = true;
  return true;
}

}  // namespace gemini::assembler
