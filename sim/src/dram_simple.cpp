// "simple" DRAM: one queue served first come first served at a fixed
// bandwidth, plus a fixed latency. A request of b bytes that starts at s
// (its arrival, or when the previous one finished) occupies the port for
// ceil(b * 1000 / port_gbps) ps; byte d of it is at the port at
// s + ceil(d * 1000 / port_gbps) + latency.
#include <cmath>
#include <vector>

#include "dram_models.h"

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
    return static_cast<Tick>(std::ceil(static_cast<double>(bytes) * ps_per_byte_ - 1e-9));
  }
  double gbps_, ps_per_byte_;
  Tick latency_;
  Tick free_ = 0;
  std::vector<DramRequest> queue_;
};

}  // namespace

std::unique_ptr<DramModel> make_simple_dram(const ir::DramConfig& cfg, double port_gbps) {
  return std::make_unique<SimpleDram>(port_gbps,
                                      static_cast<Tick>(std::llround(cfg.latency_ns * 1000.0)));
}

}  // namespace gemini::sim
