// The text of a time past the simulator's clock (model_stall.h).
#include "gemini/sim/model_stall.h"

#include "text_format.h"

namespace gemini::sim {

std::string past_clock_text(const std::string& model, const std::string& what, double t_ps,
                            const std::string& why) {
  return model + ": " + what + " at " + fmt("%.3g", t_ps) +
         " ps is past the simulator's clock (2^62 ps, about 53 days): " + why;
}

}  // namespace gemini::sim
