#include "gemini/assembler/invocation.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "little_endian.h"

namespace gemini::assembler {

namespace {

using From = BindPlan::From;

std::string prefix(const OpInfo* op, const Invocation& inv) {
  return std::string(op ? op->mnemonic : "?") + " (" + std::string(inv.origin) + "): ";
}

// The shape half of bind(): checks the opcode, queue, flag and every
// binding's name and access, and works out which binding fills each field.
// Nothing here reads a value (an address, a count), so the plan holds for
// every invocation of the same shape.
bool plan_bindings(const Invocation& inv, const OpInfo* op, BindPlan& plan, std::string& error) {
  auto fail = [&](const std::string& msg) {
    error = prefix(op, inv) + msg;
    return false;
  };
  if (!op) return fail("unknown opcode");
  if (inv.overflow) return fail("more bindings than the signature has slots");
  if (op->engine == Engine::kCount) {
    if (!inv.queue) return fail("needs a queue");
  } else if (inv.queue && *inv.queue != op->engine) {
    return fail("runs on its own queue");
  }
  if (inv.flag && op->flag_name.empty()) return fail("has no flag");
  std::array<bool, kMaxFields> done{};  // per field of the opcode
  plan.size = 0;
  auto store = [&](std::size_t fi, From from, std::size_t index) {
    const Field& f = op->fields[fi];
    plan.stores[plan.size++] = {&f,
                                from,
                                static_cast<std::uint8_t>(index),
                                static_cast<std::uint8_t>(f.offset - kHeaderBytes),
                                static_cast<std::uint8_t>(field_width(f.type)),
                                f.type == FieldType::box,
                                f.min,
                                f.max};
    done[fi] = true;
  };
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

  for (std::size_t ti = 0; ti < inv.tensors.size; ++ti) {
    const auto& [slot, t] = inv.tensors[ti];
    auto fi = field_index(slot);
    if (!fi || op->fields[*fi].access == Access::none)
      return fail("has no tensor slot \"" + std::string(slot) + "\"");
    const Field& f = op->fields[*fi];
    if (done[*fi]) return fail("tensor slot \"" + std::string(slot) + "\" bound twice");
    if (!t.unused && t.access != f.access)
      return fail(std::string(t.access == Access::write ? "writes" : "reads") + " through " +
                  (f.access == Access::write ? "write" : "read") + " slot \"" + std::string(slot) +
                  "\"");
    store(*fi, t.unused ? From::zero : From::tensor_addr, ti);
    // The slot's bytes and box fields: fields of the same role without access.
    for (std::size_t k = 0; k < nf; ++k) {
      const Field& g = op->fields[k];
      if (g.role != f.role || g.access != Access::none || done[k]) continue;
      if (g.type == FieldType::box) {
        if (t.unused) {
          store(k, From::zero_box, ti);
        } else if (t.box) {
          store(k, From::tensor_box, ti);
        }  // else it may come from another slot of the same role
      } else {
        store(k, t.unused ? From::zero : From::tensor_bytes, ti);
      }
    }
  }
  for (std::size_t ai = 0; ai < inv.args.size; ++ai) {
    const std::string_view name = inv.args[ai].first;
    auto fi = field_index(name);
    if (!fi || op->fields[*fi].access != Access::none || op->fields[*fi].role != Role::none ||
        op->fields[*fi].type == FieldType::box)
      return fail("has no argument slot \"" + std::string(name) + "\"");
    if (done[*fi]) return fail("argument \"" + std::string(name) + "\" bound twice");
    store(*fi, From::arg, ai);
  }
  for (std::size_t bi = 0; bi < inv.boxes.size; ++bi) {
    const std::string_view name = inv.boxes[bi].first;
    auto fi = field_index(name);
    if (!fi || op->fields[*fi].type != FieldType::box)
      return fail("has no box slot \"" + std::string(name) + "\"");
    if (done[*fi]) return fail("box \"" + std::string(name) + "\" bound twice");
    store(*fi, From::box_arg, bi);
  }
  for (std::size_t i = 0; i < nf; ++i)
    if (!done[i] && !op->fields[i].optional)
      return fail("slot \"" + std::string(op->fields[i].name) + "\" is not bound");
  return true;
}

// An instruction's header, its payload zero: where the plan's stores go.
// `queue` is the one given for an opcode whose queue is a field (its plan
// was made knowing it is there).
void start_instr(const OpInfo& op, std::optional<Engine> queue, bool flag, std::uint32_t workload,
                 Instr& in) {
  in.op = op.op;
  in.queue = op.engine == Engine::kCount ? *queue : op.engine;
  in.flags = flag ? 1 : 0;
  in.workload = workload;
  in.payload.fill(0);
}

// A scalar store of a plan: false when `v` is outside the field's range.
// The plan holds the field's offset, width and range, so a store is one
// check and one write (the same bytes as Instr::set_value).
bool store_scalar(const BindPlan::Store& s, std::int64_t v, Instr& in) {
  if (v < s.min || v > s.max) return false;
  detail::store_le(in.payload.data() + s.at, static_cast<std::uint64_t>(v), s.width);
  return true;
}

// The value half: `inv`'s values stored through a plan made for its shape,
// each checked against its field's range first.
bool apply_plan(const Invocation& inv, const OpInfo& op, const BindPlan& plan, Instr& in,
                std::string& error) {
  start_instr(op, inv.queue, inv.flag, inv.workload, in);
  for (std::size_t k = 0; k < plan.size; ++k) {
    const BindPlan::Store& s = plan.stores[k];
    if (s.box) {
      const ir::Box b = s.from == From::tensor_box ? *inv.tensors[s.index].second.box
                        : s.from == From::box_arg  ? inv.boxes[s.index].second
                                                   : ir::Box{};
      for (int d = 0; d < 4; ++d)
        if (b.lo[d] < s.min || b.hi[d] > s.max || b.lo[d] > b.hi[d]) {
          error = prefix(&op, inv) + std::string(s.field->name) + " has a coordinate outside [0, " +
                  std::to_string(s.max) + "] or lower > upper";
          return false;
        }
      detail::store_box(in.payload.data() + s.at, b);
      continue;
    }
    std::int64_t v = 0;
    switch (s.from) {
      case From::tensor_addr:
        v = inv.tensors[s.index].second.addr;
        break;
      case From::tensor_bytes:
        v = inv.tensors[s.index].second.bytes;
        break;
      case From::arg:
        v = inv.args[s.index].second;
        break;
      default:
        break;
    }
    if (!store_scalar(s, v, in)) {
      error = prefix(&op, inv) + std::string(s.field->name) + "=" + std::to_string(v) +
              " outside [" + std::to_string(s.min) + ", " + std::to_string(s.max) + "]";
      return false;
    }
  }
  return true;
}

// Names written at one place in the code are usually the same literal.
inline bool same_name(std::string_view a, std::string_view b) {
  return (a.data() == b.data() && a.size() == b.size()) || a == b;
}

}  // namespace

std::optional<Instr> bind(const Invocation& inv, std::string& error) {
  Instr in;
  if (!bind(inv, in, error)) return std::nullopt;
  return in;
}

bool bind(const Invocation& inv, Instr& in, std::string& error) {
  const OpInfo* op = op_info(inv.op);
  BindPlan plan;
  return plan_bindings(inv, op, plan, error) && apply_plan(inv, *op, plan, in, error);
}

bool RepeatBinder::matches(const Invocation& inv) const {
  if (!ready_ || inv.op != op_->op || inv.overflow || inv.tensors.size != n_tensors_ ||
      inv.args.size != n_args_ || inv.boxes.size != n_boxes_)
    return false;
  for (std::size_t i = 0; i < n_tensors_; ++i) {
    const auto& [name, t] = inv.tensors[i];
    const TensorShape& s = tensors_[i];
    if (!same_name(name, s.name) || t.access != s.access || t.unused != s.unused ||
        t.box.has_value() != s.has_box)
      return false;
  }
  for (std::size_t i = 0; i < n_args_; ++i)
    if (!same_name(inv.args[i].first, args_[i])) return false;
  for (std::size_t i = 0; i < n_boxes_; ++i)
    if (!same_name(inv.boxes[i].first, boxes_[i])) return false;
  // What the plan's checks depend on besides the names.
  const OpInfo& op = *op_;
  if (op.engine == Engine::kCount ? !inv.queue : inv.queue && *inv.queue != op.engine) return false;
  return !inv.flag || !op.flag_name.empty();
}

void RepeatBinder::remember(const Invocation& inv, const BindPlan& plan) {
  op_ = op_info(inv.op);
  n_tensors_ = inv.tensors.size;
  n_args_ = inv.args.size;
  n_boxes_ = inv.boxes.size;
  for (std::size_t i = 0; i < n_tensors_; ++i) {
    const auto& [name, t] = inv.tensors[i];
    tensors_[i] = {name, t.access, t.unused, t.box.has_value()};
  }
  for (std::size_t i = 0; i < n_args_; ++i) args_[i] = inv.args[i].first;
  for (std::size_t i = 0; i < n_boxes_; ++i) boxes_[i] = inv.boxes[i].first;
  plan_ = plan;
  ready_ = true;
}

bool RepeatBinder::bind(const Invocation& inv, Instr& out, std::string& error) {
  if (matches(inv)) return apply_plan(inv, *op_, plan_, out, error);
  const OpInfo* op = op_info(inv.op);
  BindPlan plan;
  if (!plan_bindings(inv, op, plan, error)) return false;
  if (!ready_) remember(inv, plan);  // the first shape bound is kept
  return apply_plan(inv, *op, plan, out, error);
}

PreparedBinding::PreparedBinding(const Invocation& prototype)
    : prototype_(prototype), op_(op_info(prototype.op)) {
  std::string error;
  bool ok = op_ && plan_bindings(prototype, op_, plan_, error);
  for (const auto& t : prototype.tensors) ok &= t.second.unused;
  ok &= prototype.boxes.size == 0;
  if (!ok) {
    std::fprintf(stderr, "gemini: internal error: a prepared binding's prototype: %s\n",
                 error.empty() ? "a tensor slot or box argument is used" : error.c_str());
    std::abort();
  }
}

bool PreparedBinding::bind(std::optional<Engine> queue, std::uint32_t workload,
                           std::initializer_list<std::int64_t> args, Instr& out) const {
  const OpInfo& op = *op_;
  if (args.size() != prototype_.args.size ||
      (op.engine == Engine::kCount ? !queue : queue && *queue != op.engine))
    return false;
  start_instr(op, queue, prototype_.flag, workload, out);
  const std::int64_t* values = args.begin();
  for (std::size_t k = 0; k < plan_.size; ++k) {
    const BindPlan::Store& s = plan_.stores[k];
    if (s.from != From::arg) continue;  // an unused tensor slot's field: zero
    if (!store_scalar(s, values[s.index], out)) return false;
  }
  return true;
}

Invocation PreparedBinding::with(std::optional<Engine> queue, std::uint32_t workload,
                                 std::initializer_list<std::int64_t> args) const {
  Invocation inv;
  inv.op = prototype_.op;
  inv.queue = queue;
  inv.workload = workload;
  inv.flag = prototype_.flag;
  for (const auto& t : prototype_.tensors) inv.tensor(t.first, t.second);
  std::size_t i = 0;
  for (std::int64_t v : args) {
    inv.arg(i < prototype_.args.size ? prototype_.args[i].first : std::string_view("?"), v);
    ++i;
  }
  return inv;
}

}  // namespace gemini::assembler
