// L2 room for what the quirk corrections change (quirks_room.h).
#include "quirks_room.h"

#include <algorithm>
#include <optional>

#include "gemini/ir/checked_int.h"
#include "gemini/ir/l2_room.h"
#include "gemini/ir/layer_geometry.h"
#include "gemini/ir/tensor_runs.h"

namespace gemini::model::detail {
namespace {

std::string range(std::int64_t b, std::int64_t e) { return ir::to_string(ir::ByteRange{b, e}); }

std::string names(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s.append(s.empty() ? "" : " + ").append(x);
  return s;
}

// Why a tensor of `bytes`, live over snapshots [from, last] of core c,
// finds no place in `region`: what lies at `addr` (where given) and how
// much the region holds meanwhile.
std::string no_place(const ir::Model& m, const ir::Core& c, const ir::CoreRoom& room,
                     std::optional<std::uint32_t> self, std::optional<std::int64_t> addr,
                     std::int64_t bytes, const ir::RingRegion& region, std::uint32_t from,
                     std::uint32_t last) {
  std::string s;
  if (addr)
    if (const auto k = room.clash(*addr, bytes, region, from, last, self)) {
      const ir::CoreRoom::Tensor& y = room.tensors()[k->tensor];
      s += "at its address, " + range(*addr, *addr + bytes) + " overlaps " + to_string(y.type) +
           " of " + y.layer + " at " + range(y.addr, y.addr + y.bytes) + " (" +
           m.pointer(y.origin) + ") before workload " +
           std::to_string(c.workloads[k->snapshot].workload_id) + "; ";
    }
  std::int64_t most = 0;
  for (std::uint32_t x = from; x <= last; ++x)
    most = std::max(most, room.live_bytes(x, region, self));
  s +=
      "no place of ring region " + range(region.begin, region.end) + " is free of the tensors live";
  s += from == last ? " before workload " + std::to_string(c.workloads[from].workload_id)
                    : " from workload " + std::to_string(c.workloads[from].workload_id) + " to " +
                          std::to_string(c.workloads[last].workload_id);
  s += " (up to " + std::to_string(most) + " bytes in one snapshot besides it)";
  return s;
}

// Grows (in place, else moved) tensor t of `room` to `need` bytes; every
// listing follows. False where no place is free.
bool grow(ir::Core& c, ir::CoreRoom& room, std::uint32_t t, std::int64_t need,
          std::int64_t alignment) {
  const ir::CoreRoom::Tensor& x = room.tensors()[t];
  if (need > x.region.size()) return false;
  std::optional<std::int64_t> at;
  if (!room.clash(x.addr, need, x.region, x.from, x.last, t)) at = x.addr;
  if (!at) at = room.lowest_free(need, x.region, x.from, x.last, alignment, t);
  if (!at) return false;
  for (const auto& [s, k] : x.listings) {
    ir::BufferEntry& e = c.workloads[s].buffer[k];
    e.address = *at;
    e.size = need;
  }
  room.place(t, *at, need);
  return true;
}

// The bytes an input tensor's operand slabs need (the import's size of
// such a tensor, docs/allocation.md), and the least the lowering's slabs
// take (G003's minimum); 0 and 0 for a tensor of one input.
struct SlabBytes {
  std::int64_t need = 0, least = 0;
  std::vector<std::vector<std::string>> slabs;
};
SlabBytes slab_bytes(const ir::BufferEntry& e, const ir::HardwareConfig& hw) {
  SlabBytes b;
  if (e.type != ir::TensorType::ifmap) return b;
  b.slabs = ir::operand_slabs(e);
  if (b.slabs.size() < 2) return b;
  const auto n = static_cast<std::int64_t>(b.slabs.size());
  const std::int32_t bw = e.bitwidth.value_or(hw.l2.bitwidth);
  ir::CheckedI64 need(ir::aligned_bytes(e.box, e.align.value_or(hw.l2.align_channels), bw));
  need *= n;
  ir::CheckedI64 least(ir::aligned_bytes(e.box, 1, bw));
  least *= n;
  b.need = need.value_or(INT64_MAX);
  b.least = least.value_or(INT64_MAX);
  return b;
}

void operand_room(ir::Model& m, ir::Core& c, const ir::HardwareConfig& hw, ir::Diagnostics& d,
                  First& grown) {
  const std::int64_t buffersize = m.buffersize.value_or(hw.l2.size_bytes);
  ir::CoreRoom room(c, buffersize);
  for (std::uint32_t t = 0; t < room.tensors().size(); ++t) {
    const ir::CoreRoom::Tensor& x = room.tensors()[t];
    const auto [s, k] = x.listings.front();
    const ir::BufferEntry& e = c.workloads[s].buffer[k];
    const SlabBytes b = slab_bytes(e, hw);
    if (b.slabs.empty() || !e.size || !e.address || *e.size >= b.least) continue;
    const std::string at = m.pointer(e.origin);
    if (grow(c, room, t, b.need, hw.l2.alignment_bytes)) {
      grown.add(at);
      continue;
    }
    std::string operands;
    for (std::size_t i = 0; i < b.slabs.size(); ++i)
      operands.append(i ? ", " : "")
          .append("slab ")
          .append(std::to_string(i))
          .append(" ")
          .append(names(b.slabs[i]));
    d.report(ir::Check::quirk_no_room, at,
             "core " + std::to_string(c.core_id) + ": the input tensor " + ir::to_string(e.box) +
                 " of " + e.layer_name + ", corrected from the model (Q1) to hold its " +
                 std::to_string(b.slabs.size()) + " operands one slab each (" + operands +
                 "), needs " + std::to_string(b.need) + " bytes; its entry has " +
                 std::to_string(*e.size) + ": " +
                 (b.need > x.region.size()
                      ? "more than its ring region " + range(x.region.begin, x.region.end)
                      : no_place(m, c, room, t, x.addr, b.need, x.region, x.from, x.last)));
  }
}

// Full dialect: the holding ofmap tensors of one core, each placed where
// its snapshot has room (the lowest free place of the snapshot's largest
// ring region that has one), with a tensor id past the core's largest.
class HoldRoom {
 public:
  HoldRoom(const ir::Model& m, const ir::Core& c, const ir::HardwareConfig& hw)
      : m_(m), c_(c), hw_(hw), room_(c, m.buffersize.value_or(hw.l2.size_bytes)) {
    for (const ir::Workload& x : c.workloads)
      for (const ir::BufferEntry& b : x.buffer)
        if (b.tensor_id) last_id_ = std::max(last_id_.value_or(-1), *b.tensor_id);
  }

  // Gives e, the ofmap tensor of workload i, its place; M011 where none is.
  bool place(std::uint32_t i, ir::BufferEntry& e, ir::Diagnostics& d, const std::string& at) {
    std::optional<std::int64_t> addr;
    ir::RingRegion region;
    for (const ir::RingRegion& g : room_.regions_of(i))
      if (!addr) {
        region = g;
        addr = room_.lowest_free(*e.size, g, i, i, hw_.l2.alignment_bytes, std::nullopt);
      }
    const ir::Workload& w = c_.workloads[i];
    if (!addr) {
      d.report(ir::Check::quirk_no_room, at,
               "core " + std::to_string(c_.core_id) + " workload " + std::to_string(w.workload_id) +
                   " (" + w.layer_name +
                   ") has no ofmap entry and wrote its result straight into a tensor of its "
                   "core, which after the correction (Q1/Q2) no longer receives it (" +
                   sent(w) + "): the result needs an L2 tensor of " + std::to_string(*e.size) +
                   " bytes to wait in until it is sent, and " +
                   no_place(m_, c_, room_, std::nullopt, std::nullopt, *e.size, region, i, i));
      return false;
    }
    e.address = *addr;
    e.newly_added = true;
    e.align = hw_.l2.align_channels;
    e.bitwidth = w.ofmap.front().bitwidth.value_or(hw_.l2.bitwidth);
    if (last_id_) e.tensor_id = ++*last_id_;
    ir::CoreRoom::Tensor x;
    x.addr = *addr;
    x.bytes = *e.size;
    x.from = x.first = x.last = i;
    x.region = region;
    x.type = e.type;
    x.layer = e.layer_name;
    x.origin = e.origin;
    x.listings.emplace_back(i, static_cast<std::uint32_t>(w.buffer.size()));
    room_.add(std::move(x));
    return true;
  }

 private:
  // Where w's result goes: "transfer 7 to core 2 workload 5, ...".
  static std::string sent(const ir::Workload& w) {
    std::string to;
    for (const ir::Ofmap& o : w.ofmap)
      for (const ir::Endpoint& x : o.destination) {
        to.append(to.empty() ? "" : ", ")
            .append("transfer ")
            .append(std::to_string(o.transfer_id))
            .append(" to ");
        if (x.type == ir::EndpointType::dram)
          to.append("DRAM");
        else
          to.append("core ")
              .append(std::to_string(x.core_id))
              .append(" workload ")
              .append(std::to_string(x.workload_id.value_or(-1)));
      }
    return to;
  }

  const ir::Model& m_;
  const ir::Core& c_;
  const ir::HardwareConfig& hw_;
  ir::CoreRoom room_;
  std::optional<std::int64_t> last_id_;  // the core's largest tensor id, if it has any
};

}  // namespace

void make_operand_room(ir::Model& m, const ir::HardwareConfig& hw, ir::Diagnostics& d,
                       First& grown) {
  if (m.dialect != ir::Dialect::full) return;
  for (ir::Core& c : m.cores) {
    // Only a core with a tensor to grow builds its room.
    bool any = false;
    for (const ir::Workload& w : c.workloads)
      for (const ir::BufferEntry& e : w.buffer)
        if (!any && e.size && e.address) {
          const SlabBytes b = slab_bytes(e, hw);
          any = !b.slabs.empty() && *e.size < b.least;
        }
    if (any) operand_room(m, c, hw, d, grown);
  }
}

void hold_sent_ofmaps(ir::Model& m, const ir::HardwareConfig& hw, ir::Diagnostics& d, First& held) {
  for (ir::Core& c : m.cores) {
    std::optional<HoldRoom> room;  // full dialect, built on first use
    for (std::uint32_t i = 0; i < c.workloads.size(); ++i) {
      ir::Workload& w = c.workloads[i];
      if (w.ofmap.empty() || w.workload.rank != 4 || ir::has_own_ofmap_entry(w)) continue;
      // A tensor of this core, in this snapshot or the next, receiving one
      // of its transfers from this core (where the lowering writes it).
      if (ir::snapshot_receives_result(c, i, w) || ir::snapshot_receives_result(c, i + 1, w))
        continue;
      ir::BufferEntry e;
      e.type = ir::TensorType::ofmap;
      e.layer_name = w.layer_name;
      e.box = w.workload;
      e.size = std::max<std::int64_t>(w.ofmap_size, 1);
      e.origin = w.origin;
      const std::string at = m.pointer(w.origin, "/buffer");
      if (m.dialect == ir::Dialect::full) {
        if (!room) room.emplace(m, c, hw);
        if (!room->place(i, e, d, at)) continue;
      }
      w.buffer.push_back(std::move(e));
      held.add(at);
    }
  }
}

}  // namespace gemini::model::detail
