#pragma once
// One "key": value pair of a JSON report, for the writers of report_json.cpp
// and critical_path_report.cpp (int32 values written as int64, as the
// report always has).

#include <cstdint>
#include <string_view>
#include <type_traits>

#include "gemini/ir/json_writer.h"

namespace gemini::sim {

struct JsonKv {
  ir::JsonWriter& w;
  template <class T>
  void operator()(std::string_view k, T v) const {
    static_assert(!std::is_pointer_v<T>, "write strings as std::string_view");
    w.key(k);
    if constexpr (std::is_same_v<T, std::int32_t>)
      w.value(std::int64_t{v});
    else
      w.value(v);
  }
  // A declared figure (report_metrics.h) of `from`: its key, its value.
  template <class Metric, class From>
  requires requires(const Metric& m) { m.json_key(); }
  void operator()(const Metric& m, const From& from) const { (*this)(m.json_key(), m.read(from)); }
};

}  // namespace gemini::sim
