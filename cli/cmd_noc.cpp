// gemini noc: synthetic traffic on any registered NoC model
// (sim/include/gemini/sim/noc_traffic.h, docs/timing-model.md, "Synthetic
// traffic"): latency and throughput at one offered load or several.
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "commands.h"
#include "diagnostics_out.h"
#include "common.h"
#include "gemini/ir/config_override.h"
#include "gemini/ir/json_document.h"
#include "gemini/sim/noc_model.h"
#include "gemini/sim/noc_traffic.h"

namespace gemini::cli {
namespace {

struct NocOptions {
  std::string hw, model, mesh = "8x8", pattern = "uniform", loads = "0.1", trace;
  std::vector<std::string> set;
  std::int64_t packet_bytes = 0, packets = 200, warmup = 50, hotspot = -1;
  std::uint64_t seed = 1;
  double hotspot_fraction = 0.2;
  bool zero_load = false, json = false, links = false, booksim_config = false;
};

bool parse_mesh(const std::string& s, std::int32_t& x, std::int32_t& y) {
  char sep = 0;
  std::istringstream is(s);
  return (is >> x >> sep >> y) && (sep == 'x' || sep == 'X') && (is >> std::ws).eof() && x > 0 &&
         y > 0 && x <= 256 && y <= 256;
}

bool parse_loads(const std::string& s, std::vector<double>& out) {
  std::istringstream is(s);
  std::string item;
  while (std::getline(is, item, ',')) {
    char* end = nullptr;
    const double v = std::strtod(item.c_str(), &end);
    if (item.empty() || *end != '\0' || !(v > 0) || v > 1) return false;
    out.push_back(v);
  }
  return !out.empty();
}

boost::json::object point_json(double load, const sim::TrafficResult& r, double host,
                               bool links, double period) {
  boost::json::object o;
  o["load"] = load;
  o["offered"] = r.offered;
  o["accepted"] = r.accepted;
  o["measured"] = r.measured;
  o["sources"] = r.sources;
  o["window_cycles"] = r.window_cycles;
  o["run_cycles"] = r.run_cycles;
  o["latency_mean"] = r.mean;
  o["latency_p50"] = r.p50;
  o["latency_p99"] = r.p99;
  o["latency_max"] = r.max;
  o["link_max_utilisation"] = r.link_max;
  o["link_mean_utilisation"] = r.link_mean;
  o["busiest_link"] = r.busiest;
  o["host_seconds"] = host;
  if (links) {
    boost::json::array a;
    const double run = std::max(1.0, r.run_cycles);
    for (const auto& l : r.links) {
      boost::json::object x;
      x["from"] = boost::json::array{l.from.x, l.from.y};
      x["to"] = boost::json::array{l.to.x, l.to.y};
      x["busy_cycles"] = static_cast<double>(l.busy) / period;
      x["utilisation"] = static_cast<double>(l.busy) / period / run;
      a.push_back(std::move(x));
    }
    o["links"] = std::move(a);
  }
  return o;
}

// The configuration's `noc` section with --model and --set over it, read;
// `status` says why not. A refused value of --model or --set is named by
// the option ("--set noc.num_vcs: ...", ir/config_override.h).
std::optional<sim::NocSetup> noc_setup(const NocOptions& opt, ir::HardwareConfig& hw, int& status) {
  boost::json::object& noc = hw.noc.raw.json;
  ir::ConfigOverrides given;
  if (!opt.model.empty()) {
    noc["model"] = opt.model;
    given.push_back({hw.noc.raw.pointer + "/model", "--model ", ""});
  }
  for (const std::string& kv : opt.set) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) {
      std::cerr << "gemini noc: --set " << kv << ": expected KEY=VALUE (a noc parameter)\n";
      status = kExitUnreadable;
      return std::nullopt;
    }
    const std::string key = kv.substr(0, eq);
    boost::system::error_code ec;
    boost::json::value v = boost::json::parse(kv.substr(eq + 1), ec);
    noc[key] = ec ? boost::json::value(kv.substr(eq + 1)) : v;
    given.push_back({hw.noc.raw.pointer + "/" + ir::json_pointer_token(key), "--set ", ""});
  }
  if (hw.noc.raw.origin.empty()) hw.noc.raw.origin = ir::kDefaultsOrigin;
  ir::ConfigErrors errors;
  std::optional<sim::NocSetup> setup = sim::read_noc_setup(hw.noc.raw, errors);
  if (!setup) {
    ir::attribute_overrides(errors, given);
    report_config_errors(errors);
    status = kExitInvalid;
  }
  return setup;
}

// --booksim-config: the configuration the model runs in its own
// simulator's terms.
template <typename Build>
int print_config(const Build& build) {
  std::string error;
  const auto m = build(error);
  if (!m) {
    std::cerr << "gemini noc: " << error << "\n";
    return kExitInvalid;
  }
  const std::string text = m->config_text();
  if (text.empty()) {
    std::cerr << "gemini noc: NoC model \"" << m->name()
              << "\" has no configuration of another simulator (--booksim-config is for "
                 "booksim2)\n";
    return kExitInvalid;
  }
  std::cout << text;
  return kExitOk;
}

int run_noc(const NocOptions& opt) {
  auto hw = load_hw(opt.hw);
  if (!hw) return kExitUnreadable;
  int status = kExitOk;
  const std::optional<sim::NocSetup> setup = noc_setup(opt, *hw, status);
  if (!setup) return status;
  const boost::json::object& noc = hw->noc.raw.json;
  sim::TrafficSpec spec;
  if (!parse_mesh(opt.mesh, spec.xlen, spec.ylen)) {
    std::cerr << "gemini noc: --mesh " << opt.mesh << ": expected XxY (e.g. 8x8, at most 256)\n";
    return kExitUnreadable;
  }
  spec.pattern = opt.pattern;
  spec.packet_bytes = opt.packet_bytes > 0 ? opt.packet_bytes : setup->packet_bytes;
  spec.packets = opt.packets;
  spec.warmup = opt.warmup;
  spec.seed = opt.seed;
  spec.hotspot = static_cast<std::int32_t>(opt.hotspot);
  spec.hotspot_fraction = opt.hotspot_fraction;
  spec.zero_load = opt.zero_load;
  spec.period = std::max<sim::Tick>(1, std::llround(1e6 / hw->clock.frequency_mhz));
  if (!opt.trace.empty()) {
    std::ifstream in(opt.trace);
    if (!in) {
      std::cerr << "gemini noc: cannot read " << opt.trace << "\n";
      return kExitUnreadable;
    }
    std::string error;
    if (!sim::read_traffic_trace(in, opt.trace, spec.trace, error)) {
      std::cerr << error << "\n";
      return kExitInvalid;
    }
    spec.pattern = "trace";
  }
  std::vector<double> loads;
  if (!parse_loads(opt.loads, loads)) {
    std::cerr << "gemini noc: --load " << opt.loads
              << ": expected offered loads in (0, 1], comma-separated\n";
    return kExitUnreadable;
  }
  if (spec.zero_load || spec.pattern == "trace") loads.resize(1);

  // One model per point, built afresh.
  auto build = [&](std::string& error) {
    sim::NocLayout layout = sim::traffic_layout(spec);
    return setup->build(layout, error);
  };
  if (opt.booksim_config) return print_config(build);
  boost::json::array points;
  std::string model_name;
  if (!opt.json) {
    std::cout << "mesh " << spec.xlen << "x" << spec.ylen << ", pattern " << spec.pattern
              << ", packets of " << spec.packet_bytes << " bytes"
              << (spec.zero_load ? ", zero load (one packet at a time)" : "") << "\n";
    std::cout << "    load  offered accepted   mean_lat    p50_lat    p99_lat  link_max link_mean"
                 "  host_s\n";
  }
  for (const double load : loads) {
    std::string error;
    auto noc = build(error);
    if (!noc) {
      std::cerr << "gemini noc: " << error << "\n";
      return kExitInvalid;
    }
    model_name = noc->name();
    spec.load = load;
    spec.link_bytes_per_cycle = noc->peak_link_gbps() * static_cast<double>(spec.period) / 1000.0;
    sim::TrafficResult r;
    const auto t0 = std::chrono::steady_clock::now();
    if (!sim::run_traffic(*noc, spec, r, error)) {
      std::cerr << "gemini noc: " << error << "\n";
      return kExitInvalid;
    }
    const double host =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // No time when every source was sending measured packets: offered and
    // accepted have nothing to be measured over (0 then is no figure).
    if (!spec.zero_load && r.measured > 0 && r.window_cycles <= 0)
      std::cerr << "gemini noc: load " << load
                << ": the sources' measured packets never overlap in time, so offered and "
                   "accepted are not measured (0); raise --packets\n";
    if (opt.json) {
      points.push_back(point_json(load, r, host, opt.links, static_cast<double>(spec.period)));
      continue;
    }
    std::cout << std::fixed << std::setprecision(3) << std::setw(8) << load << std::setw(9)
              << r.offered << std::setw(9) << r.accepted << std::setprecision(2) << std::setw(11)
              << r.mean << std::setw(11) << r.p50 << std::setw(11) << r.p99 << std::setprecision(3)
              << std::setw(10) << r.link_max << std::setw(10) << r.link_mean
              << std::setprecision(2) << std::setw(8) << host << "\n";
    if (opt.links)
      for (const auto& l : r.links)
        std::cout << "      (" << l.from.x << "," << l.from.y << ")->(" << l.to.x << "," << l.to.y
                  << ") " << std::setprecision(3)
                  << static_cast<double>(l.busy) / static_cast<double>(spec.period) /
                         std::max(1.0, r.run_cycles)
                  << "\n";
  }
  if (opt.json) {
    boost::json::object o;
    o["model"] = model_name;
    o["mesh"] = opt.mesh;
    o["pattern"] = spec.pattern;
    o["packet_bytes"] = spec.packet_bytes;
    o["zero_load"] = spec.zero_load;
    o["seed"] = spec.seed;
    o["noc"] = noc;
    o["points"] = std::move(points);
    std::cout << boost::json::serialize(o) << "\n";
  } else {
    std::cout << "model " << model_name << "; latency in cycles from generation to the tail's "
              << "arrival; loads, offered and accepted as a fraction of one link's bytes per "
                 "cycle per source; link utilisation over the run\n";
  }
  return kExitOk;
}

}  // namespace

Command add_noc(CLI::App& app) {
  auto opt = std::make_shared<NocOptions>();
  auto* s = app.add_subcommand(
      "noc",
      "Synthetic traffic on a NoC model: latency and throughput against offered load "
      "(docs/timing-model.md, \"Synthetic traffic\"); the same packets for every model.");
  add_hw_option(*s, opt->hw);
  s->add_option("--model", opt->model, "the NoC model (noc.model; default the configuration's)");
  s->add_option("--set", opt->set,
                "KEY=VALUE: a noc parameter over the configuration's (repeatable; VALUE is JSON "
                "or a string), e.g. --set num_vcs=2");
  s->add_option("--mesh", opt->mesh, "the mesh, XxY (default 8x8)");
  s->add_option("--pattern", opt->pattern,
                "uniform, transpose, bitcomp, hotspot, neighbor, permutation (a random one "
                "drawn from --seed; default uniform)")
      ->check(
          CLI::IsMember({"uniform", "transpose", "bitcomp", "hotspot", "neighbor", "permutation"}));
  s->add_option("--load,--loads", opt->loads,
                "offered load per source as a fraction of one link's bytes per cycle; several, "
                "comma-separated, give a curve (default 0.1)");
  s->add_flag("--zero-load", opt->zero_load,
              "send the pattern's packets one at a time through an empty network");
  s->add_option("--trace", opt->trace,
                "a packet trace instead of a pattern: CSV lines cycle,source core,destination "
                "core,bytes");
  add_unsigned_option(*s, "--packet-bytes", opt->packet_bytes, 1, 1 << 20,
                      "bytes per packet (default noc.packet_bytes)");
  add_unsigned_option(*s, "--packets", opt->packets, 1, 1 << 24,
                      "measured packets per source (default 200)");
  add_unsigned_option(*s, "--warmup", opt->warmup, 0, 1 << 24,
                      "packets per source before those (default 50)");
  add_unsigned_option(*s, "--seed", opt->seed, 0, UINT32_MAX, "the traffic's seed (default 1)");
  add_unsigned_option(*s, "--hotspot", opt->hotspot, 0, 1 << 16,
                      "the hotspot core (default the centre)");
  s->add_option("--hotspot-fraction", opt->hotspot_fraction,
                "the share of a source's packets for the hotspot (default 0.2)")
      ->check(CLI::Range(0.0, 1.0));
  s->add_flag("--links", opt->links, "every link's utilisation too");
  s->add_flag("--json", opt->json, "one JSON object on stdout");
  s->add_flag("--booksim-config", opt->booksim_config,
              "print the BookSim 2 configuration noc.model \"booksim2\" runs for this mesh and "
              "exit");
  return [s, opt] { return s->parsed() ? run_noc(*opt) : -1; };
}

}  // namespace gemini::cli
