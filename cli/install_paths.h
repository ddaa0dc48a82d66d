#pragma once
// Where the running gemini finds its own files: its data folder is
// <folder of the executable>/../share/gemini (configs/, configs/sweeps/,
// scripts/), the same relative place in an installed tree
// (<prefix>/bin/gemini, <prefix>/share/gemini) and in the build tree
// (build/cli/gemini, build/share/gemini, copied there by the build), so an
// installed gemini -- on a cluster node too -- uses the configurations and
// plot scripts installed with it.
#include <string>
#include <vector>

namespace gemini::cli {

std::string self_exe();  // absolute path of the running executable
std::string data_dir();  // "" when the executable's path is unknown
// The folders searched for a configuration named without a path.
std::vector<std::string> config_dirs();
// A configuration file by path or by name ("set-polar" -> the data folder's
// configs/set-polar.json); empty when there is none.
std::string resolve_config(const std::string& name_or_path);
// The names of the configurations in config_dirs(), for messages.
std::string known_configs();

}  // namespace gemini::cli
