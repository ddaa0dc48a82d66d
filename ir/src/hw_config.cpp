#include "gemini/ir/hw_config.h"

#include <algorithm>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "gemini/ir/json_document.h"
#include "gemini/ir/json_reader.h"
#include "value_reader.h"

namespace gemini::ir {
namespace json = boost::json;
namespace {

// Reads the parameters of one component; reports unknown keys on finish().
class ComponentReader {
 public:
  ComponentReader(const json::object* o, std::string component, std::string origin,
                  std::vector<std::string>& errors)
      : o_(o), component_(std::move(component)), origin_(std::move(origin)), errors_(errors) {}

  // Every value through the one JSON reader (json_reader.h); its messages
  // go out as this component's parameter `key` (the pointer it is given).
  template <typename T>
  void integer(const char* key, T& field, std::int64_t lo, std::int64_t hi) {
    if (const json::value* v = value(key))
      if (auto x = json_.integer(*v, key, lo, hi)) field = static_cast<T>(*x);
  }
  // A number in [lo, hi].
  void number(const char* key, double& field, double lo, double hi) {
    if (const json::value* v = value(key))
      if (auto x = json_.number(*v, key, lo, hi)) field = *x;
  }
  void boolean(const char* key, bool& field) {
    if (const json::value* v = value(key))
      if (auto x = json_.boolean(*v, key)) field = *x;
  }
  void regions(const char* key, std::vector<RingRegion>& field) {
    known_.push_back(key);
    const json::value* v = o_ ? o_->if_contains(key) : nullptr;
    const json::array* a = json_.array(v, key, "a list of [begin, end] regions");
    if (!a) return;
    field.clear();
    for (const json::value& e : *a) {
      if (!e.is_array() || e.get_array().size() != 2 || !e.get_array()[0].is_int64() ||
          !e.get_array()[1].is_int64() || e.get_array()[0].get_int64() < 0 ||
          e.get_array()[1].get_int64() <= e.get_array()[0].get_int64()) {
        fail(key, "expected regions [begin, end] with 0 <= begin < end, got " + json::serialize(e));
        return;
      }
      field.push_back({e.get_array()[0].get_int64(), e.get_array()[1].get_int64()});
    }
  }
  void finish() {
    if (!o_) return;
    for (const auto& kv : *o_) {
      const std::string k(kv.key());
      bool known = false;
      for (const char* n : known_) known = known || k == n;
      if (!known) {
        std::string list;
        for (const char* n : known_) list += std::string(list.empty() ? "" : ", ") + n;
        fail(k.c_str(),
             "unknown parameter of component \"" + component_ + "\" (known: " + list + ")");
      }
    }
  }

 private:
  const json::value* value(const char* key) {
    known_.push_back(key);
    return o_ ? o_->if_contains(key) : nullptr;
  }
  void fail(const char* key, const std::string& what) {
    errors_.push_back(origin_ + ":/" + component_ + "/" + key + ": parameter \"" + key +
                      "\" of component \"" + component_ + "\": " + what);
  }
  const json::object* o_;
  std::string component_, origin_;
  std::vector<std::string>& errors_;
  std::vector<const char*> known_;
  JsonReader json_{[this](const std::string& key, const std::string& m) { fail(key.c_str(), m); }};
};

// Ring regions: inside L2, in order without overlapping, each at least
// alignment_bytes long and on alignment_bytes boundaries (the allocator
// places tensors at multiples of it).
void ring_regions_ok(const L2Config& l2, const std::string& origin,
                     std::vector<std::string>& errors) {
  const std::string at = origin + ":/l2/ring_regions";
  const std::int64_t a = l2.alignment_bytes;
  for (std::size_t i = 0; i < l2.ring_regions.size(); ++i) {
    const RingRegion& reg = l2.ring_regions[i];
    const std::string where = at + "/" + std::to_string(i) + ": region [" +
                              std::to_string(reg.begin) + ", " + std::to_string(reg.end) + ") ";
    if (reg.end > l2.size_bytes) {
      errors.push_back(where + "runs past size_bytes " + std::to_string(l2.size_bytes));
    } else if (reg.end - reg.begin < a || reg.begin % a != 0 || reg.end % a != 0) {
      errors.push_back(where + "is not a whole number of alignment_bytes (" + std::to_string(a) +
                       ") blocks, at least one long");
    } else if (i > 0 && reg.begin < l2.ring_regions[i - 1].end) {
      errors.push_back(where + "overlaps or precedes region " + std::to_string(i - 1) + " [" +
                       std::to_string(l2.ring_regions[i - 1].begin) + ", " +
                       std::to_string(l2.ring_regions[i - 1].end) +
                       ") (regions are listed in address order)");
    }
  }
}

}  // namespace

std::vector<RingRegion> HardwareConfig::regions_for(std::int64_t buffersize) const {
  if (!l2.ring_regions.empty()) return l2.ring_regions;
  return {RingRegion{0, buffersize}};
}

namespace {

// A component by name: its object, nullptr when absent (or not an object,
// which is an error).
const json::object* component_of(const json::object& o, const char* name, const std::string& origin,
                                 std::vector<std::string>& errors) {
  const json::value* v = o.if_contains(name);
  if (!v) return nullptr;
  if (!v->is_object()) {
    errors.push_back(origin + ":/" + name + ": component \"" + name +
                     "\" must be an object of parameters");
    return nullptr;
  }
  return &v->get_object();
}

// The top level: known components only; name and description.
void read_top(const json::object& o, const std::string& origin, HardwareConfig& hw,
              std::vector<std::string>& errors) {
  static const char* const kComponents[] = {"name", "description", "mesh",     "clock",  "l2",
                                            "wl0",  "pe",          "vp",       "core",   "noc",
                                            "dram", "energy",      "chiplets", "silicon"};
  for (const auto& kv : o) {
    const std::string k(kv.key());
    if (std::find(std::begin(kComponents), std::end(kComponents), k) == std::end(kComponents))
      errors.push_back(origin + ":/" + k + ": unknown component \"" + k +
                       "\" (known: name, description, mesh, clock, l2, wl0, pe, vp, core, noc, "
                       "dram, energy, chiplets, silicon)");
  }
  const std::pair<const char*, std::string*> strings[] = {{"name", &hw.name},
                                                          {"description", &hw.description}};
  for (const auto& [key, field] : strings) {
    const json::value* v = o.if_contains(key);
    if (!v) continue;
    if (v->is_string())
      *field = std::string(v->get_string());
    else
      errors.push_back(origin + ":/" + key + ": expected a string");
  }
}

// mesh, clock, l2 and wl0: the sizes ir and the lowering use (and the
// simulator's L2 timing).
void read_memories(const json::object& o, const std::string& origin, HardwareConfig& hw,
                   std::vector<std::string>& errors) {
  {
    ComponentReader r(component_of(o, "mesh", origin, errors), "mesh", origin, errors);
    r.integer("xlen", hw.mesh.xlen, 0, 4096);
    r.integer("ylen", hw.mesh.ylen, 0, 4096);
    r.finish();
  }
  {
    ComponentReader r(component_of(o, "clock", origin, errors), "clock", origin, errors);
    r.number("frequency_mhz", hw.clock.frequency_mhz, 1e-3, 1e6);
    r.finish();
  }
  {
    ComponentReader r(component_of(o, "l2", origin, errors), "l2", origin, errors);
    r.integer("size_bytes", hw.l2.size_bytes, 1, kMaxMemoryBytes);
    r.regions("ring_regions", hw.l2.ring_regions);
    r.integer("align_channels", hw.l2.align_channels, 1, 4096);
    r.integer("bitwidth", hw.l2.bitwidth, 1, 64);
    r.integer("bn_bytes_per_channel", hw.l2.bn_bytes_per_channel, 0, 4096);
    r.integer("alignment_bytes", hw.l2.alignment_bytes, 1, 1 << 20);
    r.integer("banks", hw.l2.banks, 1, 1024);
    r.integer("bank_bytes", hw.l2.bank_bytes, 1, 4096);
    r.integer("port_bytes", hw.l2.port_bytes, 1, 1 << 16);
    r.integer("latency_cycles", hw.l2.latency_cycles, 0, 1 << 16);
    r.boolean("noc_writes_share_ports", hw.l2.noc_writes_share_ports);
    r.finish();
  }
  {
    ComponentReader r(component_of(o, "wl0", origin, errors), "wl0", origin, errors);
    r.integer("size_bytes", hw.wl0.size_bytes, 1, kMaxMemoryBytes);
    r.integer("bytes_per_cycle", hw.wl0.bytes_per_cycle, 1, 1 << 16);
    r.finish();
  }
}

// pe, vp and core.
void read_engines(const json::object& o, const std::string& origin, HardwareConfig& hw,
                  std::vector<std::string>& errors) {
  {
    ComponentReader r(component_of(o, "pe", origin, errors), "pe", origin, errors);
    r.integer("rows", hw.pe.rows, 1, 4096);
    r.integer("cols", hw.pe.cols, 1, 4096);
    r.integer("lanes", hw.pe.lanes, 1, 4096);
    r.integer("pipeline_cycles", hw.pe.pipeline_cycles, 0, 1 << 20);
    r.integer("cfg_cycles", hw.pe.cfg_cycles, 0, 1 << 20);
    r.finish();
  }
  {
    ComponentReader r(component_of(o, "vp", origin, errors), "vp", origin, errors);
    r.integer("lanes", hw.vp.lanes, 1, 1 << 16);
    r.integer("pipeline_cycles", hw.vp.pipeline_cycles, 0, 1 << 20);
    r.finish();
  }
  {
    ComponentReader r(component_of(o, "core", origin, errors), "core", origin, errors);
    r.integer("dispatch_per_cycle", hw.core.dispatch_per_cycle, 1, 64);
    r.integer("dma_in_flight", hw.core.dma_in_flight, 1, 64);
    r.integer("noc_in_flight", hw.core.noc_in_flight, 1, 64);
    r.finish();
  }
}

// A simulator's component kept as written, where it is (no unknown-key
// check here: the simulator declares its parameters).
void keep_raw(const json::object* c, const char* name, const std::string& origin,
              RawComponent& raw) {
  raw.json = c ? *c : json::object{};
  raw.origin = origin;
  raw.pointer = std::string("/") + name;
}

// noc and dram: the lowering's `multicast`; the rest is kept raw for the
// simulator's models.
void read_raw(const json::object& o, const char* name, const std::string& origin, bool& multicast,
              RawComponent& raw, std::vector<std::string>& errors) {
  const json::object* c = component_of(o, name, origin, errors);
  ComponentReader r(c, name, origin, errors);
  for (const LoweringParam& p : kLoweringParams)
    if (std::string_view(p.component) == name && std::string_view(p.name) == "multicast") {
      multicast = p.fallback;
      r.boolean(p.name, multicast);
    }
  keep_raw(c, name, origin, raw);
}

}  // namespace

std::optional<HardwareConfig> parse_hw_config(const std::string& text, const std::string& origin,
                                              std::vector<std::string>& errors) {
  JsonDocument doc = parse_json_document(text);
  if (!doc.value) {
    errors.push_back(origin + ":" + std::to_string(doc.line) + ":" + std::to_string(doc.column) +
                     ": not valid JSON: " + doc.error);
    return std::nullopt;
  }
  for (const std::string& at : doc.duplicate_keys)
    errors.push_back(origin + ":" + at +
                     ": this key repeats in its object (JSON leaves which one counts undefined)");
  if (!doc.duplicate_keys.empty()) return std::nullopt;
  const json::value& root = *doc.value;
  if (!root.is_object()) {
    errors.push_back(origin + ": expected a JSON object of components");
    return std::nullopt;
  }
  const std::size_t before = errors.size();
  HardwareConfig hw;
  const json::object& o = root.get_object();
  read_top(o, origin, hw, errors);
  read_memories(o, origin, hw, errors);
  read_engines(o, origin, hw, errors);
  read_raw(o, "noc", origin, hw.noc.multicast, hw.noc.raw, errors);
  read_raw(o, "dram", origin, hw.dram.multicast, hw.dram.raw, errors);
  keep_raw(component_of(o, "energy", origin, errors), "energy", origin, hw.energy);
  keep_raw(component_of(o, "chiplets", origin, errors), "chiplets", origin, hw.chiplets);
  keep_raw(component_of(o, "silicon", origin, errors), "silicon", origin, hw.silicon);
  ring_regions_ok(hw.l2, origin, errors);
  if (errors.size() != before) return std::nullopt;
  return hw;
}

std::optional<HardwareConfig> load_hw_config(const std::string& path,
                                             std::vector<std::string>& errors) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    errors.push_back(path + ": cannot open the hardware configuration");
    return std::nullopt;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_hw_config(ss.str(), path, errors);
}

}  // namespace gemini::ir
