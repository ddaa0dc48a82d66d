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

// Ring regions: inside L2, in order without overlapping, each at least
// alignment_bytes long and on alignment_bytes boundaries (the allocator
// places tensors at multiples of it).
void ring_regions_ok(const L2Config& l2, const std::string& origin, ConfigErrors& errors) {
  const std::int64_t a = l2.alignment_bytes;
  for (std::size_t i = 0; i < l2.ring_regions.size(); ++i) {
    const RingRegion& reg = l2.ring_regions[i];
    const std::string at = "/l2/ring_regions/" + std::to_string(i);
    const std::string region =
        "region [" + std::to_string(reg.begin) + ", " + std::to_string(reg.end) + ") ";
    if (reg.end > l2.size_bytes) {
      config_error(errors, origin, at,
                   region + "runs past size_bytes " + std::to_string(l2.size_bytes));
    } else if (reg.end - reg.begin < a || reg.begin % a != 0 || reg.end % a != 0) {
      config_error(errors, origin, at,
                   region + "is not a whole number of alignment_bytes (" + std::to_string(a) +
                       ") blocks, at least one long");
    } else if (i > 0 && reg.begin < l2.ring_regions[i - 1].end) {
      config_error(errors, origin, at,
                   region + "overlaps or precedes region " + std::to_string(i - 1) + " [" +
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
                                 ConfigErrors& errors) {
  const json::value* v = o.if_contains(name);
  if (!v) return nullptr;
  if (!v->is_object()) {
    config_error(errors, origin, std::string("/") + name,
                 std::string("component \"") + name + "\" must be an object of parameters");
    return nullptr;
  }
  return &v->get_object();
}

// The top level: known components only; name and description.
void read_top(const json::object& o, const std::string& origin, HardwareConfig& hw,
              ConfigErrors& errors) {
  static const char* const kComponents[] = {"name", "description", "mesh",     "clock",  "l2",
                                            "wl0",  "pe",          "vp",       "core",   "noc",
                                            "dram", "energy",      "chiplets", "silicon"};
  for (const auto& kv : o) {
    const std::string k(kv.key());
    if (std::find(std::begin(kComponents), std::end(kComponents), k) == std::end(kComponents))
      config_error(errors, origin, "/" + json_pointer_token(k),
                   "unknown component \"" + k +
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
      config_error(errors, origin, std::string("/") + key, "expected a string");
  }
}

// ir's own components, each declared and read through the one reader
// (params.h) with its unit and description; a key nothing declared is an
// error (finish()). The same functions list them (hw_config_params()).
template <typename T>
void field(ParamReader& r, const char* key, T& f, T lo, T hi, Unit unit, const char* what) {
  f = r.param<T>(key).unit(unit).range(lo, hi).fallback(f).describe(what).get();
}

void read_mesh(ParamReader& r, HardwareConfig& hw) {
  field(r, "xlen", hw.mesh.xlen, 0, 4096, Unit::cores,
        "mesh width; 0 takes it from the IR, any other value must be the IR's");
  field(r, "ylen", hw.mesh.ylen, 0, 4096, Unit::cores,
        "mesh height; 0 takes it from the IR, any other value must be the IR's");
}

void read_clock(ParamReader& r, HardwareConfig& hw) {
  field(r, "frequency_mhz", hw.clock.frequency_mhz, 1e-3, 1e6, Unit::megahertz,
        "core clock; converts cycles to time");
}

void read_ring_regions(ParamReader& r, L2Config& l2) {
  const json::array* a = r.list("ring_regions",
                                "ring-buffer regions [begin, end) in address order (none: one "
                                "region over all of L2)",
                                "a list of [begin, end] regions");
  if (!a) return;
  l2.ring_regions.clear();
  for (const json::value& e : *a) {
    const json::array* pair = e.if_array();
    if (!pair || pair->size() != 2 || !(*pair)[0].is_int64() || !(*pair)[1].is_int64() ||
        (*pair)[0].get_int64() < 0 || (*pair)[1].get_int64() <= (*pair)[0].get_int64()) {
      r.fail("ring_regions",
             "expected regions [begin, end] with 0 <= begin < end, got " + json::serialize(e));
      return;
    }
    l2.ring_regions.push_back({(*pair)[0].get_int64(), (*pair)[1].get_int64()});
  }
}

void read_l2(ParamReader& r, HardwareConfig& hw) {
  L2Config& l2 = hw.l2;
  field(r, "size_bytes", l2.size_bytes, std::int64_t{1}, kMaxMemoryBytes, Unit::bytes,
        "L2 buffer per core; used when the IR has no buffersize");
  read_ring_regions(r, l2);
  field(r, "align_channels", l2.align_channels, 1, 4096, Unit::channels,
        "channel alignment of fmap tensors when the IR gives no align");
  field(r, "bitwidth", l2.bitwidth, 1, 64, Unit::bits,
        "element width when the IR gives no bitwidth");
  field(r, "bn_bytes_per_channel", l2.bn_bytes_per_channel, 0, 4096, Unit::bytes,
        "BatchNorm bytes a weight tensor may carry per output channel (check G004)");
  field(r, "alignment_bytes", l2.alignment_bytes, 1, 1 << 20, Unit::bytes,
        "the allocator places tensors at multiples of it; ring regions are whole blocks of it");
  field(r, "banks", l2.banks, 1, 1024, Unit::banks, "SRAM banks (bank conflicts between engines)");
  field(r, "bank_bytes", l2.bank_bytes, 1, 4096, Unit::bytes_per_cycle, "width of one bank");
  field(r, "port_bytes", l2.port_bytes, 1, 1 << 16, Unit::bytes_per_cycle, "one engine's L2 port");
  field(r, "latency_cycles", l2.latency_cycles, 0, 1 << 16, Unit::cycles,
        "from the last byte of a DMA to its use");
  l2.noc_writes_share_ports =
      r.param<bool>("noc_writes_share_ports")
          .fallback(l2.noc_writes_share_ports)
          .describe("data arriving from the NoC is written through an L2 port (one more stream)")
          .get();
}

void read_wl0(ParamReader& r, HardwareConfig& hw) {
  field(r, "size_bytes", hw.wl0.size_bytes, std::int64_t{1}, kMaxMemoryBytes, Unit::bytes,
        "WL0 weight buffer per core (check B006)");
  field(r, "bytes_per_cycle", hw.wl0.bytes_per_cycle, 1, 1 << 16, Unit::bytes_per_cycle,
        "WL0 fill and weight streaming into the PE array");
}

void read_pe(ParamReader& r, HardwareConfig& hw) {
  field(r, "rows", hw.pe.rows, 1, 4096, Unit::channels, "output channels per cycle");
  field(r, "cols", hw.pe.cols, 1, 4096, Unit::pixels, "output pixels per cycle");
  field(r, "lanes", hw.pe.lanes, 1, 4096, Unit::channels, "input channels per cycle");
  field(r, "pipeline_cycles", hw.pe.pipeline_cycles, 0, 1 << 20, Unit::cycles,
        "fill and drain of one pe_run");
  field(r, "cfg_cycles", hw.pe.cfg_cycles, 0, 1 << 20, Unit::cycles, "one pe_cfg");
}

void read_vp(ParamReader& r, HardwareConfig& hw) {
  field(r, "lanes", hw.vp.lanes, 1, 1 << 16, Unit::elements_per_cycle, "vector elements per cycle");
  field(r, "pipeline_cycles", hw.vp.pipeline_cycles, 0, 1 << 20, Unit::cycles, "per vp_run");
}

void read_core(ParamReader& r, HardwareConfig& hw) {
  field(r, "dispatch_per_cycle", hw.core.dispatch_per_cycle, 1, 64, Unit::instructions_per_cycle,
        "instructions dispatched into the engine queues per cycle");
  field(r, "dma_in_flight", hw.core.dma_in_flight, 1, 64, Unit::transfers,
        "transfers each DMA engine keeps in flight (retired in program order)");
  field(r, "noc_in_flight", hw.core.noc_in_flight, 1, 64, Unit::sends,
        "sends the noc engine keeps in flight (retired in program order)");
}

struct OwnComponent {
  const char* name;
  void (*read)(ParamReader&, HardwareConfig&);
};
constexpr OwnComponent kOwnComponents[] = {{"mesh", read_mesh}, {"clock", read_clock},
                                           {"l2", read_l2},     {"wl0", read_wl0},
                                           {"pe", read_pe},     {"vp", read_vp},
                                           {"core", read_core}};

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
              RawComponent& raw, ConfigErrors& errors) {
  const json::object* c = component_of(o, name, origin, errors);
  ParamReader r(c, origin, name, errors);
  for (const LoweringParam& p : kLoweringParams)
    if (std::string_view(p.component) == name && std::string_view(p.name) == "multicast")
      multicast = r.param<bool>(p.name).fallback(p.fallback).describe(p.description).get();
  keep_raw(c, name, origin, raw);
}

}  // namespace

std::optional<HardwareConfig> parse_hw_config(const std::string& text, const std::string& origin,
                                              ConfigErrors& errors) {
  JsonDocument doc = parse_json_document(text);
  if (!doc.value) {
    Diagnostic d;
    d.check = Check::hw_config;
    d.file = origin;
    d.line = doc.line;
    d.column = doc.column;
    d.message = "not valid JSON: " + doc.error;
    errors.push_back(std::move(d));
    return std::nullopt;
  }
  for (const std::string& at : doc.duplicate_keys)
    config_error(errors, origin, at,
                 "this key repeats in its object (JSON leaves which one counts undefined)");
  if (!doc.duplicate_keys.empty()) return std::nullopt;
  const json::value& root = *doc.value;
  if (!root.is_object()) {
    config_error(errors, origin, "", "expected a JSON object of components");
    return std::nullopt;
  }
  const std::size_t before = errors.size();
  HardwareConfig hw;
  const json::object& o = root.get_object();
  read_top(o, origin, hw, errors);
  for (const OwnComponent& c : kOwnComponents) {
    ParamReader r(component_of(o, c.name, origin, errors), origin, c.name, errors);
    c.read(r, hw);
    r.finish();
  }
  read_raw(o, "noc", origin, hw.noc.multicast, hw.noc.raw, errors);
  read_raw(o, "dram", origin, hw.dram.multicast, hw.dram.raw, errors);
  keep_raw(component_of(o, "energy", origin, errors), "energy", origin, hw.energy);
  keep_raw(component_of(o, "chiplets", origin, errors), "chiplets", origin, hw.chiplets);
  keep_raw(component_of(o, "silicon", origin, errors), "silicon", origin, hw.silicon);
  ring_regions_ok(hw.l2, origin, errors);
  if (errors.size() != before) return std::nullopt;
  return hw;
}

std::vector<std::pair<std::string, std::vector<ParamInfo>>> hw_config_params() {
  std::vector<std::pair<std::string, std::vector<ParamInfo>>> out;
  ParamInfo name, description;
  name.name = "name";
  name.type = description.type = "string";
  name.fallback = "\"default\"";
  name.description = "shown in reports";
  description.name = "description";
  description.fallback = "\"\"";
  description.description = "free text";
  out.push_back({"", {name, description}});
  for (const OwnComponent& c : kOwnComponents) {
    ParamReader r(c.name);
    HardwareConfig hw;
    c.read(r, hw);
    out.push_back({c.name, r.declared()});
  }
  return out;
}

std::optional<HardwareConfig> load_hw_config(const std::string& path, ConfigErrors& errors) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    config_error(errors, path, "", "cannot open the hardware configuration");
    return std::nullopt;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_hw_config(ss.str(), path, errors);
}

}  // namespace gemini::ir
