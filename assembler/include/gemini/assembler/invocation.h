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
  std::optional<Box> box;
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

struct Invocation {
  Opcode op = Opcode::nop;
  std::optional<Engine> queue;  // for wait_local / wait_token / signal
  std::uint32_t workload = 0xffffffffu;
  std::string_view origin;  // "core 3 workload 12 (conv1)" for diagnostics
  bool flag = false;
  bool overflow = false;            // more bindings than any opcode has: a bug, reported by bind()
  SmallList<TensorArg, 4> tensors;  // by address-field name
  SmallList<std::int64_t, 24> args;
  SmallList<Box, 2> boxes;  // box arguments

  Invocation& tensor(std::string_view slot, TensorArg t) {
    overflow |= !tensors.push(slot, t);
    return *this;
  }
  Invocation& arg(std::string_view name, std::int64_t v) {
    overflow |= !args.push(name, v);
    return *this;
  }
};

std::optional<Instr> bind(const Invocation& inv, std::string& error);
// The same into `out` (the lowering's hot path binds in place); false on error.
bool bind(const Invocation& inv, Instr& out, std::string& error);

// bind() for a stream of invocations of one shape -- the same opcode and
// argument names in the same order, no tensor or box slots (waits): the
// first is bound in full, and each later one whose values all lie in their
// fields' ranges is the first's instruction with its own queue, workload,
// flag and values stored in the fields found then. Anything else (another
// shape, a value out of range) goes through bind(), so the result and the
// errors are always bind()'s.
class RepeatBinder {
 public:
  bool bind(const Invocation& inv, Instr& out, std::string& error);

 private:
  bool matches(const Invocation& inv) const;
  bool ready_ = false;
  Instr first_;
  std::array<std::string_view, 8> names_{};
  std::array<const Field*, 8> fields_{};
  std::size_t n_ = 0;
};

}  // namespace gemini::assembler
