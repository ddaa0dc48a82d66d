#pragma once
// BookSim 2's configuration for a gemini NoC (noc.model "booksim2",
// docs/timing-model.md, "NoC: booksim2"): the one function that maps the
// `noc` section's values and the layout onto BookSim's keys, so that the
// network the booksim2 model drives, the configuration `gemini noc
// --booksim-config` prints and the synthetic-traffic harness's runs cannot
// drift apart. Plain C++; no BookSim types (it is available in a build
// without BookSim 2).
//
// The mapping (defaults reproduce the mesh model's configuration):
//   - topology "mesh", routing "dor" (dimension order: X, then Y, as the
//     mesh's XY), k = max(xlen + 2, ylen) when DRAM ports sit at the row
//     ends (x = -1 and x = xlen become BookSim columns 0 and xlen + 1), else
//     max(xlen, ylen); a router BookSim has beyond these carries nothing.
//   - clock: BookSim runs `clock_ratio` cycles per core cycle; a flit is the
//     bytes one link carries in one of them, link_gbps * period / ratio.
//   - router: BookSim's fastest input-queued pipeline (lookahead routing,
//     speculative VC and switch allocation of one cycle each, one cycle of
//     switch traversal) and its one-cycle channel take 3 cycles per hop;
//     routing_delay adds the rest, so that a hop takes router_cycles core
//     cycles: routing_delay = router_cycles * ratio - 3, the ratio the
//     smallest that makes it >= 0 (router_cycles 1: ratio 3; 2: ratio 2; 3
//     and more: ratio 1). Zero-load latency of a packet of L flits over h
//     hops, in BookSim cycles (the driver writing a flit before the network
//     reads its inputs, booksim2_network.h): (h + 1) * 3 + routing_delay *
//     (h + 1) + L = (h + 1) * router_cycles * ratio + L -- the mesh's
//     (h + 1) * router + ser(b) whenever b is a whole number of flits.
//     The other stages, the credit delay and the crossbar's speedups are
//     the `noc` section's too (st_prepare_delay, credit_delay,
//     input/output/internal_speedup; BookSim's 0, 0 and 1 by default); every
//     key gemini writes is listed in booksim2_keys.h's table, in order.
//   - buffers: vc_buf_size = buffer_packets packets of packet_bytes per VC,
//     or `deep_packets` packets when buffer_packets is 0 (the mesh's
//     unbounded buffers).
//   - the D2D links of a chiplet cut: their latency is their channels'
//     (1 + d2d_latency in BookSim cycles); BookSim's channels all carry one
//     flit per cycle, so a cut whose D2D rate differs from link_gbps is
//     refused, naming chiplets.d2d_gbps.

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gemini/sim/booksim2_params.h"
#include "gemini/sim/noc_model.h"

namespace gemini::sim {

// Maps `p` and `layout` onto BookSim: false with `error` naming the
// parameter when they cannot be (router_cycles 0; a cut with another D2D
// rate, or a D2D latency that is not a whole number of BookSim cycles).
bool booksim2_config(const Booksim2Params& p, const NocLayout& layout, Booksim2Setup& out,
                     std::string& error);

// The booksim2 model for `p` and `layout` as they are, without the checks
// of the `noc` section's reader (noc.booksim's table, booksim2_keys.h):
// for tests that build what a configuration could not, and callers with
// checks of their own. nullptr with `error` when BookSim 2 rejects it or
// this build has no BookSim 2.
std::unique_ptr<NocModel> make_booksim2_noc(const Booksim2Params& p, const NocLayout& layout,
                                            std::string& error);

// Whether this build has BookSim 2 (cmake/booksim2.cmake); when not, `why`
// says why (e.g. "configured with -DGEMINI_BOOKSIM2=OFF").
bool booksim2_built(std::string* why = nullptr);

}  // namespace gemini::sim
