#include "dram_module.h"

#include <string>

#include "process_guard.h"

namespace gemini::sim {

DramModule::DramModule(const sc_core::sc_module_name& name, std::int32_t port,
                       std::unique_ptr<DramModel> model, SimContext& ctx, MemoryClient& client)
    : sc_core::sc_module(name),
      port_(port),
      model_(std::move(model)),
      ctx_(ctx),
      client_(client),
      stats_("dram", basename()) {
  model_->register_stats(stats_);
  stats_.add_distribution("read_latency", &read_latency_, Unit::picoseconds,
                          "a read request's arrival at the port to its last bytes read");
  stats_.add_distribution("write_latency", &write_latency_, Unit::picoseconds,
                          "a write request's arrival at the port to its last bytes written");
  stats_.add_distribution("queue_occupancy", &occupancy_, Unit::count,
                          "requests not yet done that an arriving request finds at the port");
  ps_per_byte_ = 1000.0 / model_->peak_gbps();
  sc_core::sc_spawn_options opt;
  opt.spawn_method();
  opt.set_sensitivity(&ev_);
  opt.dont_initialize();
  sc_core::sc_spawn(
      [this] { run_guarded(ctx_, "DRAM port " + std::to_string(port_) + ": ", [this] { run(); }); },
      "controller", &opt);
}

void DramModule::enqueue(const DramRequest& r, OpRef owner) {
  model_->enqueue(r);
  if (ctx_.dram_tracing) ctx_.dram_trace.push_back({r.arrival, port_, r.write, r.addr, r.bytes});
  // What it finds at the port: a request not yet done (the latest), else
  // the one whose last bytes are done after its arrival (models report
  // ahead of time).
  const OpRef before = !pending_.empty()         ? pending_.back().owner
                       : busy_until_ > r.arrival ? busy_owner_
                                                 : kNoRef;
  occupancy_.add(static_cast<std::int64_t>(pending_.size()));
  pending_.push_back({r.tag, owner, before, r.arrival, r.bytes, r.write});
  if (ctx_.tracing) open_[r.tag * 2 + (r.write ? 1 : 0)] = {r.arrival, r.bytes, r.write};
  ev_.notify(sc_core::SC_ZERO_TIME);
}

void DramModule::run() {
  const Tick now = now_ps();
  ctx_.progress.poll(now);
  const Tick next = model_->advance(now, *this);
  if (next != kNever) ev_.notify(ps(next > now ? next - now : 0));
}

void DramModule::progress(std::uint64_t tag, std::int64_t done, Tick t) {
  for (auto it = pending_.begin(); it != pending_.end(); ++it) {
    if (it->tag != tag) continue;
    if (it->bytes != done) break;  // not its last bytes yet
    (it->write ? write_latency_ : read_latency_).add(t - it->arrival);
    const Tick own = ceil_tick(static_cast<double>(done) * ps_per_byte_ - 1e-9);
    const Tick waited = t - it->arrival - own;
    if (waited > 0 && !it->before.none() && it->before != it->owner)
      client_.dram_waited(RequestTag::of(tag), waited, it->before);
    if (t >= busy_until_) {
      busy_until_ = t;
      busy_owner_ = it->owner;
    }
    pending_.erase(it);
    break;
  }
  client_.dram_progress(RequestTag::of(tag), done, t);
  if (!ctx_.tracing) return;
  for (std::uint64_t w = 0; w < 2; ++w) {
    auto it = open_.find(tag * 2 + w);
    if (it == open_.end() || it->second.bytes != done) continue;
    ctx_.trace.push_back(
        {-1 - port_, static_cast<std::uint8_t>(w), 0, -1, done, it->second.arrival, t});
    open_.erase(it);
    break;
  }
}

}  // namespace gemini::sim
