#include "ref_progress.h"

#include <algorithm>
#include <cstdio>

#include "gemini/model/stats.h"

namespace gemini::cli {

RefProgress::RefProgress(sim::ProgressMode mode, const model::Network& net, Clock::time_point since)
    : display_(mode, since), net_(net), macs_(model::network_macs(net)) {}

void RefProgress::layer_done(std::int32_t op) {
  if (display_.mode() == sim::ProgressMode::off) return;
  ++layers_done_;
  macs_done_ += model::op_macs(net_.ops[static_cast<std::size_t>(op)]);
  display_.offer([this](Clock::time_point t, bool words) { return status(t, words); });
}

void RefProgress::done() {
  display_.end([this](Clock::time_point t) { return status(t, true); });
}

std::string RefProgress::status(Clock::time_point t, bool words) const {
  const double run = std::chrono::duration<double>(t - display_.since()).count();
  const double f = macs_ > 0 ? static_cast<double>(macs_done_) / static_cast<double>(macs_) : 1;
  const double rate = run > 0 ? static_cast<double>(macs_done_) / 1e9 / run : 0;
  const bool known = f > 0 && f < 1;
  const std::string left = known ? sim::ProgressDisplay::span(run * (1 - f) / f, !words) : "";
  const auto done = static_cast<long long>(layers_done_);
  const auto all = static_cast<long long>(net_.ops.size());
  char buf[256];
  if (words) {
    std::snprintf(buf, sizeof buf,
                  "gemini: computing the reference for %s: %lld of %lld layers, %.2f of %.2f GMAC "
                  "(%.0f%%), %.2f GMAC/s, %s",
                  sim::ProgressDisplay::span(run, false).c_str(), done, all,
                  static_cast<double>(macs_done_) / 1e9, static_cast<double>(macs_) / 1e9,
                  f * 100.0, rate, known ? ("about " + left + " left").c_str() : "done");
  } else {
    const int width = 10, fill = std::clamp(static_cast<int>(f * width), 0, width);
    std::snprintf(buf, sizeof buf, "reference [%.*s%*s] %3.0f%% %lld/%lld layers, %.2f GMAC/s, %s",
                  fill, "==========", width - fill, "", f * 100.0, done, all, rate,
                  known ? ("~" + left + " left").c_str() : "");
  }
  return buf;
}

}  // namespace gemini::cli
