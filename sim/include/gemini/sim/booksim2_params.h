#pragma once
// The booksim2 NoC model's parameters and what BookSim is configured with
// (booksim2_config.h maps the one onto the other; booksim2_keys.h's table
// of BookSim's keys reads and writes them). Plain C++; no BookSim types.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gemini/sim/noc_model.h"

namespace gemini::sim {

// The booksim2 model's parameters (its declared ones, booksim2_noc.cpp).
struct Booksim2Params {
  double link_gbps = 24;
  std::int32_t router_cycles = 2;
  std::int32_t buffer_packets = 0;  // 0: deep buffers (deep_packets)
  std::int32_t deep_packets = 64;   // packets per VC buffer when buffer_packets is 0
  std::int32_t num_vcs = 1;
  std::int32_t clock_ratio = 0;     // 0: the smallest that fits router_cycles
  std::int32_t routing_delay = -1;  // -1: derived (above)
  std::int32_t vc_alloc_delay = 1, sw_alloc_delay = 1, st_final_delay = 1;
  std::int32_t st_prepare_delay = 0, credit_delay = 0;
  std::int32_t input_speedup = 1, output_speedup = 1;
  double internal_speedup = 1.0;
  bool speculative = true;
  std::string vc_allocator = "separable_input_first", sw_allocator = "separable_input_first";
  std::int32_t alloc_iters = 1;
  std::string arb_type = "round_robin";
  std::int32_t seed = 1;
  // Any other BookSim key (noc.booksim), as BookSim's parser would take it:
  // (key, value, kind) with kind 'i' integer, 'f' number, 's' string.
  struct Extra {
    std::string key, value;
    char kind = 's';
  };
  std::vector<Extra> extra;
};

// What BookSim is configured with, and how gemini's nodes and times map
// onto it.
struct Booksim2Setup {
  std::int32_t k = 1;                // the BookSim mesh is k x k
  std::int32_t xlen = 1, ylen = 1;   // gemini's grid
  std::int32_t column_offset = 0;    // BookSim column of gemini's x = 0 (1 with ports)
  std::vector<std::int32_t> port_x;  // per DRAM port, its gemini position
  std::vector<std::int32_t> port_y;
  std::int32_t clock_ratio = 1;    // BookSim cycles per core cycle
  Tick period = 1000;              // the core clock (ps)
  double flit_bytes = 24;          // one link's bytes per BookSim cycle
  std::int32_t packet_flits = 1;   // a packet of packet_bytes
  std::int32_t hop_cycles = 3;     // BookSim cycles per hop (zero load)
  std::int32_t routing_delay = 0;  // BookSim's routing_delay, as written
  std::int64_t vc_buf_size = 1;    // flits per VC buffer, as written
  // The D2D links' extra channel cycles, and which links they are: per
  // link of MeshLinks(xlen, ylen) (mesh_links.h: its die boundaries), 1 on a
  // D2D link BookSim has; and their BookSim channels, (BookSim node,
  // direction 0 east / 1 west / 2 south / 3 north) per link.
  std::int32_t d2d_cycles = 0;
  std::vector<std::uint8_t> d2d_links;
  std::vector<std::pair<std::int32_t, std::int32_t>> d2d_channels;
  // BookSim's keys, in order: (key, value, kind: 'i', 'f' or 's'); the
  // first `own_keys` gemini's, the rest Booksim2Params::extra.
  std::vector<Booksim2Params::Extra> keys;
  std::size_t own_keys = 0;

  // The BookSim node of gemini's grid position (x = -1 and x = xlen: the
  // row ends, where ports sit).
  std::int32_t node(std::int32_t x, std::int32_t y) const { return y * k + x + column_offset; }
  // BookSim's channel of the link from grid position a to its neighbour b:
  // 4 x node + direction.
  std::int32_t channel(NodePos a, NodePos b) const {
    const std::int32_t dir = b.x > a.x ? 0 : b.x < a.x ? 1 : b.y > a.y ? 2 : 3;
    return 4 * node(a.x, a.y) + dir;
  }
  // Flits of a packet of `bytes` (at least one).
  std::int32_t flits(std::int64_t bytes) const;
  // The configuration as a BookSim configuration file (key = value;).
  std::string text() const;
};

// A number as BookSim's parser takes a float ("%.17g", always with a point
// or an exponent: 1 is "1.0").
std::string booksim2_number(double v);

}  // namespace gemini::sim
