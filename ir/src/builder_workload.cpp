// Builder: one workload of a core (builder.h), member by member in the
// order its diagnostics come out.
#include <algorithm>
#include <array>

#include "builder.h"
#include "gemini/ir/op_table.h"

namespace gemini::ir::detail {

namespace json = boost::json;

namespace {
// The "workload" member: [[n,c,h,w], [n,c,h,w]].
std::optional<Box> workload_box(ReadContext& c, ObjReader& r) {
  const json::value* v = r.get("workload", Need::required, "[lower, upper] of 4 integers each");
  if (!v) return std::nullopt;
  if (!v->is_array() || v->get_array().size() != 2) {
    c.diags.report(v->is_array() ? Check::bad_rank : Check::wrong_type, r.ptr("workload"),
                   "expected [lower, upper] (two arrays of 4 integers), got " + kind_name(*v));
    return std::nullopt;
  }
  json::object tmp;
  tmp["lower"] = v->get_array()[0];
  tmp["upper"] = v->get_array()[1];
  // Re-read through the box helper so the checks (and messages) are the same;
  // pointers name /workload/0 and /workload/1.
  static constexpr std::string_view kKeys[] = {"lower", "upper"};
  ObjReader inner(c, tmp, c.paths.key(r.loc(), "workload"), kKeys);
  return inner.box("lower", "upper", false);
}

// A workload's layer_type: the full dialect's engines, then the public
// dialect's layer types of the op table (ir/op_table.h), each with the
// engine it runs on.
struct LayerTypeChoices {
  std::array<std::string_view, 3 + kOpTypeCount> names{};
  std::array<LayerKind, 3 + kOpTypeCount> kinds{};
  std::size_t size = 0;
};
const LayerTypeChoices& layer_type_choices() {
  static const LayerTypeChoices c = [] {
    LayerTypeChoices t;
    for (LayerKind k : {LayerKind::pe, LayerKind::vp, LayerKind::dt}) {
      t.names[t.size] = to_string(k);
      t.kinds[t.size++] = k;
    }
    for (std::string_view name : public_layer_types()) {  // at most one per op type
      t.names[t.size] = name;
      t.kinds[t.size++] = find_layer_type(name)->engine;
    }
    return t;
  }();
  return c;
}

// Extents of a box, sorted: a transpose keeps the multiset.
std::array<std::int64_t, 4> sorted_extents(const Box& b) {
  std::array<std::int64_t, 4> e{1, 1, 1, 1};
  for (int d = 0; d < b.rank; ++d) e[static_cast<std::size_t>(d)] = b.extent(d);
  std::sort(e.begin(), e.end());
  return e;
}
}  // namespace

// layer_type: the dialect's own word (pe/vp/dt, or the public conv2d, ...).
// Absent, w.kind stays as it is and nullopt comes back; false on a bad one.
bool Builder::workload_kind(ObjReader& r, Workload& w, std::optional<std::size_t>& kind) {
  if (!r.has("layer_type")) return true;
  const LayerTypeChoices& types = layer_type_choices();
  kind = r.choice("layer_type", Need::required, {types.names.data(), types.size});
  if (!kind) return false;
  w.kind = types.kinds[*kind];
  w.layer_type = r.raw("layer_type")->get_string().c_str();
  if (*kind < 3) {
    full_ev_.note(r.where("layer_type"), "layer_type \"pe\"/\"vp\"/\"dt\"");
  } else {
    set_ev_.note(r.where("layer_type"), "a public-dialect layer_type (conv2d, fc, ...)");
  }
  return true;
}

// ifmap: a list (full dialect) or a single object (public dialect).
bool Builder::workload_ifmaps(ObjReader& r, Loc loc, Workload& w) {
  const json::value* iv = r.get("ifmap", Need::required, "a list of ifmaps");
  if (!iv) return false;
  if (iv->is_object()) {
    set_ev_.note(r.where("ifmap"), "\"ifmap\" as a single object");
    auto f = ifmap(m_.paths.key(loc, "ifmap"), *iv);
    if (!f) return false;
    w.ifmap.push_back(std::move(*f));
    return true;
  }
  if (iv->is_array()) full_ev_.note(r.where("ifmap"), "\"ifmap\" as a list");
  return read_list(r, "ifmap", iv, "a list of ifmaps", w.ifmap,
                   [&](Loc at, const json::value& e) { return ifmap(at, e); })
      .ok();
}

// The snapshots and tiling of the full dialect: wl0_buffer,
// ring_buffer_info, tile_info (an entry that cannot be read is left out,
// reported).
void Builder::workload_snapshots(ObjReader& r, Loc loc, Workload& w,
                                 const std::optional<std::size_t>& kind) {
  if (const json::value* wv = r.get("wl0_buffer", full_only(), "the WL0 snapshot")) {
    std::vector<Wl0Entry> entries;
    if (read_list(r, "wl0_buffer", wv, "a WL0 snapshot", entries,
                  [&](Loc at, const json::value& e) { return wl0_entry(at, e); })
            .list)
      w.wl0_buffer = std::move(entries);
  }
  if (const json::value* rv =
          r.get("ring_buffer_info", full_only(), "a list of [begin, end] regions")) {
    w.ring_origin.loc = m_.paths.key(loc, "ring_buffer_info");
    std::vector<RingRegion> regions;
    if (read_list(r, "ring_buffer_info", rv, "a list of [begin, end] regions", regions,
                  [&](Loc at, const json::value& e) { return ring_region(at, e); })
            .list)
      w.ring_buffer_info = std::move(regions);
  }
  const Need tiles = kind && w.kind == LayerKind::pe ? full_only() : Need::optional;
  if (const json::value* tv = r.get("tile_info", tiles, "the intra-core tiling")) {
    const Loc tl = m_.paths.key(loc, "tile_info");
    if (const json::object* to = as_object(tl, *tv, "tile_info")) {
      w.tile_info.emplace();
      for (const auto& kv : *to) {
        const std::string_view k(kv.key().data(), kv.key().size());
        if (auto t = tile(m_.paths.key(tl, k), k, kv.value()))
          w.tile_info->push_back(std::move(*t));
      }
    }
  }
}

// A missing layer_type (the public scheduler writes none for transposes,
// quirk Q4) is taken as "dt": a data movement. finish() reports it once per
// file, counting the workloads whose shapes do not say "transpose". False
// where the dialect requires it.
bool Builder::workload_without_kind(ObjReader& r, Workload& w, const std::optional<Box>& box) {
  if (r.has("layer_type")) return true;
  if (full_only() == Need::required) {
    r.get("layer_type", Need::required, "\"pe\", \"vp\" or \"dt\"");
    return false;
  }
  w.kind = LayerKind::dt;
  no_layer_type_.add([&] { return r.ptr("layer_type"); });
  no_layer_type_at_.push_back(m_.pointer(w.origin));
  const bool permutation = box && w.ifmap.size() == 1 && !w.weight &&
                           sorted_extents(w.ifmap[0].box) == sorted_extents(*box);
  if (!permutation) no_layer_type_not_permutation_.add([&] { return r.ptr("layer_type"); });
  return true;
}

void Builder::workload(std::string_view core_key, Loc loc, const json::value& v) {
  const json::object* o = as_object(loc, v, "a workload");
  if (!o) return;
  static constexpr std::string_view kKeys[] = {
      "buffer",           "ifmap",       "layer_name",        "layer_type", "ofmap",  "ofmap_size",
      "ring_buffer_info", "tile_info",   "tile_padding_tblr", "time",       "weight", "wl0_buffer",
      "workload",         "workload_id", "source_layer_type"};
  ObjReader r(ctx_, *o, loc, kKeys);
  Workload w;
  w.origin.loc = loc;
  auto id = r.i32("workload_id", Need::required);
  auto name = r.string("layer_name", Need::required);
  auto time = r.i64("time", Need::required);
  auto osize = r.i64("ofmap_size", Need::required);
  auto box = workload_box(ctx_, r);
  w.tile_padding_tblr = r.tuple<4>("tile_padding_tblr", Need::optional);
  bool ok = id && name && time && osize && box;
  std::optional<std::size_t> kind;
  ok = workload_kind(r, w, kind) && ok;
  ok = workload_ifmaps(r, loc, w) && ok;
  ok = read_list(r, "ofmap", r.get("ofmap", Need::required, "a list of ofmaps"), "a list of ofmaps",
                 w.ofmap, [&](Loc at, const json::value& e) { return ofmap(at, e); })
           .ok() &&
       ok;
  // An entry that cannot be read is left out of the snapshot (reported).
  read_list(r, "buffer", r.get("buffer", Need::required, "a list of tensors"),
            "an L2 buffer snapshot", w.buffer,
            [&](Loc at, const json::value& e) { return buffer_entry(at, e); });
  workload_snapshots(r, loc, w, kind);
  if (const json::value* wv = r.get("weight", Need::optional, "a weight")) {
    if (auto wt = weight(m_.paths.key(loc, "weight"), *wv))
      w.weight = std::move(*wt);
    else
      ok = false;
  }
  ok = workload_without_kind(r, w, box) && ok;
  // Extension written by gemini's own writer: the public dialect's string.
  if (auto src = r.string("source_layer_type", Need::optional)) w.layer_type = std::move(*src);

  if (!ok) return;
  w.workload_id = *id;
  w.layer_name = std::move(*name);
  w.time = *time;
  w.ofmap_size = *osize;
  w.workload = *box;
  auto it = core_by_key_.find(core_key);
  if (it == core_by_key_.end()) return;  // cannot happen: core_list() came first
  m_.cores[it->second].workloads.push_back(std::move(w));
}

}  // namespace gemini::ir::detail
