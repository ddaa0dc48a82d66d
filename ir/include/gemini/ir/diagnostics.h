#pragma once
// Diagnostics: the numbered check catalogue and the sink every stage reports
// into. Each check has a stable code (never renumbered; docs/validation.md
// lists them all with a minimal bad example), a severity and a title. A
// diagnostic names the check, where (a JSON pointer, or line:column for
// syntax errors) and what was expected.

#include <boost/json/object.hpp>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace gemini::ir {

enum class Severity : std::uint8_t { warning, error };

// One enumerator per check; the order matches kChecks in diagnostics.cpp.
enum class Check : std::uint16_t {
  // L: reading the bytes
  io_error,        // L001
  empty_input,     // L002
  json_syntax,     // L003
  gzip_corrupt,    // L004
  top_not_object,  // L005
  dialect_mixed,   // L006
  // S: schema
  missing_key,         // S001
  wrong_type,          // S002
  bad_rank,            // S003
  inverted_box,        // S004
  negative_value,      // S005
  out_of_range,        // S006
  unknown_key,         // S007
  bad_enum,            // S008
  duplicate_key,       // S009
  missing_layer_type,  // S010
  short_box,           // S011
  null_source,         // S012
  nested_transfer_id,  // S013
  bits_not_bytes,      // S014
  unsourced_input,     // S015
  // I: identity
  bad_mesh,               // I001
  core_outside_mesh,      // I002
  duplicate_core,         // I003
  duplicate_workload_id,  // I004
  workload_order,         // I005
  // X: cross-references
  no_producer,                 // X001
  multiple_producers,          // X002
  producer_omits_consumer,     // X003
  destination_missing,         // X004
  destination_not_consumer,    // X005
  related_ofmap_dangling,      // X006
  related_ifmap_dangling,      // X007
  dram_in_unmatched,           // X008
  dram_destination_unmatched,  // X009
  source_mismatch,             // X010
  weight_without_transfer,     // X011
  buffer_transfer_mismatch,    // X012
  // G: geometry
  outside_producer,        // G001
  layer_overlap,           // G002
  size_too_small,          // G003
  size_excess,             // G004
  ofmap_outside_workload,  // G005
  weight_layout,           // G006
  // B: buffers (full dialect)
  address_out_of_buffer,  // B001
  outside_ring_region,    // B002
  snapshot_overlap,       // B003
  cur_wl_ifmap_mismatch,  // B004
  newly_added_mismatch,   // B005
  wl0_overflow,           // B006
  wl0_overlap,            // B007
  bad_ring_regions,       // B008
  tensor_identity,        // B009
  result_without_tensor,  // B010
  early_write_overlap,    // B011
  // O: order
  dependency_cycle,  // O001
  // A: allocation (gemini import)
  l2_grown,         // A001
  l2_does_not_fit,  // A002
  // M: against the layer semantics (validate --model, model/)
  model_file,             // M001
  unknown_layer,          // M002
  layer_type_mismatch,    // M003
  ofmap_outside_layer,    // M004
  ifmap_box_mismatch,     // M005
  input_source_mismatch,  // M006
  weight_mismatch,        // M007
  forbidden_split,        // M008
  quirk_corrected,        // M009
  layer_not_covered,      // M010
  quirk_no_room,          // M011
  // P: ARK plan files (gemini plan, ref --plan; gpu_backend/)
  plan_file,         // P001
  plan_unsupported,  // P002
  plan_incomplete,   // P003
  // H: configuration files (--hw; ir/hw_config.h, sim/params.h)
  hw_config,  // H001
  kCount
};

struct CheckInfo {
  Check check;
  const char* code;  // "S001"
  Severity severity;
  const char* name;   // "missing-key"
  const char* title;  // one line for docs and --list-checks
};

std::span<const CheckInfo> all_checks();
const CheckInfo& info(Check c);
const char* to_string(Severity s);

struct Diagnostic {
  Check check = Check::io_error;
  Severity severity = Severity::error;
  std::string pointer;  // JSON pointer; empty for the document or for syntax errors
  std::optional<std::uint64_t> line, column;  // for syntax errors
  std::string message;
  // The file the pointer is in, when it is not the input the caller names
  // (a hardware configuration's problems name their file); "" otherwise.
  // With `given`, how a configuration value no file holds was given
  // instead ("--set noc.num_vcs", "axis noc.num_vcs": config_override.h);
  // the pointer is then the value's place in the configuration built.
  std::string file;
  bool given = false;
  const char* code() const { return info(check).code; }
};

// A diagnostic as JSON (`validate --json`, `--diagnostics-json`, the
// Python module): code, name, severity, line and column (a syntax error)
// or pointer, message, and file when it names one ("given": true when the
// file is how a value was given, not a file).
boost::json::object diagnostic_json(const Diagnostic& d);

// Problems of a configuration file (a hardware configuration: H001), as
// diagnostics that carry their file. Their terminal form is config_text().
using ConfigErrors = std::vector<Diagnostic>;
// An H001 error at `pointer` of `file` ("" pointer: the whole file).
void config_error(ConfigErrors& errors, std::string file, std::string pointer, std::string message);
// "file:pointer: message", "file:line:column: message" or "file: message"
// (no code: configuration errors have always read so); a value given
// otherwise than in a file, "how: message" ("--set noc.num_vcs: ...").
std::string config_text(const Diagnostic& d);

// Collects diagnostics. Errors and warnings are kept apart, each up to its
// own limit, so warnings never crowd out an error; beyond the limits they
// are counted, not kept, so a file with a million bad values neither floods
// memory nor the terminal. Every check also keeps its count and its first
// diagnostic, kept or not, for one-line-per-code summaries.
class Diagnostics {
 public:
  explicit Diagnostics(std::size_t max_kept = 1000) : Diagnostics(max_kept, max_kept) {}
  Diagnostics(std::size_t max_errors, std::size_t max_warnings)
      : max_errors_(max_errors), max_warnings_(max_warnings) {}

  void report(Check c, std::string pointer, std::string message);
  void report_at(Check c, std::uint64_t line, std::uint64_t column, std::string message);

  // The kept diagnostics, in the order they were reported.
  const std::vector<Diagnostic>& items() const { return items_; }
  std::size_t errors() const { return errors_; }
  std::size_t warnings() const { return warnings_; }
  std::size_t dropped() const { return dropped_errors_ + dropped_warnings_; }
  std::size_t dropped_errors() const { return dropped_errors_; }
  std::size_t dropped_warnings() const { return dropped_warnings_; }
  bool has(Check c) const { return tally(c).count > 0; }

  struct Tally {
    std::size_t count = 0;  // reported
    std::size_t kept = 0;   // of them in items()
    std::optional<Diagnostic> first;
  };
  const Tally& tally(Check c) const { return tallies_[static_cast<std::size_t>(c)]; }

 private:
  void add(Diagnostic d);
  std::vector<Diagnostic> items_;
  std::size_t max_errors_, max_warnings_;
  std::size_t errors_ = 0, warnings_ = 0, dropped_errors_ = 0, dropped_warnings_ = 0;
  std::vector<Tally> tallies_ = std::vector<Tally>(static_cast<std::size_t>(Check::kCount));
};

}  // namespace gemini::ir
