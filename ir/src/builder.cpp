#include "builder.h"

#include <algorithm>
#include <charconv>

namespace gemini::ir::detail {

namespace {
// An element's width in bits: 1 to 64 (what anything computed from it
// assumes; files give 8).
std::optional<std::int32_t> bitwidth(ObjReader& r) {
  const auto v = r.integer("bitwidth", Need::optional, 1, 64);
  if (!v) return std::nullopt;
  return static_cast<std::int32_t>(*v);
}
}  // namespace
namespace json = boost::json;

Builder::Builder(Model& m, Diagnostics& d, std::optional<Dialect> forced)
    : m_(m), d_(d), ctx_{m.paths, d}, forced_(forced) {}

void Builder::duplicate_key(Loc where, std::string_view key) {
  d_.report(Check::duplicate_key, m_.paths.pointer(where),
            "key \"" + std::string(key) + "\" appears more than once in this object" +
                (where == kRootLoc ? "" : " or an object inside it") +
                "; which one is meant is unclear");
}

void Builder::dram_object(Loc /*loc*/) { saw_dram_ = true; }

void Builder::core_list(std::string_view key, Loc loc) {
  if (core_by_key_.count(key)) return;  // duplicate key: reported; later list merges
  core_by_key_.emplace(std::string(key), m_.cores.size());
  Core c;
  c.origin.loc = loc;
  m_.cores.push_back(std::move(c));
  core_keys_.emplace_back(key);
}

const json::object* Builder::as_object(Loc loc, const json::value& v, const char* what) {
  if (v.is_object()) return &v.get_object();
  d_.report(Check::wrong_type, m_.paths.pointer(loc),
            std::string("expected ") + what + " (an object), got " + kind_name(v));
  return nullptr;
}

const json::array* Builder::as_array(const Where& where, const json::value* v, const char* what) {
  if (!v) return nullptr;
  if (v->is_array()) return &v->get_array();
  d_.report(Check::wrong_type, where.str(),
            std::string("expected ") + what + " (an array), got " + kind_name(*v));
  return nullptr;
}

template <class T, class Read>
Builder::ListRead Builder::read_list(const ObjReader& r, std::string_view key, const json::value* v,
                                     const char* what, std::vector<T>& out, Read&& read) {
  ListRead got;
  const json::array* list = as_array(r.where(key), v, what);
  if (!list) return got;
  got.list = true;
  const Loc at = m_.paths.key(r.loc(), key);
  out.reserve(out.size() + list->size());
  for (std::size_t i = 0; i < list->size(); ++i) {
    if (auto x = read(m_.paths.index(at, static_cast<std::uint32_t>(i)), (*list)[i])) {
      out.push_back(std::move(*x));
    } else {
      got.all = false;
    }
  }
  return got;
}

Builder::ListRead Builder::destinations(ObjReader& r, std::vector<Endpoint>& out) {
  return read_list(
      r, "destination", r.get("destination", Need::required, "an array of destinations"),
      "a list of destinations", out, [&](Loc at, const json::value& e) { return endpoint(at, e); });
}

void Builder::element(Slot slot, std::string_view key, std::uint32_t index, Loc loc,
                      const json::value& v) {
  (void)index;
  switch (slot) {
    case Slot::root:
      d_.report(
          Check::top_not_object, "",
          "the IR must be a JSON object with keys \"-1\", core ids, \"xlen\", \"ylen\"...; got " +
              kind_name(v));
      return;
    case Slot::top_member:
      top_member(key, loc, v);
      return;
    case Slot::dram_member:
      d_.report(Check::unknown_key, m_.paths.pointer(loc),
                "unknown key \"" + std::string(key) +
                    "\" in \"-1\" ignored (expected \"in\" or \"out\")");
      if (key == "in" || key == "out")
        d_.report(Check::wrong_type, m_.paths.pointer(loc),
                  "expected an array of DRAM tensors, got " + kind_name(v));
      return;
    case Slot::dram_in:
      dram_in(loc, v);
      return;
    case Slot::dram_out:
      dram_out(loc, v);
      return;
    case Slot::workload:
      workload(key, loc, v);
      return;
  }
}

void Builder::top_member(std::string_view key, Loc loc, const json::value& v) {
  auto integer = [&](std::int64_t lo, std::int64_t hi) -> std::optional<std::int64_t> {
    std::int64_t out = 0;
    if (!read_int_element(ctx_, v, Where{&m_.paths, loc, {}}, lo, hi, out)) return std::nullopt;
    return out;
  };
  if (key == "xlen" || key == "ylen") {
    auto x = integer(0, INT32_MAX);
    (key == "xlen" ? saw_xlen_ : saw_ylen_) = true;
    if (x)
      (key == "xlen" ? m_.xlen : m_.ylen) = static_cast<std::int32_t>(*x);
    else
      (key == "xlen" ? m_.xlen : m_.ylen) = -1;
    return;
  }
  if (key == "buffersize") {
    saw_buffersize_ = true;
    if (auto x = integer(0, kMaxIrInteger)) m_.buffersize = *x;
    full_ev_.note(Where{&m_.paths, loc, {}}, "\"buffersize\"");
    return;
  }
  if (key == "top_batch_cut") {
    if (auto x = integer(0, kMaxIrInteger)) m_.top_batch_cut = *x;
    return;
  }
  if (key == "-1") {
    d_.report(Check::wrong_type, m_.paths.pointer(loc),
              "expected the DRAM object {\"in\": [...], \"out\": [...]}, got " + kind_name(v));
    return;
  }
  if (!key.empty() && (std::isdigit(static_cast<unsigned char>(key[0])) || key[0] == '-')) {
    d_.report(Check::wrong_type, m_.paths.pointer(loc),
              "expected core " + std::string(key) + "'s list of workloads, got " + kind_name(v));
    return;
  }
  d_.report(Check::unknown_key, m_.paths.pointer(loc),
            "unknown top-level key \"" + std::string(key) + "\" ignored");
}

std::optional<std::int32_t> Builder::core_ref(ObjReader& r) {
  if (r.has("core_id")) {
    full_ev_.note(r.where("core_id"), "\"core_id\" in a destination or source");
    return r.i32("core_id", Need::required, -1);
  }
  if (r.has("id")) {
    set_ev_.note(r.where("id"), "\"id\" in a destination or source");
    return r.i32("id", Need::required, 0);
  }
  r.get("core_id", Need::required, "an integer core id (\"id\" in the public dialect)");
  return std::nullopt;
}

std::optional<Endpoint> Builder::endpoint(Loc loc, const json::value& v) {
  const json::object* o = as_object(loc, v, "a destination");
  if (!o) return std::nullopt;
  static constexpr std::string_view kKeys[] = {"core_id", "id", "layer_name", "type",
                                               "workload_id"};
  ObjReader r(ctx_, *o, loc, kKeys);
  Endpoint e;
  e.origin.loc = loc;
  auto type = r.choice("type", Need::required, {"core", "DRAM"});
  auto core = core_ref(r);
  e.layer_name = r.string("layer_name", Need::optional);
  if (type) e.type = *type == 0 ? EndpointType::core : EndpointType::dram;
  e.workload_id = r.i32("workload_id", type && *type == 0 ? Need::required : Need::optional);
  if (!type || !core || (e.type == EndpointType::core && !e.workload_id)) return std::nullopt;
  e.core_id = *core;
  return e;
}

void Builder::dram_in(Loc loc, const json::value& v) {
  const json::object* o = as_object(loc, v, "a DRAM in tensor");
  if (!o) return;
  static constexpr std::string_view kKeys[] = {
      "core_id", "layer_name", "lower", "upper", "related_ofmap", "transfer_id", "workload_id"};
  ObjReader r(ctx_, *o, loc, kKeys);
  DramIn e;
  e.origin.loc = loc;
  auto core = r.i32("core_id", Need::required, 0);
  auto wl = r.i32("workload_id", Need::required);
  e.layer_name = r.string("layer_name", Need::optional);
  auto box = r.box("lower", "upper", false);
  auto tid = r.i64("transfer_id", Need::required);
  auto rel = r.id_list("related_ofmap", Need::optional, nullptr);
  if (!core || !wl || !box || !tid) return;
  e.core_id = *core;
  e.workload_id = *wl;
  e.box = *box;
  e.transfer_id = *tid;
  if (rel) e.related_ofmap = std::move(*rel);
  m_.dram_in.push_back(std::move(e));
}

void Builder::dram_out(Loc loc, const json::value& v) {
  const json::object* o = as_object(loc, v, "a DRAM out tensor");
  if (!o) return;
  static constexpr std::string_view kKeys[] = {"destination", "layer_name",    "lower",
                                               "upper",       "related_ifmap", "size",
                                               "transfer_id", "type"};
  ObjReader r(ctx_, *o, loc, kKeys);
  DramOut e;
  e.origin.loc = loc;
  auto type = r.choice("type", Need::required, {"fmap", "weight"});
  auto box = r.box("lower", "upper", true);
  auto size = r.i64("size", Need::required);
  auto tid = r.i64("transfer_id", Need::required);
  auto rel = r.id_list("related_ifmap", Need::optional, nullptr);
  e.layer_name = r.string("layer_name", Need::optional);
  // A destination that cannot be read is left out (reported).
  const bool ok = destinations(r, e.destination).list;
  if (!type || !box || !size || !tid || !ok) return;
  e.type = *type == 0 ? DataType::fmap : DataType::weight;
  e.box = *box;
  e.size = *size;
  e.transfer_id = *tid;
  if (rel) e.related_ifmap = std::move(*rel);
  m_.dram_out.push_back(std::move(e));
}

std::optional<Ofmap> Builder::ofmap(Loc loc, const json::value& v) {
  const json::object* o = as_object(loc, v, "an ofmap");
  if (!o) return std::nullopt;
  static constexpr std::string_view kKeys[] = {"destination", "lower",    "upper", "size",
                                               "transfer_id", "bitwidth", "align"};
  ObjReader r(ctx_, *o, loc, kKeys);
  Ofmap f;
  f.origin.loc = loc;
  auto box = r.box("lower", "upper", false);
  auto size = r.i64("size", Need::required);
  auto tid = r.i64("transfer_id", Need::required);
  f.bitwidth = bitwidth(r);
  // A destination that cannot be read is left out (reported).
  const bool ok = destinations(r, f.destination).list;
  if (!box || !size || !tid || !ok) return std::nullopt;
  f.box = *box;
  f.size = *size;
  f.transfer_id = *tid;
  return f;
}

std::optional<Ifmap> Builder::ifmap(Loc loc, const json::value& v) {
  const json::object* o = as_object(loc, v, "an ifmap");
  if (!o) return std::nullopt;
  static constexpr std::string_view kKeys[] = {"align", "bitwidth",    "lower",          "upper",
                                               "size",  "transfer_id", "max_workload_id"};
  ObjReader r(ctx_, *o, loc, kKeys);
  Ifmap f;
  f.origin.loc = loc;
  f.align = r.i32("align", Need::optional, 1);
  f.bitwidth = bitwidth(r);
  auto box = r.box("lower", "upper", false);
  f.size = r.i64("size", Need::optional);
  bool nested = false;
  // Absent in the public dialect where the scheduler recorded no source
  // (quirk Q1): finish() sources the box from DRAM and says so once.
  f.has_transfer_id = r.has("transfer_id");
  auto tids = r.id_list("transfer_id", full_only(), &nested);
  if (nested) d_.report(Check::nested_transfer_id, r.ptr("transfer_id"), "nested list flattened");
  f.max_workload_id = r.i32("max_workload_id", Need::optional);
  if (!box || (f.has_transfer_id && !tids)) return std::nullopt;
  if (!f.has_transfer_id && full_only() == Need::required) return std::nullopt;
  f.box = *box;
  if (tids) f.transfer_id = std::move(*tids);
  return f;
}

std::optional<Weight> Builder::weight(Loc loc, const json::value& v) {
  const json::object* o = as_object(loc, v, "a weight");
  if (!o) return std::nullopt;
  static constexpr std::string_view kKeys[] = {"align",      "bitwidth",       "lower",
                                               "upper",      "size",           "transfer_id",
                                               "from_ofmap", "max_workload_id"};
  ObjReader r(ctx_, *o, loc, kKeys);
  Weight w;
  w.origin.loc = loc;
  w.align = r.i32("align", Need::optional, 1);
  w.bitwidth = bitwidth(r);
  auto box = r.box("lower", "upper", true);
  w.size = r.i64("size", Need::optional);
  bool nested = false;
  auto tids = r.id_list("transfer_id", Need::optional, &nested);
  w.from_ofmap = r.boolean("from_ofmap", Need::optional);
  w.max_workload_id = r.i32("max_workload_id", Need::optional);
  if (!box) return std::nullopt;
  w.box = *box;
  if (tids) w.transfer_id = std::move(*tids);
  if (!r.has("transfer_id"))
    d_.report(Check::weight_without_transfer, m_.paths.pointer(loc),
              "weight has no transfer_id: no producer is recorded; it is taken to be resident "
              "in L2 already");
  return w;
}

std::optional<Source> Builder::source(Loc loc, const json::value& v) {
  const json::object* o = as_object(loc, v, "a buffer source");
  if (!o) return std::nullopt;
  static constexpr std::string_view kKeys[] = {
      "core_id", "id", "layer_name", "lower", "upper", "size", "transfer_id", "type", "channel"};
  ObjReader r(ctx_, *o, loc, kKeys);
  Source s;
  s.origin.loc = loc;
  auto type = r.choice("type", Need::required, {"core", "DRAM"});
  auto core = core_ref(r);
  s.layer_name = r.string("layer_name", Need::optional);
  auto box = r.box("lower", "upper", true);
  auto size = r.i64("size", Need::required);
  auto tid = r.i64("transfer_id", Need::required);
  s.channel = r.tuple<2>("channel", Need::optional);
  if (!type || !core || !box || !size || !tid) return std::nullopt;
  s.type = *type == 0 ? EndpointType::core : EndpointType::dram;
  s.core_id = *core;
  s.box = *box;
  s.size = *size;
  s.transfer_id = *tid;
  return s;
}

std::optional<BufferEntry> Builder::buffer_entry(Loc loc, const json::value& v) {
  const json::object* o = as_object(loc, v, "a buffer entry");
  if (!o) return std::nullopt;
  static constexpr std::string_view kKeys[] = {
      "address",      "align",       "bitwidth",     "layer_name",  "layer",  "lower",
      "upper",        "newly_added", "cur_wl_ifmap", "size",        "source", "tensor_id",
      "tensor_order", "transfer_id", "type",         "workload_id", "block"};
  ObjReader r(ctx_, *o, loc, kKeys);
  BufferEntry b;
  b.origin.loc = loc;
  auto type = r.choice("type", Need::required, {"ifmap", "ofmap", "weight"});
  if (type) b.type = static_cast<TensorType>(*type);
  std::optional<std::string> name;
  if (r.has("layer_name")) {
    name = r.string("layer_name", Need::required);
  } else if (r.has("layer")) {
    set_ev_.note(r.where("layer"), "\"layer\" in a buffer entry");
    name = r.string("layer", Need::required);
  } else {
    r.get("layer_name", Need::required, "the layer's name");
  }
  auto box = r.box("lower", "upper", true);
  if (r.has("address")) full_ev_.note(r.where("address"), "\"address\" in a buffer entry");
  const bool fmap_or_weight = type && *type != 1;
  b.address = r.i64("address", full_only());
  b.align = r.i32("align", Need::optional, 1);
  b.bitwidth = bitwidth(r);
  b.newly_added = r.boolean("newly_added", Need::optional);
  b.cur_wl_ifmap = r.boolean("cur_wl_ifmap", Need::optional);
  b.size = r.i64("size", full_only());
  b.tensor_id = r.i64("tensor_id", Need::optional);
  b.tensor_order = r.nullable_i64("tensor_order");
  b.workload_id = r.i32("workload_id", Need::optional);
  b.block = r.i64("block", Need::optional);
  bool nested = false;
  if (fmap_or_weight && !r.has("transfer_id"))
    r.get("transfer_id", full_only(), "the transfer ids");
  if (fmap_or_weight && !r.has("source")) r.get("source", full_only(), "the list of sources");
  if (r.has("transfer_id")) {
    b.has_transfer_id = true;
    if (auto t = r.id_list("transfer_id", Need::required, &nested)) b.transfer_id = std::move(*t);
  }
  if (nested) set_ev_.note(r.where("transfer_id"), "a nested transfer_id list");
  if (const json::value* src = r.raw("source")) {
    b.has_source = true;
    if (src->is_null()) {
      b.source_null = true;  // reported once per file by finish()
    } else {
      // A source that cannot be read is left out (reported).
      read_list(r, "source", src, "a list of sources", b.source,
                [&](Loc at, const json::value& e) { return source(at, e); });
    }
  }
  if (!type || !name || !box) return std::nullopt;
  b.layer_name = std::move(*name);
  b.box = *box;
  return b;
}

std::optional<Wl0Entry> Builder::wl0_entry(Loc loc, const json::value& v) {
  const json::object* o = as_object(loc, v, "a WL0 entry");
  if (!o) return std::nullopt;
  static constexpr std::string_view kKeys[] = {"address", "align",  "bitwidth",     "layer_name",
                                               "size",    "source", "tensor_order", "transfer_id"};
  ObjReader r(ctx_, *o, loc, kKeys);
  Wl0Entry e;
  e.origin.loc = loc;
  e.address = r.i64("address", Need::required);
  e.align = r.i32("align", Need::optional, 1);
  e.bitwidth = bitwidth(r);
  e.layer_name = r.string("layer_name", Need::optional);
  auto size = r.i64("size", Need::required);
  auto src = r.choice("source", Need::required, {"CORE", "DRAM"});
  e.tensor_order = r.nullable_i64("tensor_order");
  auto tids = r.id_list("transfer_id", Need::required, nullptr);
  if (!e.address || !size || !src || !tids) return std::nullopt;
  e.size = *size;
  e.source = *src == 0 ? Wl0Source::core : Wl0Source::dram;
  e.transfer_id = std::move(*tids);
  return e;
}

std::optional<RingRegion> Builder::ring_region(Loc loc, const json::value& v) {
  const Where where{&m_.paths, loc, {}};
  if (!v.is_array() || v.get_array().size() != 2) {
    d_.report(v.is_array() ? Check::bad_rank : Check::wrong_type, where.str(),
              "expected a region [begin, end], got " + kind_name(v));
    return std::nullopt;
  }
  std::int64_t b = 0, e = 0;
  bool ok = read_int_element(ctx_, v.get_array()[0], where.at(0), 0, INT64_MAX, b);
  ok = read_int_element(ctx_, v.get_array()[1], where.at(1), 0, INT64_MAX, e) && ok;
  if (!ok) return std::nullopt;
  return RingRegion{b, e};
}

std::optional<Tile> Builder::tile(Loc loc, std::string_view name, const json::value& v) {
  const json::object* o = as_object(loc, v, "an intra-core tile");
  if (!o) return std::nullopt;
  static constexpr std::string_view kKeys[] = {
      "act_mini_tile",    "ci_cut_num",  "cut_mode",      "ifmap_lower",
      "ifmap_upper",      "layer_name",  "loop_order",    "mtc0_mtk0",
      "ofmap_lower",      "ofmap_upper", "out_mini_tile", "single_tile_time_pred",
      "tile_padding_tblr"};
  ObjReader r(ctx_, *o, loc, kKeys);
  Tile t;
  t.origin.loc = loc;
  t.name = name;
  auto act = r.tuple<4>("act_mini_tile", Need::required);
  auto ci = r.i32("ci_cut_num", Need::required, 1);
  auto cut = r.string("cut_mode", Need::required);
  auto ib = r.box("ifmap_lower", "ifmap_upper", false);
  t.layer_name = r.string("layer_name", Need::optional);
  auto loop = r.string("loop_order", Need::required);
  auto mt = r.tuple<2>("mtc0_mtk0", Need::required);
  auto ob = r.box("ofmap_lower", "ofmap_upper", false);
  auto out = r.tuple<4>("out_mini_tile", Need::required);
  auto pred = r.number("single_tile_time_pred", Need::required);
  t.tile_padding_tblr = r.tuple<4>("tile_padding_tblr", Need::optional);
  if (!act || !ci || !cut || !ib || !loop || !mt || !ob || !out || !pred) return std::nullopt;
  if (*pred < 0) {
    d_.report(Check::negative_value, r.ptr("single_tile_time_pred"), "expected a time >= 0");
    return std::nullopt;
  }
  t.act_mini_tile = *act;
  t.ci_cut_num = *ci;
  t.cut_mode = std::move(*cut);
  t.ifmap = *ib;
  t.loop_order = std::move(*loop);
  t.mtc0_mtk0 = *mt;
  t.ofmap = *ob;
  t.out_mini_tile = *out;
  t.single_tile_time_pred = *pred;
  return t;
}

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

// Extents of a box, sorted: a transpose keeps the multiset.
std::array<std::int64_t, 4> sorted_extents(const Box& b) {
  std::array<std::int64_t, 4> e{1, 1, 1, 1};
  for (int d = 0; d < b.rank; ++d) e[static_cast<std::size_t>(d)] = b.extent(d);
  std::sort(e.begin(), e.end());
  return e;
}
}  // namespace

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
  if (r.has("layer_type")) {
    kind = r.choice("layer_type", Need::required,
                    {"pe", "vp", "dt", "conv2d", "fc", "pool", "element_wise", "point_to_point"});
    if (kind) {
      static constexpr LayerKind kMap[] = {LayerKind::pe, LayerKind::vp, LayerKind::dt,
                                           LayerKind::pe, LayerKind::pe, LayerKind::vp,
                                           LayerKind::vp, LayerKind::dt};
      w.kind = kMap[*kind];
      w.layer_type = r.raw("layer_type")->get_string().c_str();
      if (*kind < 3) {
        full_ev_.note(r.where("layer_type"), "layer_type \"pe\"/\"vp\"/\"dt\"");
      } else {
        set_ev_.note(r.where("layer_type"), "a public-dialect layer_type (conv2d, fc, ...)");
      }
    } else {
      ok = false;
    }
  }

  // ifmap: a list (full dialect) or a single object (public dialect).
  if (const json::value* iv = r.get("ifmap", Need::required, "a list of ifmaps")) {
    if (iv->is_object()) {
      set_ev_.note(r.where("ifmap"), "\"ifmap\" as a single object");
      if (auto f = ifmap(m_.paths.key(loc, "ifmap"), *iv))
        w.ifmap.push_back(std::move(*f));
      else
        ok = false;
    } else {
      if (iv->is_array()) full_ev_.note(r.where("ifmap"), "\"ifmap\" as a list");
      ok = read_list(r, "ifmap", iv, "a list of ifmaps", w.ifmap,
                     [&](Loc at, const json::value& e) { return ifmap(at, e); })
               .ok() &&
           ok;
    }
  } else {
    ok = false;
  }

  ok = read_list(r, "ofmap", r.get("ofmap", Need::required, "a list of ofmaps"), "a list of ofmaps",
                 w.ofmap, [&](Loc at, const json::value& e) { return ofmap(at, e); })
           .ok() &&
       ok;

  // An entry that cannot be read is left out of the snapshot (reported).
  read_list(r, "buffer", r.get("buffer", Need::required, "a list of tensors"),
            "an L2 buffer snapshot", w.buffer,
            [&](Loc at, const json::value& e) { return buffer_entry(at, e); });

  if (const json::value* wv = r.get("wl0_buffer", full_only(), "the WL0 snapshot")) {
    std::vector<Wl0Entry> entries;  // one that cannot be read is left out (reported)
    if (read_list(r, "wl0_buffer", wv, "a WL0 snapshot", entries,
                  [&](Loc at, const json::value& e) { return wl0_entry(at, e); })
            .list)
      w.wl0_buffer = std::move(entries);
  }

  if (const json::value* rv =
          r.get("ring_buffer_info", full_only(), "a list of [begin, end] regions")) {
    w.ring_origin.loc = m_.paths.key(loc, "ring_buffer_info");
    std::vector<RingRegion> regions;  // one that cannot be read is left out (reported)
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

  if (const json::value* wv = r.get("weight", Need::optional, "a weight")) {
    if (auto wt = weight(m_.paths.key(loc, "weight"), *wv))
      w.weight = std::move(*wt);
    else
      ok = false;
  }

  // A missing layer_type (the public scheduler writes none for transposes,
  // quirk Q4) is taken as "dt": a data movement. finish() reports it once
  // per file, counting the workloads whose shapes do not say "transpose".
  if (!r.has("layer_type") && full_only() == Need::required) {
    r.get("layer_type", Need::required, "\"pe\", \"vp\" or \"dt\"");
    ok = false;
  } else if (!r.has("layer_type")) {
    w.kind = LayerKind::dt;
    no_layer_type_.add([&] { return r.ptr("layer_type"); });
    no_layer_type_at_.push_back(m_.pointer(w.origin));
    const bool permutation = box && w.ifmap.size() == 1 && !w.weight &&
                             sorted_extents(w.ifmap[0].box) == sorted_extents(*box);
    if (!permutation) no_layer_type_not_permutation_.add([&] { return r.ptr("layer_type"); });
  }

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
