// gemini dram-replay: a DRAM request trace (gemini sim --dram-trace) replayed
// open loop through the DRAM model a hardware configuration chooses, one
// port at a time: each request enters the port's model at its recorded
// time, whatever the model is doing. Prints, per port, the requests, the
// read and write latency (arrival to last byte: mean, p50, p99, in ns), the
// achieved bandwidth and the host seconds (docs/calibration.md, "DRAM
// against Ramulator 2").
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "commands.h"
#include "common.h"
#include "gemini/sim/dram_trace.h"
#include "gemini/sim/model_stall.h"
#include "gemini/sim/sim_config.h"
#include "gemini/sim/stats.h"

namespace gemini::cli {
namespace {

struct ReplayOptions {
  std::string trace, hw;
  std::int64_t chunk = 512;
  std::int32_t port = -1;
};

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double i = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(i);
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (i - static_cast<double>(lo));
}

void print_latencies(const char* what, const std::vector<double>& ns) {
  double sum = 0;
  for (double x : ns) sum += x;
  std::printf("  %s %zu, latency ns mean %.1f p50 %.1f p99 %.1f\n", what, ns.size(),
              ns.empty() ? 0.0 : sum / static_cast<double>(ns.size()), quantile(ns, 0.5),
              quantile(ns, 0.99));
}

int run_replay(const ReplayOptions& opt) {
  auto hw = load_hw(opt.hw);
  if (!hw) return kExitUnreadable;
  std::vector<sim::DramTraceRecord> all;
  std::string error;
  if (!sim::read_dram_trace(opt.trace, all, error)) {
    std::cerr << "gemini dram-replay: " << error << "\n";
    return kExitUnreadable;
  }
  std::int32_t ports = 0;
  for (const auto& r : all) ports = std::max(ports, r.port + 1);
  for (std::int32_t p = 0; p < ports; ++p) {
    if (opt.port >= 0 && p != opt.port) continue;
    std::vector<sim::DramTraceRecord> mine;
    for (const auto& r : all)
      if (r.port == p) mine.push_back(r);
    if (mine.empty()) continue;
    auto model = sim::make_dram_model(hw->dram.raw.json, sim::DramContext{}, error);
    if (!model) {
      std::cerr << "gemini dram-replay: " << opt.hw << ": " << error << "\n";
      return kExitInvalid;
    }
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<sim::ReplayedRequest> out;
    try {
      out = sim::replay_dram(mine, *model, opt.chunk);
    } catch (const sim::ModelStall& e) {
      std::cerr << "gemini dram-replay: port " << p << ": " << e.what() << "\n";
      return kExitInvalid;
    }
    const double host =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::vector<double> reads, writes;
    sim::Tick end = 0;
    std::int64_t bytes = 0;
    for (const auto& q : out) {
      (q.write ? writes : reads).push_back(static_cast<double>(q.done - q.arrival) / 1000.0);
      end = std::max(end, q.done);
      bytes += q.bytes;
    }
    const double span_ns = static_cast<double>(end - mine.front().arrival) / 1000.0;
    std::printf(
        "port %d: %s, %zu requests, %lld bytes in %.1f ns: %.3f GB/s (peak %.3f), "
        "host %.3f s\n",
        p, model->name().c_str(), mine.size(), static_cast<long long>(bytes), span_ns,
        span_ns > 0 ? static_cast<double>(bytes) / span_ns : 0.0, model->peak_gbps(), host);
    print_latencies("reads", reads);
    print_latencies("writes", writes);
    // The model's own counters (bursts, row hits, refreshes, ...), as the
    // report lists them.
    sim::StatGroup group("dram", "port" + std::to_string(p));
    model->register_stats(group);
    std::string line;
    for (const sim::StatValue& v : group.snapshot().values)
      line += (line.empty() ? "" : ", ") + v.name + " " + std::to_string(v.value);
    std::printf("  %s\n", line.c_str());
  }
  return kExitOk;
}

}  // namespace

Command add_dram_replay(CLI::App& app) {
  auto opt = std::make_shared<ReplayOptions>();
  CLI::App* s = app.add_subcommand(
      "dram-replay",
      "replay a DRAM request trace (gemini sim --dram-trace) open loop through the DRAM model "
      "of --hw, port by port; print latency and bandwidth");
  s->add_option("trace", opt->trace, "the trace file")->required();
  add_hw_option(*s, opt->hw);
  s->add_option("--port", opt->port, "only this port");
  s->add_option("--chunk-bytes", opt->chunk, "reads report progress every N bytes (NoC packets)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 30));
  return [s, opt] { return s->parsed() ? run_replay(*opt) : -1; };
}

}  // namespace gemini::cli
