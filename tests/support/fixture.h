#pragma once
// Test helpers: the data directory, temporary files, and the check fixtures
// of tests/data/checks/ -- a base IR file, an optional text substitution and
// an RFC 6902 JSON patch (add, remove, replace, move, copy) -- materialised
// into a temporary IR file.

#include <boost/json/value.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "gemini/assembler/encoding.h"
#include "gemini/assembler/lowering.h"
#include "gemini/ir/diagnostics.h"
#include "gemini/ir/hw_config.h"
#include "gemini/sim/report.h"
#include "gemini/sim/simulator.h"

namespace gemini::test {

std::filesystem::path data_dir();
// $GEMINI_CORPUS, else ../shared/ir-corpus/set beside the sources. Empty
// path when it does not exist.
std::filesystem::path corpus_dir();
// $GEMINI_CORPUS_SUBSET: corpus file names, comma-separated, that the
// corpus tests are limited to (empty: all). The sanitizer build has its
// subset built in (GEMINI_SANITIZE_CORPUS), which the variable overrides.
std::vector<std::string> corpus_subset();
// The corpus files (those of the subset, when one is set) ...
std::vector<std::filesystem::path> corpus_files();
// Test parameters: the corpus file names, or {"corpus_absent"} (the tests
// then skip with corpus_absent_message()).
std::vector<std::string> corpus_names();
inline constexpr const char* kCorpusAbsent = "corpus_absent";
const char* corpus_absent_message();
// A gtest parameter name made of the file name's alphanumerics.
std::string param_name(const std::string& file);
// configs/set-polar.json (aborts the test binary if it does not load).
const ir::HardwareConfig& set_polar();

std::string read_file(const std::filesystem::path& p);
// A fresh path under the test temp directory (removed at exit).
std::filesystem::path temp_path(const std::string& name);
std::filesystem::path write_temp(const std::string& name, const std::string& bytes);
// `bytes` as one gzip member.
std::string gzip(const std::string& bytes);

// Applies a JSON patch; throws std::runtime_error naming the failing op.
void apply_patch(boost::json::value& doc, const boost::json::array& patch);

struct CheckFixture {
  std::string name;
  std::string about;
  std::filesystem::path file;  // the materialised IR
  std::vector<std::string> codes;
  std::string pointer;  // "" when the fixture does not pin one
};
CheckFixture materialise(const std::filesystem::path& fixture);
// The fixtures of a directory: its *.json files, sorted.
std::vector<std::filesystem::path> json_files(const std::filesystem::path& dir);
// Expects exactly the fixture's codes in d and, when the fixture pins a
// pointer, its own check (named by its file) at that pointer.
void expect_fixture_codes(const CheckFixture& f, const ir::Diagnostics& d);

// The layer-semantics model of a corpus IR file (models/<network>_b<batch>.model.json
// beside the corpus: "resnet_b1_2x2_LS_IR.json.gz" -> models/resnet_b1.model.json);
// empty when there is none.
std::filesystem::path corpus_model(const std::string& corpus_file);
// The model files of the corpus (models/*.model.json; with a subset, those
// of its files), or {"corpus_absent"}.
std::vector<std::string> corpus_model_names();

// One line per diagnostic: "CODE pointer: message".
std::string codes(const ir::Diagnostics& d);

// A shell command's exit status (128 + signal when killed) and its stdout
// and stderr together.
struct CliRun {
  int status = -1;
  std::string out;
};
CliRun run_command(const std::string& command);
// The gemini binary this build made, run with `args`.
CliRun run_gemini(const std::string& args);
// Every diagnostic of `d`, one per line: code, pointer, line:column, message.
std::string listing(const ir::Diagnostics& d);
// Whether some diagnostic of `d` sits at `pointer` and says `text`.
bool has(const ir::Diagnostics& d, const std::string& pointer, const std::string& text);

// The program of core `id` parsed from assembly text (without its `.core`
// line); a parse error fails the calling test and gives an empty program.
assembler::CoreProgram program(std::int32_t id, const std::string& text);

// A program of one core per assembly text (".core N" first), 1 MiB of L2 and
// 4 KiB of WL0; a text that does not parse fails the test.
assembler::Program parse_programs(const std::vector<std::string>& texts);
// Simulates `p` on an xlen x ylen mesh; a run that cannot start fails the test.
sim::Report simulate_programs(const assembler::Program& p, std::int32_t xlen, std::int32_t ylen,
                              const ir::HardwareConfig& hw);
// The same with the simulator's other options (power, a trace); its mesh
// is xlen x ylen.
sim::Report simulate_programs(const assembler::Program& p, std::int32_t xlen, std::int32_t ylen,
                              const ir::HardwareConfig& hw, sim::SimOptions options);
}  // namespace gemini::test
