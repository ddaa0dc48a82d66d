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

}  // namespace gemini::ir::detail
