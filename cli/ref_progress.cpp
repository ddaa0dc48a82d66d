#include "ref_progress.h"

#include <algorithm>
#include <cstdio>

#include "gemini/model/stats.h"

namespace gemini::cli {
namespace {

using namespace std::chrono_literals;

double seconds(RefProgress::Clock::duration d) { return std::chrono::duration<double>(d).count(); }

std::string span(double s) {
  char buf[32];
  if (s < 90) {
    std::snprintf(buf, sizeof buf, "%.0f s", s);
  } else if (s < 5400) {
    std::snprintf(buf, sizeof buf, "%.0f min", s / 60);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f h", s / 3600);
  }
  return buf;
}

}  // namespace

RefProgress::RefProgress(sim::ProgressMode mode, const model::Network& net, Clock::time_point since)
    : mode_(mode), net_(net), macs_(model::network_macs(net)), since_(since) {}

void RefProgress::layer_done(std::int32_t op) {
  if (mode_ == sim::ProgressMode::off) return;
  ++layers_done_;
  macs_done_ += model::op_macs(net_.ops[static_cast<std::size_t>(op)]);
  const Clock::time_point t = Clock::now();
  const Clock::duration run = t - since_;
  if (mode_ == sim::ProgressMode::bar) {
    if (run < 1s) return;
    std::fprintf(stderr, "\r%-79.79s", status(t, false).c_str());
  } else {
    const Clock::duration every = std::clamp<Clock::duration>(run / 30, 2s, 60s);
    if (run < 2s || (shown_ && t - last_ < every)) return;
    std::fprintf(stderr, "%s\n", status(t, true).c_str());
  }
  std::fflush(stderr);
  last_ = t;
  shown_ = true;
}

void RefProgress::done() {
  if (!shown_) return;
  if (mode_ == sim::ProgressMode::bar) {
    std::fprintf(stderr, "\r%79s\r", "");
  } else {
    std::fprintf(stderr, "%s\n", status(Clock::now(), true).c_str());
  }
  std::fflush(stderr);
  shown_ = false;
}

std::string RefProgress::status(Clock::time_point t, bool words) const {
  const double run = seconds(t - since_);
  const double f = macs_ > 0 ? static_cast<double>(macs_done_) / static_cast<double>(macs_) : 1;
  const double rate = run > 0 ? static_cast<double>(macs_done_) / 1e9 / run : 0;
  const bool known = f > 0 && f < 1;
  const std::string left = known ? span(run * (1 - f) / f) : "";
  const auto done = static_cast<long long>(layers_done_);
  const auto all = static_cast<long long>(net_.ops.size());
  char buf[256];
  if (words) {
    std::snprintf(buf, sizeof buf,
                  "gemini: computing the reference for %s: %lld of %lld layers, %.2f of %.2f GMAC "
                  "(%.0f%%), %.2f GMAC/s, %s",
                  span(run).c_str(), done, all, static_cast<double>(macs_done_) / 1e9,
                  static_cast<double>(macs_) / 1e9, f * 100.0, rate,
                  known ? ("about " + left + " left").c_str() : "done");
  } else {
    const int width = 10, fill = std::clamp(static_cast<int>(f * width), 0, width);
    std::snprintf(buf, sizeof buf, "reference [%.*s%*s] %3.0f%% %lld/%lld layers, %.2f GMAC/s, %s",
                  fill, "==========", width - fill, "", f * 100.0, done, all, rate,
                  known ? ("~" + left + " left").c_str() : "");
  }
  return buf;
}

}  // namespace gemini::cli
