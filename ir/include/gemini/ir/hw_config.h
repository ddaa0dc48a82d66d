#pragma once
// Hardware configuration: one struct per component, each with defaults, read
// from a JSON file (configs/README.md documents every parameter). Unknown
// keys, wrong types and out-of-range values are errors that name the
// component and the parameter, e.g.
//   configs/x.json:/l2/size_bytes: parameter "size_bytes" of component "l2":
//   expected an integer >= 1, got string "1M"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gemini/ir/model.h"

namespace gemini::ir {

struct MeshConfig {
  std::int32_t xlen = 0;  // 0: as the IR says
  std::int32_t ylen = 0;
};

struct ClockConfig {
  double frequency_mhz = 1000.0;
};

struct L2Config {
  std::int64_t size_bytes = 1 << 20;
  // Ring-buffer regions [begin, end); empty: one region over all of L2.
  std::vector<RingRegion> ring_regions;
  std::int32_t align_channels = 8;  // channel alignment of fmap tensors
  std::int32_t bitwidth = 8;        // data width the scheduler assumed
  // Per output channel bytes of BatchNorm parameters a weight tensor may carry.
  std::int32_t bn_bytes_per_channel = 8;
  // Addresses and sizes of L2 tensors are multiples of this (gemini import).
  std::int32_t alignment_bytes = 8;
};

struct Wl0Config {
  std::int64_t size_bytes = 4096;
};

// The PE array: `rows` output channels x `cols` output pixels (along W) per
// cycle, each a dot product over `lanes` input channels.
struct PeConfig {
  std::int32_t rows = 8;
  std::int32_t cols = 8;
  std::int32_t lanes = 16;
  std::int64_t macs_per_cycle() const { return std::int64_t{rows} * cols * lanes; }
};

struct HardwareConfig {
  std::string name = "default";
  std::string description;
  MeshConfig mesh;
  ClockConfig clock;
  L2Config l2;
  Wl0Config wl0;
  PeConfig pe;

  // The ring regions to use for `buffersize` bytes of L2.
  std::vector<RingRegion> regions_for(std::int64_t buffersize) const;
};

// Reads a configuration file. On failure returns nullopt and fills `errors`
// with one line per problem ("file:pointer: message").
std::optional<HardwareConfig> load_hw_config(const std::string& path,
                                             std::vector<std::string>& errors);
// Same, from JSON text (`origin` names it in messages).
std::optional<HardwareConfig> parse_hw_config(const std::string& text, const std::string& origin,
                                              std::vector<std::string>& errors);

}  // namespace gemini::ir
