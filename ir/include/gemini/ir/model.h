#pragma once
// The IR model: typed structs for everything gemini-ir-format.md describes,
// the same for both dialects once loaded (see docs/ir-model.md):
//   * core ids are y * xlen + x, DRAM is -1;
//   * every size is in bytes;
//   * transfer id lists are flat;
//   * layer kinds are pe / vp / dt, with the file's own string kept.
// Every object carries an Origin naming the JSON pointer it was read from.
// Origins never take part in equality: two models are equal when their
// contents are, wherever they were read from.

#include <array>
#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gemini/ir/box.h"
#include "gemini/ir/path_table.h"

namespace gemini::ir {

inline constexpr std::int32_t kDramCore = -1;
// A core reference the loader could not resolve (already reported).
inline constexpr std::int32_t kInvalidCore = INT32_MIN;

struct Origin {
  Loc loc = kRootLoc;
  bool operator==(const Origin&) const { return true; }
};

enum class Dialect : std::uint8_t { full, set };
enum class LayerKind : std::uint8_t { pe, vp, dt };
enum class EndpointType : std::uint8_t { core, dram };
enum class DataType : std::uint8_t { fmap, weight };            // DRAM out entries
enum class TensorType : std::uint8_t { ifmap, ofmap, weight };  // buffer entries
enum class Wl0Source : std::uint8_t { core, dram };

const char* to_string(Dialect d);
const char* to_string(LayerKind k);
const char* to_string(EndpointType t);
const char* to_string(DataType t);
const char* to_string(TensorType t);
const char* to_string(Wl0Source s);

using TransferId = std::int64_t;

// A destination of a DRAM out tensor or of an ofmap.
struct Endpoint {
  EndpointType type = EndpointType::core;
  std::int32_t core_id = kDramCore;
  std::optional<std::int32_t> workload_id;  // absent for DRAM destinations
  std::optional<std::string> layer_name;
  Origin origin;
  bool operator==(const Endpoint&) const = default;
};

// IR["-1"]["in"][i]: an ofmap written back to DRAM.
struct DramIn {
  std::int32_t core_id = 0;
  std::int32_t workload_id = 0;
  std::optional<std::string> layer_name;
  Box box;
  TransferId transfer_id = 0;
  std::vector<TransferId> related_ofmap;
  Origin origin;
  bool operator==(const DramIn&) const = default;
};

// IR["-1"]["out"][i]: a tensor read from DRAM (weights, inputs, spilled fmaps).
struct DramOut {
  std::vector<Endpoint> destination;
  Box box;
  std::vector<TransferId> related_ifmap;
  std::int64_t size = 0;  // bytes
  TransferId transfer_id = 0;
  DataType type = DataType::fmap;
  std::optional<std::string> layer_name;
  Origin origin;
  bool operator==(const DramOut&) const = default;
};

// One entry of a workload's "ifmap" list.
struct Ifmap {
  std::optional<std::int32_t> align;
  std::optional<std::int32_t> bitwidth;
  Box box;
  std::optional<std::int64_t> size;  // bytes
  std::vector<TransferId> transfer_id;
  // False where the file gives no transfer_id and the loader added none (it
  // does for the public scheduler's quirk Q1, docs/ir-model.md).
  bool has_transfer_id = true;
  std::optional<std::int32_t> max_workload_id;  // public dialect
  Origin origin;
  bool operator==(const Ifmap&) const = default;
};

struct Ofmap {
  std::vector<Endpoint> destination;
  Box box;
  std::int64_t size = 0;  // bytes
  std::optional<std::int32_t> bitwidth;
  TransferId transfer_id = 0;
  Origin origin;
  bool operator==(const Ofmap&) const = default;
};

struct Weight {
  std::optional<std::int32_t> align;
  std::optional<std::int32_t> bitwidth;
  Box box;
  std::optional<std::int64_t> size;  // bytes
  std::vector<TransferId> transfer_id;
  std::optional<bool> from_ofmap;               // public dialect: weight is an activation
  std::optional<std::int32_t> max_workload_id;  // public dialect
  Origin origin;
  bool operator==(const Weight&) const = default;
};

// One element of a buffer entry's "source" list.
struct Source {
  EndpointType type = EndpointType::dram;
  std::int32_t core_id = kDramCore;
  std::optional<std::string> layer_name;
  Box box;
  std::int64_t size = 0;  // bytes
  TransferId transfer_id = 0;
  std::optional<std::array<std::int32_t, 2>> channel;  // public dialect
  Origin origin;
  bool operator==(const Source&) const = default;
};

// One tensor of an L2 buffer snapshot.
struct BufferEntry {
  std::optional<std::int64_t> address;  // bytes
  std::optional<std::int32_t> align;
  std::optional<std::int32_t> bitwidth;
  std::string layer_name;
  Box box;
  std::optional<bool> newly_added;
  std::optional<bool> cur_wl_ifmap;
  std::optional<std::int64_t> size;  // bytes; absent on some public-dialect entries
  // "source": absent, null, or a list. source_null records an explicit null.
  std::vector<Source> source;
  bool has_source = false;
  bool source_null = false;
  std::optional<std::int64_t> tensor_id;
  std::optional<std::int64_t> tensor_order;  // null and absent both read as nullopt
  std::vector<TransferId> transfer_id;
  bool has_transfer_id = false;
  TensorType type = TensorType::ifmap;
  std::optional<std::int32_t> workload_id;  // public dialect
  std::optional<std::int64_t> block;        // public dialect: size in KiB blocks
  Origin origin;
  bool operator==(const BufferEntry&) const = default;
};

struct Wl0Entry {
  std::optional<std::int64_t> address;
  std::optional<std::int32_t> align;
  std::optional<std::int32_t> bitwidth;
  std::optional<std::string> layer_name;
  std::int64_t size = 0;
  Wl0Source source = Wl0Source::core;
  std::optional<std::int64_t> tensor_order;
  std::vector<TransferId> transfer_id;
  Origin origin;
  bool operator==(const Wl0Entry&) const = default;
};

// One intra-core tile of "tile_info" ("tile_num_<k>").
struct Tile {
  std::string name;
  std::array<std::int32_t, 4> act_mini_tile{};
  std::int32_t ci_cut_num = 1;
  std::string cut_mode;
  Box ifmap;
  std::optional<std::string> layer_name;
  std::string loop_order;
  std::array<std::int32_t, 2> mtc0_mtk0{};
  Box ofmap;
  std::array<std::int32_t, 4> out_mini_tile{};
  double single_tile_time_pred = 0.0;
  std::optional<std::array<std::int32_t, 4>> tile_padding_tblr;
  Origin origin;
  bool operator==(const Tile&) const = default;
};

struct ByteRange {
  std::int64_t begin = 0, end = 0;  // [begin, end)
  bool overlaps(const ByteRange& o) const { return begin < o.end && o.begin < end; }
};
// "[begin, end)", as diagnostics print byte ranges of L2.
std::string to_string(const ByteRange& r);

// The bytes one tensor occupies: one range, or two when it wraps.
struct Footprint {
  std::array<ByteRange, 2> range{};
  std::size_t n = 0;
  const ByteRange* begin() const { return range.data(); }
  const ByteRange* end() const { return range.data() + n; }
  bool overlaps(const Footprint& o) const {
    for (const ByteRange& a : *this)
      for (const ByteRange& b : o)
        if (a.overlaps(b)) return true;
    return false;
  }
};

// A ring-buffer region of L2: addresses [begin, end); a tensor that runs past
// `end` wraps to `begin`.
struct RingRegion {
  std::int64_t begin = 0;
  std::int64_t end = 0;
  std::int64_t size() const { return end - begin; }
  // The bytes of a tensor at `addr` (inside the region) of `bytes` (at most
  // size()): [addr, addr+bytes), or [addr, end) and the wrapped rest from
  // begin. Empty for bytes <= 0.
  Footprint footprint(std::int64_t addr, std::int64_t bytes) const {
    Footprint f;
    if (bytes <= 0) return f;
    if (addr + bytes <= end) {
      f.range[f.n++] = {addr, addr + bytes};
    } else {
      f.range[f.n++] = {addr, end};
      f.range[f.n++] = {begin, begin + (addr + bytes - end)};
    }
    return f;
  }
  bool operator==(const RingRegion&) const = default;
};

struct Workload {
  std::int32_t workload_id = 0;
  std::string layer_name;
  LayerKind kind = LayerKind::pe;
  std::string layer_type;  // the file's own string ("pe", "conv2d", ...); empty if absent
  std::optional<std::vector<Tile>> tile_info;
  std::int64_t time = 0;
  std::vector<Ifmap> ifmap;  // the public dialect's single object becomes one entry
  std::optional<std::array<std::int32_t, 4>> tile_padding_tblr;
  std::vector<Ofmap> ofmap;
  Box workload;
  std::int64_t ofmap_size = 0;  // bytes
  std::optional<std::vector<RingRegion>> ring_buffer_info;
  Origin ring_origin;
  std::vector<BufferEntry> buffer;
  std::optional<std::vector<Wl0Entry>> wl0_buffer;
  std::optional<Weight> weight;
  Origin origin;
  bool operator==(const Workload&) const = default;
};

// Identity of a full-dialect buffer tensor across a core's snapshots: its
// tensor_id where given, else its type, address and transfer ids. The same
// key in consecutive snapshots is the same tensor.
std::string tensor_identity(const BufferEntry& b);
// The same identity without building the string: equal exactly when the
// strings are, and a hash of it, for maps keyed by entry.
bool same_tensor_identity(const BufferEntry& a, const BufferEntry& b);
std::size_t tensor_identity_hash(const BufferEntry& b);
// The two as the hash and equality of a map keyed by `const BufferEntry*`.
struct TensorIdentityHash {
  std::size_t operator()(const BufferEntry* e) const { return tensor_identity_hash(*e); }
};
struct TensorIdentityEq {
  bool operator()(const BufferEntry* a, const BufferEntry* b) const {
    return same_tensor_identity(*a, *b);
  }
};

struct Core {
  std::int32_t core_id = 0;
  std::vector<Workload> workloads;
  Origin origin;
  bool operator==(const Core&) const = default;
};

struct Model {
  Dialect dialect = Dialect::full;
  std::int32_t xlen = 0;
  std::int32_t ylen = 0;
  std::optional<std::int64_t> buffersize;
  std::optional<std::int64_t> top_batch_cut;
  std::vector<DramIn> dram_in;
  std::vector<DramOut> dram_out;
  std::vector<Core> cores;  // ascending core_id
  Origin origin;

  bool operator==(const Model& o) const {
    // The dialect is provenance, not content: a public-dialect file written
    // out in the full dialect loads back equal.
    return xlen == o.xlen && ylen == o.ylen && buffersize == o.buffersize &&
           top_batch_cut == o.top_batch_cut && dram_in == o.dram_in && dram_out == o.dram_out &&
           cores == o.cores;
  }

  // Owns the pointers of every Origin above.
  PathTable paths;
  std::string pointer(const Origin& o, std::string_view suffix = {}) const {
    return paths.pointer(o.loc, suffix);
  }
  std::int32_t core_count() const { return xlen * ylen; }
  const Core* find_core(std::int32_t core_id) const;
  // The workload with this id on this core, or nullptr.
  const Workload* find_workload(std::int32_t core_id, std::int32_t workload_id) const;
};

// One past the largest transfer id the model uses anywhere (0 for none): the
// first id free for a transfer added to it.
TransferId next_transfer_id(const Model& m);

}  // namespace gemini::ir
