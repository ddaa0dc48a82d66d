#pragma once
// Summary: the figures `gemini info` prints, computed from a model.

#include <boost/json/object.hpp>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gemini/ir/diagnostics.h"
#include "gemini/ir/loader.h"
#include "gemini/ir/model.h"

namespace gemini::ir {

struct Summary {
  std::int32_t xlen = 0, ylen = 0;
  std::size_t cores_with_work = 0;
  std::size_t workloads = 0;
  std::map<std::string, std::size_t> workloads_by_kind;        // pe / vp / dt
  std::map<std::string, std::size_t> workloads_by_layer_type;  // the file's strings
  std::map<std::int32_t, std::size_t> workloads_by_core;
  std::map<std::int32_t, std::int64_t> time_by_core;  // sum of predicted time
  std::size_t layers = 0;
  std::map<std::string, std::size_t> layers_by_kind;

  struct Traffic {
    std::size_t tensors = 0;
    std::int64_t bytes = 0;
  };
  Traffic dram_read_fmap, dram_read_weight;  // IR["-1"]["out"], bytes x destinations read once
  Traffic dram_written;                      // IR["-1"]["in"], sized by their ofmaps
  Traffic core_to_core;                      // ofmap destinations on another core
  Traffic same_core;                         // ofmap destinations on the producing core

  bool acyclic = true;
  std::int64_t longest_path_time = 0;
  std::vector<std::string> longest_path;  // "core 0 workload 3 (conv1)"
  std::int64_t max_core_time = 0;
};

Summary summarize(const Model& m);

// A file loaded and summarised, as `gemini info` and the Python module's
// info() do: the summary when it loads cleanly (else an error in `d` says
// why).
struct SummarizedFile {
  LoadResult load;
  std::optional<Summary> summary;
};
SummarizedFile summarize_file(const std::string& path, const LoadOptions& options, Diagnostics& d);

// `gemini info --json`'s object for `file`: the model's dialect and the
// summary's figures (the CLI prints it, the Python module returns it).
boost::json::object summary_json(const Model& m, const Summary& s, const std::string& file);

}  // namespace gemini::ir
