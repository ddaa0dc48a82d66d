// The "ramulator2" model's parameters (declared in read_ramulator2_config)
// and the Ramulator 2 configuration they make (docs/timing-model.md,
// "ramulator2"; Ramulator's YAML keys are its own).
//
// With a `preset` of banked's (the default: `standard` "preset"), the port is
// the same channel as banked's: Ramulator's model of that standard, with the
// organisation and every timing banked has (`timing` overrides them as it
// does banked's) set to banked's values, so that `dram.model` is the only
// difference: bank groups with tCCD_L, tWTR_S, tRRD_S/L, tFAW and tRTP are
// banked's too, and so are LPDDR5's two-step activate and CAS sync
// (act_commands, cas_sync: the standard's, refused otherwise) and its
// tRPab. What Ramulator's standard has and banked lacks (a read served from
// the write queue) keeps Ramulator's own, with its timing preset for that
// speed:
//
//   preset       Ramulator standard, org preset, timing preset
//   ddr4_3200    DDR4, DDR4_8Gb_x8, DDR4_3200AA
//   lpddr5_6400  LPDDR5, LPDDR5_8Gb_x16, LPDDR5_6400
//   hbm2         HBM2, HBM2_8Gb (one pseudo channel), HBM2_2Gbps
//
// One Ramulator access moves banked's `burst_bytes`: Ramulator moves
// prefetch x channel_width / 8 bytes per column command, so the channel
// width it is given is burst_bytes x 8 / prefetch (DDR4 64 bits; LPDDR5's
// 32-byte BL16 on x16 is 32 in Ramulator's 8n-prefetch terms; HBM2's 32-byte
// BL4 on a 64-bit pseudo channel is 128 in its 2n terms), and its columns per
// row make banked's `row_bytes`; rows fill the org preset's density.
//
// With `standard` named, the port is Ramulator's own presets
// (`org_preset`, `timing_preset`), ticked at their tCK.
#include <boost/json.hpp>
#include <string>
#include <vector>

#include "dram_ramulator2.h"
#include "gemini/sim/dram_timing.h"
#include "gemini/sim/params.h"

// Ramulator's headers carry yaml-cpp's.
#include <yaml-cpp/yaml.h>

namespace gemini::sim {
namespace {
namespace json = boost::json;

// One of banked's presets as Ramulator's standard.
struct Recipe {
  const char* preset;
  const char* standard;
  const char* org_preset;
  const char* timing_preset;
  int prefetch;          // Ramulator's internal prefetch for the standard
  int device_dq;         // the org preset's DQ
  int density_mb;        // the org preset's density
  bool rank_in_density;  // HBM2 counts its pseudo channels in the density
  const char* rank_level;
};

constexpr Recipe kRecipes[] = {
    {"ddr4_3200", "DDR4", "DDR4_8Gb_x8", "DDR4_3200AA", 8, 8, 8192, false, "rank"},
    {"lpddr5_6400", "LPDDR5", "LPDDR5_8Gb_x16", "LPDDR5_6400", 8, 16, 8192, false, "rank"},
    {"hbm2", "HBM2", "HBM2_8Gb", "HBM2_2Gbps", 2, 128, 8192, true, "pseudochannel"},
};

// A named standard's default presets (its own, at the speed closest to
// banked's presets) and the level `ranks` sets.
struct Standard {
  const char* name;
  const char* org_preset;
  const char* timing_preset;
  const char* rank_level;  // nullptr: none (ranks must be 1)
};

constexpr Standard kStandards[] = {
    {"DDR4", "DDR4_8Gb_x8", "DDR4_3200AA", "rank"},
    {"DDR5", "DDR5_16Gb_x8", "DDR5_3200AN", "rank"},
    {"LPDDR5", "LPDDR5_16Gb_x16", "LPDDR5_6400", "rank"},
    {"GDDR6", "GDDR6_8Gb_x16", "GDDR6_2000_1350mV_quad", nullptr},
    {"HBM2", "HBM2_8Gb", "HBM2_2Gbps", "pseudochannel"},
    {"HBM3", "HBM3_8Gb", "HBM3_2Gbps", "pseudochannel"},
};

const Recipe& recipe(const std::string& preset) {
  for (const Recipe& x : kRecipes)
    if (preset == x.preset) return x;
  return kRecipes[0];  // (presets are checked against dram_preset_names())
}

const Standard& standard(const std::string& name) {
  for (const Standard& s : kStandards)
    if (name == s.name) return s;
  return kStandards[0];
}

std::vector<std::string> standard_names() {
  std::vector<std::string> out{"preset"};
  for (const Standard& s : kStandards) out.emplace_back(s.name);
  return out;
}

bool pow2(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// `over`'s members replace `base`'s, objects merged member by member.
void merge(YAML::Node base, const json::value& over);

YAML::Node to_yaml(const json::value& v) {
  switch (v.kind()) {
    case json::kind::object: {
      YAML::Node n(YAML::NodeType::Map);
      merge(n, v);
      return n;
    }
    case json::kind::array: {
      YAML::Node n(YAML::NodeType::Sequence);
      for (const json::value& e : v.get_array()) n.push_back(to_yaml(e));
      return n;
    }
    case json::kind::string:
      return YAML::Node(std::string(v.get_string()));
    case json::kind::bool_:
      return YAML::Node(v.get_bool());
    case json::kind::int64:
      return YAML::Node(v.get_int64());
    case json::kind::uint64:
      return YAML::Node(v.get_uint64());
    case json::kind::double_:
      return YAML::Node(v.get_double());
    case json::kind::null:
      break;
  }
  return YAML::Node();
}

void merge(YAML::Node base, const json::value& over) {
  for (const auto& kv : over.get_object()) {
    const std::string key(kv.key());
    if (kv.value().is_object() && base[key] && base[key].IsMap())
      merge(base[key], kv.value());
    else
      base[key] = to_yaml(kv.value());
  }
}

// The DRAM section for banked's preset `x` with timing `t`; "" or the
// parameter of `timing` that Ramulator cannot take, with why.
std::string preset_dram(const Recipe& x, const DramTiming& t, std::int32_t channels,
                        std::int32_t ranks, bool refresh, YAML::Node dram) {
  if (!pow2(t.burst_bytes) || t.burst_bytes * 8 % x.prefetch != 0)
    return "burst_bytes: ramulator2 needs a power of two (Ramulator's " + std::string(x.standard) +
           " moves " + std::to_string(x.prefetch) + " column beats per access)";
  if (t.row_bytes % t.burst_bytes != 0 || !pow2(t.row_bytes / t.burst_bytes))
    return "row_bytes: ramulator2 needs a power of two of bursts per row";
  if (!pow2(t.banks)) return "banks: ramulator2 needs a power of two";
  const std::int64_t cw = t.burst_bytes * 8 / x.prefetch;
  const std::int64_t cols = t.row_bytes / t.burst_bytes * x.prefetch;
  const std::int64_t bg = t.bank_groups, ba = t.banks / bg;
  const std::int64_t per_row = bg * ba * cols * x.device_dq * (x.rank_in_density ? ranks : 1);
  const std::int64_t bits = std::int64_t{x.density_mb} << 20;
  if (bits % per_row != 0 || !pow2(bits / per_row))
    return "row_bytes: " + std::to_string(t.row_bytes) + " bytes x " + std::to_string(t.banks) +
           " banks do not divide Ramulator's " + x.org_preset + " device into rows";
  YAML::Node org = dram["org"];
  org["preset"] = x.org_preset;
  org["channel"] = channels;
  org[x.rank_level] = ranks;
  org["channel_width"] = cw;
  org["bankgroup"] = bg;
  org["bank"] = ba;
  org["column"] = cols;
  org["row"] = bits / per_row;
  YAML::Node tm = dram["timing"];
  tm["preset"] = x.timing_preset;
  const std::string s = x.standard;
  const bool lp = s == "LPDDR5", hbm = s == "HBM2";
  tm[lp ? "nBL16" : "nBL"] = t.tburst;
  tm["nCL"] = t.cl;
  tm["nCWL"] = t.cwl;
  if (hbm) {
    tm["nRCDRD"] = t.trcd;
    tm["nRCDWR"] = t.trcd;
  } else {
    tm["nRCD"] = t.trcd;
  }
  if (lp) {
    tm["nRPpb"] = t.trp;
    tm["nRPab"] = t.trpab > 0 ? t.trpab : t.trp;
  } else {
    tm["nRP"] = t.trp;
  }
  tm["nRAS"] = t.tras;
  tm["nRC"] = t.tras + t.trp;
  tm["nWR"] = t.twr;
  if (lp && t.tccd_l != t.tccd)
    return "tccd_l: Ramulator's LPDDR5 has one tCCD for both (tccd " + std::to_string(t.tccd) + ")";
  if (lp && t.trrd_l != t.trrd_s)
    return "trrd_l: Ramulator's LPDDR5 has one tRRD for both (trrd_s " + std::to_string(t.trrd_s) +
           ")";
  if (!lp && t.trpab != 0 && t.trpab != t.trp)
    return "trpab: Ramulator's " + s + " precharges all banks in tRP (" + std::to_string(t.trp) +
           ")";
  if (t.act_commands != (lp ? 2 : 1))
    return lp ? "act_commands: Ramulator's LPDDR5 activates in two commands (2)"
              : "act_commands: Ramulator's " + s + " activates in one command (1)";
  if (t.cas_sync != (lp ? 1 : 0))
    return lp ? "cas_sync: Ramulator's LPDDR5 syncs its data clock with a CAS command (1)"
              : "cas_sync: Ramulator's " + s + " has no CAS sync command (0)";
  tm[lp ? "nCCD" : "nCCDS"] = t.tccd;
  if (!lp) tm["nCCDL"] = t.tccd_l;
  tm["nWTRL"] = t.twtr;
  tm["nWTRS"] = t.twtr_s;
  if (lp) {
    tm["nRRD"] = t.trrd_s;
  } else {
    tm["nRRDS"] = t.trrd_s;
    tm["nRRDL"] = t.trrd_l;
  }
  tm["nFAW"] = t.tfaw;
  tm[hbm ? "nRTPL" : "nRTP"] = t.trtp;
  tm[lp ? "nRFCab" : "nRFC"] = t.trfc;
  tm["nREFI"] = refresh && t.trefi > 0 ? t.trefi : (1 << 30);
  return "";
}

// The model's parameters as the configuration gives them.
struct Knobs {
  std::string preset;
  DramTiming t;
  std::string std_name, org_preset, timing_preset;
  std::int32_t channels = 1, ranks_set = 0, ranks = 1;
  std::string scheduler, row_policy;
  std::int32_t cap = 4;
  std::string mapping;
  bool refresh = true;
  WriteWatermarks marks;
  const json::object* extra = nullptr;
};

// Declares and reads every parameter (docs/timing-model.md lists them).
Knobs read_knobs(ParamReader& r) {
  Knobs k;
  k.preset = r.param<std::string>("preset")
                 .choices(dram_preset_names())
                 .fallback("ddr4_3200")
                 .describe("banked's channel as Ramulator's standard (timing overrides any field)")
                 .get();
  k.t = read_dram_timing(r, *dram_preset(k.preset));
  k.std_name =
      r.param<std::string>("standard")
          .choices(standard_names())
          .fallback("preset")
          .describe("Ramulator's DRAM standard with its own presets, or \"preset\": banked's")
          .get();
  k.org_preset = r.param<std::string>("org_preset")
                     .fallback("")
                     .describe(
                         "Ramulator's organisation preset of `standard` "
                         "(\"\": DDR4_8Gb_x8, DDR5_16Gb_x8, LPDDR5_16Gb_x16, "
                         "GDDR6_8Gb_x16, HBM2_8Gb, HBM3_8Gb)")
                     .get();
  k.timing_preset = r.param<std::string>("timing_preset")
                        .fallback("")
                        .describe(
                            "Ramulator's timing preset of `standard` (\"\": "
                            "DDR4_3200AA, DDR5_3200AN, LPDDR5_6400, "
                            "GDDR6_2000_1350mV_quad, HBM2_2Gbps, HBM3_2Gbps)")
                        .get();
  k.channels = r.param<std::int32_t>("channels")
                   .unit(Unit::channels)
                   .range(1, 64)
                   .fallback(1)
                   .describe(
                       "channels per port (a power of two; `preset`: each the "
                       "preset's channel; a named `standard`: its org preset's unless "
                       "given), interleaved by address_mapping")
                   .get();
  k.ranks_set = r.param<std::int32_t>("ranks")
                    .unit(Unit::ranks)
                    .range(0, 16)
                    .fallback(0)
                    .describe(
                        "ranks per channel (HBM: pseudo channels; a power of "
                        "two; 0: one, or with `standard` its org preset's)")
                    .get();
  k.ranks = k.ranks_set > 0 ? k.ranks_set : 1;
  k.scheduler = r.param<std::string>("scheduler")
                    .choices({"FRFCFS"})
                    .fallback("FRFCFS")
                    .describe(
                        "the controller's scheduler (Ramulator's Generic "
                        "controller has FR-FCFS)")
                    .get();
  k.row_policy = r.param<std::string>("row_policy")
                     .choices({"open", "closed"})
                     .fallback("open")
                     .describe("open rows, or closed after `closed_cap` hits")
                     .get();
  k.cap = r.param<std::int32_t>("closed_cap")
              .unit(Unit::accesses)
              .range(1, 1 << 16)
              .fallback(4)
              .describe("row_policy closed: column accesses before a row is closed")
              .get();
  k.mapping = r.param<std::string>("address_mapping")
                  .choices({"RoBaRaCoCh", "ChRaBaRoCo", "MOP4CLXOR"})
                  .fallback(k.std_name == "preset" ? dram_preset_mapping(k.preset) : "RoBaRaCoCh")
                  .describe(
                      "Ramulator's address mapper, most significant field first (banked's "
                      "RoBaRaCoCh and MOP4CLXOR are the same maps); default the preset's "
                      "(ddr4_3200: MOP4CLXOR, others and named standards RoBaRaCoCh)")
                  .get();
  k.refresh = r.param<bool>("refresh").fallback(true).describe("all-bank refresh").get();
  k.marks = read_write_watermarks(r);
  k.extra = r.object("ramulator",
                     "any other Ramulator key, merged over the configuration gemini makes (e.g. "
                     "{\"MemorySystem\": {\"DRAM\": {\"timing\": {\"nFAW\": 40}}}})");
  return k;
}

// What the parameters cannot be together.
void check_knobs(ParamReader& r, const Knobs& k) {
  if (!pow2(k.channels))
    r.fail("channels", "must be a power of two, got " + std::to_string(k.channels));
  if (!pow2(k.ranks)) r.fail("ranks", "must be a power of two, got " + std::to_string(k.ranks));
  if (k.std_name != "preset" && !(k.t == *dram_preset(k.preset)))
    r.fail("timing", "applies to banked's presets only (standard \"preset\"); with standard \"" +
                         k.std_name + "\" the ramulator object sets Ramulator's timing keys");
  if (k.std_name == "preset" && !(k.org_preset.empty() && k.timing_preset.empty()))
    r.fail(k.org_preset.empty() ? "timing_preset" : "org_preset",
           "applies to a named standard only (standard is \"preset\": banked's " + k.preset + ")");
  if (k.std_name == "preset" && k.t.trtw != dram_preset(k.preset)->trtw)
    r.fail("timing",
           "trtw applies to banked only: Ramulator's standards derive the read-to-write "
           "turnaround from CL, CWL and the burst");
}

// The controller: FR-FCFS with the write watermarks, all-bank refresh, the
// row policy and the probe that counts row hits (dram_ramulator2.cpp).
void controller_yaml(const Knobs& k, YAML::Node ctrl) {
  ctrl["impl"] = "Generic";
  ctrl["wr_high_watermark"] = k.marks.high;
  ctrl["wr_low_watermark"] = k.marks.low;
  ctrl["Scheduler"]["impl"] = k.scheduler;
  ctrl["RefreshManager"]["impl"] = "AllBank";
  if (k.row_policy == "open") {
    ctrl["RowPolicy"]["impl"] = "OpenRowPolicy";
  } else {
    ctrl["RowPolicy"]["impl"] = "ClosedRowPolicy";
    ctrl["RowPolicy"]["cap"] = k.cap;
  }
  YAML::Node probe;
  probe["ControllerPlugin"]["impl"] = "GeminiProbe";
  ctrl["plugins"].push_back(probe);
}

}  // namespace

Ramulator2Config read_ramulator2_config(ParamReader& r) {
  const std::size_t before = r.error_count();
  Knobs k = read_knobs(r);
  check_knobs(r, k);
  const DramTiming& t = k.t;
  const std::string& preset = k.preset;
  const std::string& std_name = k.std_name;
  const std::int32_t channels = k.channels, ranks_set = k.ranks_set, ranks = k.ranks;
  const bool refresh = k.refresh;
  const json::object* extra = k.extra;
  std::string& org_preset = k.org_preset;
  std::string& timing_preset = k.timing_preset;

  Ramulator2Config c;

  YAML::Node root;
  root["Frontend"]["impl"] = "GEM5";
  YAML::Node ms = root["MemorySystem"];
  ms["impl"] = "GenericDRAM";
  ms["clock_ratio"] = 1;
  YAML::Node dram = ms["DRAM"];
  if (std_name == "preset") {
    const Recipe& x = recipe(preset);
    dram["impl"] = x.standard;
    const std::string bad = preset_dram(x, t, channels, ranks, refresh, dram);
    if (!bad.empty()) r.fail("timing", bad);
    c.tick_ps = t.tck_ps;
    c.label = std::string(x.standard) + " (" + preset + ")";
  } else {
    const Standard& s = standard(std_name);
    if (org_preset.empty()) org_preset = s.org_preset;
    if (timing_preset.empty()) timing_preset = s.timing_preset;
    dram["impl"] = s.name;
    dram["org"]["preset"] = org_preset;
    dram["timing"]["preset"] = timing_preset;
    // Given: the user's count; not given: the org preset's (GDDR6's has 2).
    if (channels > 1 || r.peek("channels")) dram["org"]["channel"] = channels;
    if (s.rank_level && ranks_set > 0)
      dram["org"][s.rank_level] = ranks;
    else if (!s.rank_level && ranks_set > 1)
      r.fail("ranks", std::string("Ramulator's ") + s.name + " has no ranks: must be 1");
    if (!refresh) dram["timing"]["nREFI"] = 1 << 30;
    // Ramulator's DDR5 requires the RFM group (its bounded refresh
    // management); 2 is its own default and its example configurations'.
    if (std_name == "DDR5") dram["RFM"]["BRC"] = 2;
    c.label = std_name + " (" + org_preset + ", " + timing_preset + ")";
  }
  controller_yaml(k, ms["Controller"]);
  ms["AddrMapper"]["impl"] = k.mapping;
  if (extra) merge(root, json::value(*extra));
  c.yaml = YAML::Dump(root);

  // What only Ramulator can say: a trial memory system, never for listings.
  if (r.reading() && r.error_count() == before) {
    std::string error;
    const std::string where = extra ? "ramulator" : (std_name == "preset" ? "timing" : "standard");
    // Keys of the free-form `ramulator` object are Ramulator's to read:
    // first tried where a crash cannot take gemini down.
    const std::string crash = extra ? probe_ramulator2(c) : "";
    const std::unique_ptr<DramModel> trial =
        crash.empty() ? make_ramulator2_model(c, error) : nullptr;
    if (!crash.empty()) {
      r.fail(where, crash + " (" + c.label + ")");
    } else if (!trial) {
      r.fail(where, "Ramulator 2 rejects the configuration of " + c.label + ": " + error);
    } else if (const std::string bad = ramulator2_timing_problem(*trial); !bad.empty()) {
      r.fail(where, "the timings of " + c.label +
                        " as Ramulator 2 resolves them cannot serve "
                        "requests: " +
                        bad);
    }
  }
  return c;
}

}  // namespace gemini::sim
