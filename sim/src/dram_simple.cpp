// "simple" DRAM: one queue served first come first served at a fixed
// bandwidth, plus a fixed latency. A request of b bytes that starts at s
// (its arrival, or when the previous one finished) occupies the port for
// ceil(b * 1000 / port_gbps) ps; byte d of it is at the port at
// s + ceil(d * 1000 / port_gbps) + latency.
//
// Parameters (declared in configure()): the bandwidth per port is
// `port_gbps`, else `gbps_per_tops` x the mesh's TOPS over the ports, else
// the `preset`'s peak; `latency_ns`.
#include <cmath>
#include <cstdio>
#include <vector>

#include "gemini/sim/dram_model.h"
#include "gemini/sim/dram_timing.h"
#include "gemini/sim/model_stall.h"

namespace gemini::sim {
namespace {

class SimpleDram final : public DramModel {
 public:
  SimpleDram(double gbps, Tick latency)
      : gbps_(gbps), ps_per_byte_(1000.0 / gbps), latency_(latency) {}

  void enqueue(const DramRequest& r) override { queue_.push_back(r); }

  Tick advance(Tick /*now*/, DramSink& sink) override {
    for (const DramRequest& r : queue_) {
      const Tick start = std::max(r.arrival, free_);
      const double end = static_cast<double>(start) + static_cast<double>(r.bytes) * ps_per_byte_;
      if (end + static_cast<double>(latency_) > static_cast<double>(kTickLimit))
        throw ModelStall(past_clock_text(
            "dram.model \"simple\"", "a request of " + std::to_string(r.bytes) + " bytes", end,
            "the port moves " + std::to_string(gbps_) + " GB/s (dram.port_gbps, gbps_per_tops "
            "or the preset) after " + std::to_string(latency_) + " ps (dram.latency_ns)"));
      const Tick dur = span(r.bytes);
      free_ = start + dur;
      ++stats_.requests;
      stats_.data_busy += dur;
      (r.write ? stats_.bytes_written : stats_.bytes_read) += r.bytes;
      if (!r.write && r.chunk_bytes > 0)
        for (std::int64_t d = r.chunk_bytes; d < r.bytes; d += r.chunk_bytes)
          sink.progress(r.tag, d, start + span(d) + latency_);
      sink.progress(r.tag, r.bytes, free_ + latency_);
    }
    queue_.clear();
    return kNever;
  }

  double peak_gbps() const override { return gbps_; }
  std::string name() const override { return "simple"; }

 private:
  Tick span(std::int64_t bytes) const {
    return ceil_tick(static_cast<double>(bytes) * ps_per_byte_ - 1e-9);
  }
  double gbps_, ps_per_byte_;
  Tick latency_;
  Tick free_ = 0;
  std::vector<DramRequest> queue_;
};

// Declares and reads the model's parameters.
DramBuilder configure(ParamReader& r) {
  const std::string preset =
      r.param<std::string>("preset")
          .choices(dram_preset_names())
          .fallback("ddr4_3200")
          .describe("the channel whose peak bandwidth is the default per port")
          .get();
  const double port_gbps =
      r.param<double>("port_gbps")
          .unit(Unit::gbps)
          .range(1e-3, 1e6)
          .or_zero()
          .fallback(0)
          .describe("bandwidth of one port (0: from gbps_per_tops, else the preset's peak)")
          .get();
  const double gbps_per_tops =
      r.param<double>("gbps_per_tops")
          .unit(Unit::gbps_per_tops)
          .range(1e-6, 1e6)
          .or_zero()
          .fallback(0)
          .describe("the total over all ports per TOPS of the mesh, split evenly (0: unused)")
          .get();
  const double latency_ns = r.param<double>("latency_ns")
                                .unit(Unit::nanoseconds)
                                .range(0, 1e9)
                                .fallback(50)
                                .describe("fixed access latency")
                                .get();
  const double peak = dram_preset(preset)->peak_gbps();
  const auto latency = static_cast<Tick>(std::llround(latency_ns * 1000.0));
  return [=](const DramContext& ctx, std::string& error) -> std::unique_ptr<DramModel> {
    double gbps = peak;
    if (port_gbps > 0)
      gbps = port_gbps;
    else if (gbps_per_tops > 0)
      gbps = gbps_per_tops * ctx.mesh_tops / static_cast<double>(ctx.ports);
    // Each source is in range alone, not their product: a port's time per
    // byte must fit the picosecond clock of transfers of up to 4 GiB.
    if (!(gbps >= 1e-3 && gbps <= 1e6)) {
      char text[32];
      std::snprintf(text, sizeof text, "%g", gbps);
      error = std::string("the DRAM bandwidth per port comes to ") + text + " GB/s (from " +
              (port_gbps > 0       ? "dram.port_gbps"
               : gbps_per_tops > 0 ? "dram.gbps_per_tops, the mesh and clock.frequency_mhz"
                                   : "the dram.preset's peak") +
              "), outside [0.001, 1e6]";
      return nullptr;
    }
    return std::make_unique<SimpleDram>(gbps, latency);
  };
}

}  // namespace

DramModelInfo simple_dram_model() {
  return {"simple", "one FCFS queue at a fixed bandwidth plus a fixed latency", configure};
}

}  // namespace gemini::sim
