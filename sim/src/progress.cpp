#include <cstdio>

#include "sim_context.h"

namespace gemini::sim {

// Redraws at most every 200 ms, and only once the run has taken a second.
void Progress::tick(std::int64_t retired) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - start_ < std::chrono::seconds(1)) return;
  if (drawn_ && now - last_ < std::chrono::milliseconds(200)) return;
  last_ = now;
  drawn_ = true;
  const double f = total_ > 0 ? static_cast<double>(retired) / total_ : 1.0;
  const int width = 40;
  const int fill = static_cast<int>(f * width);
  std::fprintf(stderr, "\rsimulating [%.*s%*s] %3.0f%%", fill,
               "========================================", width - fill, "", f * 100.0);
  std::fflush(stderr);
}

void Progress::done() {
  if (!drawn_) return;
  std::fprintf(stderr, "\r%*s\r", 60, "");
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace gemini::sim
