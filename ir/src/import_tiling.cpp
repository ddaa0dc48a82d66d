#include "import_tiling.h"

#include <algorithm>
#include <cmath>

namespace gemini::ir::detail {
namespace {
std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return b <= 0 ? a : (a + b - 1) / b; }
}  // namespace

std::map<std::string, LayerGeometry> layer_geometry(
    const Model& m, const std::map<Loc, std::int64_t>& weight_bytes) {
  struct Acc {
    std::int64_t out_h = 0, out_w = 0, in_h = 0, in_w = 0, in_c = 0;
    std::int64_t k = 0, bytes = 0;  // one workload's weight: K range and bytes
    bool ok = true;
  };
  std::map<std::string, Acc> acc;
  for (const Core& c : m.cores) {
    for (const Workload& w : c.workloads) {
      if (w.kind != LayerKind::pe || w.workload.rank != 4) continue;
      Acc& a = acc[w.layer_name];
      a.out_h = std::max<std::int64_t>(a.out_h, w.workload.hi[2] + 1);
      a.out_w = std::max<std::int64_t>(a.out_w, w.workload.hi[3] + 1);
      for (const Ifmap& f : w.ifmap) {
        if (f.box.rank != 4) {
          a.ok = false;
          continue;
        }
        a.in_h = std::max<std::int64_t>(a.in_h, f.box.hi[2] + 1);
        a.in_w = std::max<std::int64_t>(a.in_w, f.box.hi[3] + 1);
        a.in_c = std::max<std::int64_t>(a.in_c, f.box.hi[1] + 1);
      }
      auto wb = weight_bytes.find(w.origin.loc);
      if (w.weight && wb != weight_bytes.end() && a.bytes == 0) {
        a.k = w.weight->box.extent(weight_k_dim(w.weight->box));
        a.bytes = wb->second;
      }
    }
  }
  std::map<std::string, LayerGeometry> out;
  for (const auto& [name, a] : acc) {
    LayerGeometry g;
    g.in_h = a.in_h;
    g.in_w = a.in_w;
    g.in_c = static_cast<std::int32_t>(a.in_c);
    if (!a.ok || a.k <= 0 || a.in_c <= 0 || a.out_h <= 0 || a.out_w <= 0 || a.bytes % a.k != 0) {
      out[name] = g;
      continue;
    }
    const std::int64_t per_k = a.bytes / a.k;
    if (per_k % a.in_c != 0) {
      out[name] = g;
      continue;
    }
    const std::int64_t rs = per_k / a.in_c;
    const auto r = static_cast<std::int64_t>(std::llround(std::sqrt(static_cast<double>(rs))));
    if (r * r != rs) {
      out[name] = g;
      continue;
    }
    g.r = g.s = static_cast<std::int32_t>(r);
    g.stride_h = static_cast<std::int32_t>(std::max<std::int64_t>(
        1, std::llround(static_cast<double>(a.in_h) / static_cast<double>(a.out_h))));
    g.stride_w = static_cast<std::int32_t>(std::max<std::int64_t>(
        1, std::llround(static_cast<double>(a.in_w) / static_cast<double>(a.out_w))));
    const std::int64_t pad_h = std::max<std::int64_t>(0, (a.out_h - 1) * g.stride_h + r - a.in_h);
    const std::int64_t pad_w = std::max<std::int64_t>(0, (a.out_w - 1) * g.stride_w + r - a.in_w);
    g.pad_top = static_cast<std::int32_t>(pad_h / 2);
    g.pad_left = static_cast<std::int32_t>(pad_w / 2);
    g.known = true;
    out[name] = g;
  }
  return out;
}

std::optional<std::array<std::int32_t, 4>> tile_padding(const Box& o, const LayerGeometry& g) {
  if (!g.known || o.rank != 4) return std::nullopt;
  // Input rows the tile reads: [o0*stride - pad_top, o1*stride - pad_top + r - 1].
  const std::int64_t top = std::int64_t{o.lo[2]} * g.stride_h - g.pad_top;
  const std::int64_t bottom = std::int64_t{o.hi[2]} * g.stride_h - g.pad_top + g.r - 1;
  const std::int64_t left = std::int64_t{o.lo[3]} * g.stride_w - g.pad_left;
  const std::int64_t right = std::int64_t{o.hi[3]} * g.stride_w - g.pad_left + g.s - 1;
  return std::array<std::int32_t, 4>{
      static_cast<std::int32_t>(std::max<std::int64_t>(0, -top)),
      static_cast<std::int32_t>(std::max<std::int64_t>(0, bottom - (g.in_h - 1))),
      static_cast<std::int32_t>(std::max<std::int64_t>(0, -left)),
      static_cast<std::int32_t>(std::max<std::int64_t>(0, right - (g.in_w - 1)))};
}

Tile make_tile(const Workload& w, const LayerGeometry& g, const PeConfig& pe) {
  Tile t;
  t.name = "tile_num_0";
  t.layer_name = w.layer_name;
  t.ofmap = w.workload;
  t.ifmap = w.ifmap.empty() ? w.workload : w.ifmap.front().box;
  const std::int64_t n = w.workload.extent(0), k = w.workload.extent(1);
  const std::int64_t h = w.workload.extent(2), wd = w.workload.extent(3);
  const std::int64_t c = t.ifmap.rank == 4 ? t.ifmap.extent(1) : 1;
  const std::int64_t ow = std::min<std::int64_t>(pe.cols, wd);
  t.loop_order = "KNHW";
  t.cut_mode = "KH";
  t.ci_cut_num = 1;
  t.mtc0_mtk0 = {static_cast<std::int32_t>(ceil_div(c, pe.lanes)),
                 static_cast<std::int32_t>(ceil_div(k, pe.rows))};
  t.out_mini_tile = {1, static_cast<std::int32_t>(std::min<std::int64_t>(pe.rows, k)), 1,
                     static_cast<std::int32_t>(ow)};
  t.act_mini_tile = {1, static_cast<std::int32_t>(std::min<std::int64_t>(pe.lanes, c)), g.r,
                     static_cast<std::int32_t>((ow - 1) * g.stride_w + g.s)};
  // One output mini tile per cycle per (C mini tile, kernel position).
  t.single_tile_time_pred = static_cast<double>(
      n * ceil_div(k, pe.rows) * h * ceil_div(wd, pe.cols) * ceil_div(c, pe.lanes) * g.r * g.s);
  t.tile_padding_tblr = tile_padding(w.workload, g);
  return t;
}

}  // namespace gemini::ir::detail
