#pragma once
// Typed invocations (after ../shared/spec/task-spec.md): the lowering never
// sets instruction fields directly. It builds an Invocation -- an opcode plus
// named bindings: tensor slots (address, bytes, box, and the access the
// caller intends) and argument slots -- and bind() checks it against the
// opcode's signature in the ISA table before producing an Instr:
//   * every tensor and argument slot of the signature is bound, once;
//   * no binding names a slot the signature lacks;
//   * a tensor bound for writing goes to a write slot, for reading to a read
//     slot (writing through a read slot is rejected);
//   * values fit their field's type and range.
// Errors name the instruction and the IR workload it came from.
//
// Stages: IR workload -> Invocation (this file) -> Instr (isa.h) -> bytes
// (encoding.h).

#include <array>
#include <initializer_list>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "gemini/assembler/isa.h"

namespace gemini::assembler {

struct TensorArg {
  std::int64_t addr = 0;
  std::int64_t bytes = 0;
  std::optional<ir::Box> box;
  Access access = Access::read;
  bool unused = false;  // a slot the operation does not use this time (vp_run's in1 for one input)
};

// Fixed capacity, no allocation and no initialisation of unused items:
// hundreds of thousands are built per file, most binding a few of the N
// slots (an Invocation holds about 1.2 KB of them).
template <typename T, std::size_t N>
struct SmallList {
  struct Item {
    std::string_view first;
    T second;
  };
  static_assert(std::is_trivially_destructible_v<Item> && std::is_trivially_copyable_v<Item>,
                "items live in raw storage, copied as bytes and never destroyed");
  std::size_t size = 0;
  bool push(std::string_view k, T v) {
    if (size == N) return false;
    new (storage_ + size++ * sizeof(Item)) Item{k, std::move(v)};
    return true;
  }
  const Item& operator[](std::size_t i) const {
    return *std::launder(reinterpret_cast<const Item*>(storage_ + i * sizeof(Item)));
  }
  const Item* begin() const {
    return size ? &(*this)[0] : reinterpret_cast<const Item*>(storage_);  // not read when empty
  }
  const Item* end() const { return begin() + size; }

 private:
  alignas(Item) unsigned char storage_[N * sizeof(Item)];  // [0, size) hold bindings
};

// The most bindings of each kind an invocation holds.
inline constexpr std::size_t kMaxTensorBindings = 4, kMaxArgBindings = 28, kMaxBoxBindings = 2;

struct Invocation {
  Opcode op = Opcode::nop;
  std::optional<Engine> queue;  // for wait_local / wait_token / signal
  std::uint32_t workload = 0xffffffffu;
  std::string_view origin;  // "core 3 workload 12 (conv1)" for diagnostics
  bool flag = false;
  bool overflow = false;  // more bindings than any opcode has: a bug, reported by bind()
  SmallList<TensorArg, kMaxTensorBindings> tensors;  // by address-field name
  SmallList<std::int64_t, kMaxArgBindings> args;
  SmallList<ir::Box, kMaxBoxBindings> boxes;  // box arguments

  Invocation& tensor(std::string_view slot, TensorArg t) {
    overflow |= !tensors.push(slot, t);
    return *this;
  }
  Invocation& arg(std::string_view name, std::int64_t v) {
    overflow |= !args.push(name, v);
    return *this;
  }
  Invocation& box(std::string_view name, const ir::Box& b) {
    overflow |= !boxes.push(name, b);
    return *this;
  }
};

std::optional<Instr> bind(const Invocation& inv, std::string& error);
// The same into `out` (the lowering's hot path binds in place); false on error.
bool bind(const Invocation& inv, Instr& out, std::string& error);

// How an invocation's bindings fill its opcode's fields: one store per
// field, each naming where its value comes from. bind() works it out from
// the invocation's shape alone -- the opcode, the names of its bindings in
// order, each tensor's access, whether it is unused and whether it has a
// box -- and checks the shape while doing so; the values are checked
// against their fields' ranges as they are stored.
struct BindPlan {
  enum class From : std::uint8_t {
    tensor_addr,   // the address of tensor binding `index`
    tensor_bytes,  // its byte count
    tensor_box,    // its box
    zero,          // 0: a scalar of an unused tensor slot
    zero_box,      // the empty box of an unused tensor slot
    arg,           // argument binding `index`
    box_arg,       // box argument binding `index`
  };
  // What a store needs of its field, copied out of the table when the plan
  // is made (a plan is applied hundreds of thousands of times).
  struct Store {
    const Field* field = nullptr;  // for messages
    From from = From::zero;
    std::uint8_t index = 0;
    std::uint8_t at = 0;     // offset into the payload
    std::uint8_t width = 0;  // bytes (a box: 16)
    bool box = false;
    std::int64_t min = 0, max = 0;
  };
  std::array<Store, kMaxFields> stores{};
  std::size_t size = 0;
};

// bind() for a stream of invocations of one shape (see BindPlan), as made at
// one place in the lowering: the first is bound in full and its plan kept;
// each later one of the same shape is checked against its fields' ranges
// and stored through that plan, without looking up a name. Anything of
// another shape goes through bind(). The result and the errors are always
// bind()'s.
class RepeatBinder {
 public:
  bool bind(const Invocation& inv, Instr& out, std::string& error);

 private:
  bool matches(const Invocation& inv) const;
  void remember(const Invocation& inv, const BindPlan& plan);
  struct TensorShape {
    std::string_view name;
    Access access;
    bool unused, has_box;
  };
  bool ready_ = false;
  const OpInfo* op_ = nullptr;
  std::array<TensorShape, kMaxTensorBindings> tensors_{};
  std::array<std::string_view, kMaxArgBindings> args_{};
  std::array<std::string_view, kMaxBoxBindings> boxes_{};
  std::size_t n_tensors_ = 0, n_args_ = 0, n_boxes_ = 0;
  BindPlan plan_;
};

// bind() for a call site whose invocations differ only in their queue,
// workload and argument values (the lowering's waits and signals, a few
// hundred thousand of them): the shape is checked once, from a prototype
// invocation, as bind() checks it; bind() then checks each value against
// its field's range and stores it, the arguments given in the order of the
// prototype's argument bindings. The prototype's tensor bindings must all be
// unused slots (their fields are zero), and it binds no box argument.
// bind() says only whether the values fit (or the queue is missing); for
// the message, the caller binds with() -- the prototype with those values --
// through ::bind(), which names the field, the instruction and the workload.
class PreparedBinding {
 public:
  // Aborts when the prototype's shape does not bind, or it has a used tensor
  // slot or a box argument: the prototype is written in code, so that is a
  // bug.
  explicit PreparedBinding(const Invocation& prototype);
  bool bind(std::optional<Engine> queue, std::uint32_t workload,
            std::initializer_list<std::int64_t> args, Instr& out) const;
  // The prototype with these values, for bind()'s message on failure.
  Invocation with(std::optional<Engine> queue, std::uint32_t workload,
                  std::initializer_list<std::int64_t> args) const;

 private:
  Invocation prototype_;
  const OpInfo* op_ = nullptr;
  BindPlan plan_;
};

}  // namespace gemini::assembler
