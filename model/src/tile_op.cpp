#include "gemini/model/tile_op.h"

namespace gemini::model {

const char* to_string(TileKind k) {
  switch (k) {
    case TileKind::conv:
      return "conv";
    case TileKind::requantize:
      return "requantize";
    case TileKind::pool:
      return "pool";
    case TileKind::add:
      return "add";
    case TileKind::transpose:
      return "transpose";
    case TileKind::pool_sum:
      return "pool_sum";
    case TileKind::add_sum:
      return "add_sum";
  }
  return "?";
}

}  // namespace gemini::model
