#include "gemini/ir/diagnostics.h"

#include <array>
#include <cstdlib>
#include <iostream>

namespace gemini::ir {
namespace {
constexpr Severity E = Severity::error;
constexpr Severity W = Severity::warning;

constexpr std::size_t kCheckCount = static_cast<std::size_t>(Check::kCount);
constexpr std::array<CheckInfo, kCheckCount> kChecks{{
    {Check::io_error, "L001", E, "io-error", "the file cannot be opened or read"},
    {Check::empty_input, "L002", E, "empty-input", "the input holds no JSON value"},
    {Check::json_syntax, "L003", E, "json-syntax", "the bytes are not valid JSON"},
    {Check::gzip_corrupt, "L004", E, "gzip-corrupt", "the gzip stream is corrupt or truncated"},
    {Check::top_not_object, "L005", E, "top-not-object", "the top-level value must be an object"},
    {Check::dialect_mixed, "L006", E, "dialect-mixed",
     "the file mixes markers of the full and the public dialect"},
    {Check::missing_key, "S001", E, "missing-key", "a required key is absent"},
    {Check::wrong_type, "S002", E, "wrong-type", "a value has the wrong JSON type"},
    {Check::bad_rank, "S003", E, "bad-rank", "a box or tuple has the wrong number of entries"},
    {Check::inverted_box, "S004", E, "inverted-box", "a box has lower > upper"},
    {Check::negative_value, "S005", E, "negative-value", "a size, address, time or id is negative"},
    {Check::out_of_range, "S006", E, "out-of-range", "a number does not fit its type"},
    {Check::unknown_key, "S007", W, "unknown-key", "a key the format does not define"},
    {Check::bad_enum, "S008", E, "bad-enum", "a string is not one of the allowed values"},
    {Check::duplicate_key, "S009", E, "duplicate-key", "an object repeats a key"},
    {Check::missing_layer_type, "S010", W, "missing-layer-type",
     "workloads have no layer_type (public quirk Q4); taken as dt"},
    {Check::short_box, "S011", W, "short-box", "a box has 3 entries instead of 4"},
    {Check::null_source, "S012", W, "null-source", "buffer entries have \"source\": null"},
    {Check::nested_transfer_id, "S013", W, "nested-transfer-id",
     "a full-dialect transfer_id list is nested"},
    {Check::bits_not_bytes, "S014", W, "bits-not-bytes",
     "a public-dialect size in bits is not a whole number of bytes"},
    {Check::unsourced_input, "S015", W, "unsourced-input",
     "input tensors not all sourced (public quirk Q1); the rest read from DRAM as network input"},
    {Check::bad_mesh, "I001", E, "bad-mesh", "xlen / ylen do not describe a usable mesh"},
    {Check::core_outside_mesh, "I002", E, "core-outside-mesh",
     "a core key or core reference is outside the xlen*ylen mesh"},
    {Check::duplicate_core, "I003", E, "duplicate-core", "two top-level keys name the same core"},
    {Check::duplicate_workload_id, "I004", E, "duplicate-workload-id",
     "a workload_id repeats on one core"},
    {Check::workload_order, "I005", E, "workload-order",
     "workload_id is not ascending in file order on one core"},
    {Check::no_producer, "X001", E, "no-producer", "a consumed transfer_id has no producer"},
    {Check::multiple_producers, "X002", E, "multiple-producers",
     "a transfer_id is produced more than once"},
    {Check::producer_omits_consumer, "X003", E, "producer-omits-consumer",
     "the producer of a consumed transfer does not list the consumer as a destination"},
    {Check::destination_missing, "X004", E, "destination-missing",
     "a destination names a core or workload that does not exist"},
    {Check::destination_not_consumer, "X005", E, "destination-not-consumer",
     "a destination workload does not consume the transfer"},
    {Check::related_ofmap_dangling, "X006", E, "related-ofmap-dangling",
     "related_ofmap names no DRAM out entry"},
    {Check::related_ifmap_dangling, "X007", E, "related-ifmap-dangling",
     "related_ifmap names no DRAM in entry"},
    {Check::dram_in_unmatched, "X008", E, "dram-in-unmatched",
     "a DRAM in entry matches no ofmap with a DRAM destination"},
    {Check::dram_destination_unmatched, "X009", E, "dram-destination-unmatched",
     "an ofmap with a DRAM destination has no DRAM in entry"},
    {Check::source_mismatch, "X010", E, "source-mismatch",
     "a buffer source names a different producer than the transfer's"},
    {Check::weight_without_transfer, "X011", W, "weight-without-transfer",
     "a weight has no transfer_id (no producer recorded)"},
    {Check::buffer_transfer_mismatch, "X012", E, "buffer-transfer-mismatch",
     "a buffer entry's transfer_id list is not the union of its sources'"},
    {Check::outside_producer, "G001", E, "outside-producer",
     "what a consumer receives is not inside what its producer sent"},
    {Check::layer_overlap, "G002", E, "layer-overlap",
     "two workloads of one layer overlap in their ofmap boxes"},
    {Check::size_too_small, "G003", E, "size-too-small",
     "size is smaller than the box volume times bitwidth/8"},
    {Check::size_excess, "G004", W, "size-excess",
     "size exceeds what alignment and BatchNorm parameters explain"},
    {Check::ofmap_outside_workload, "G005", E, "ofmap-outside-workload",
     "an ofmap box lies outside its workload box"},
    {Check::weight_layout, "G006", E, "weight-layout",
     "a 4-D weight box is not [N, K, C, R*S] of its workload"},
    {Check::address_out_of_buffer, "B001", E, "address-out-of-buffer",
     "a tensor lies outside [0, buffersize)"},
    {Check::outside_ring_region, "B002", E, "outside-ring-region",
     "a tensor does not lie inside one ring_buffer_info region"},
    {Check::snapshot_overlap, "B003", E, "snapshot-overlap",
     "two tensors of one snapshot overlap in L2"},
    {Check::cur_wl_ifmap_mismatch, "B004", E, "cur-wl-ifmap-mismatch",
     "cur_wl_ifmap tensors are not the workload's ifmaps"},
    {Check::newly_added_mismatch, "B005", E, "newly-added-mismatch",
     "newly_added disagrees with the previous snapshot of the core"},
    {Check::wl0_overflow, "B006", E, "wl0-overflow", "a WL0 entry lies past the WL0 capacity"},
    {Check::wl0_overlap, "B007", E, "wl0-overlap", "two WL0 entries of one snapshot overlap"},
    {Check::bad_ring_regions, "B008", E, "bad-ring-regions",
     "ring_buffer_info regions are empty, overlap or leave [0, buffersize)"},
    {Check::tensor_identity, "B009", E, "tensor-identity",
     "a tensor kept from the previous snapshot, or listed twice in one, changed address, size "
     "or box"},
    {Check::result_without_tensor, "B010", E, "result-without-tensor",
     "a workload's result has no L2 tensor: no ofmap entry of its own, no same-core tensor "
     "receiving it"},
    {Check::early_write_overlap, "B011", E, "early-write-overlap",
     "a result written into the next snapshot's tensor overlaps what the writer's snapshot holds"},
    {Check::dependency_cycle, "O001", E, "dependency-cycle",
     "the dependency graph has a cycle: the chip would deadlock"},
    {Check::l2_grown, "A001", W, "l2-grown",
     "import: the schedule needs more L2 than configured; buffersize grown to fit"},
    {Check::l2_does_not_fit, "A002", E, "l2-does-not-fit",
     "import: the schedule does not fit the requested --buffersize"},
    {Check::model_file, "M001", E, "model-file",
     "the layer-semantics model file is unreadable, malformed or inconsistent"},
    {Check::unknown_layer, "M002", E, "unknown-layer",
     "a workload's layer_name is not an op of the model"},
    {Check::layer_type_mismatch, "M003", E, "layer-type-mismatch",
     "a workload's layer_type disagrees with its op's type"},
    {Check::ofmap_outside_layer, "M004", E, "ofmap-outside-layer",
     "a workload's ofmap box lies outside its op's output shape"},
    {Check::ifmap_box_mismatch, "M005", E, "ifmap-box-mismatch",
     "a workload's ifmap box is not what its ofmap box needs (halo, stride, padding, groups)"},
    {Check::input_source_mismatch, "M006", E, "input-source-mismatch",
     "an input tensor's sources do not match the op's inputs (producer, channels, coverage)"},
    {Check::weight_mismatch, "M007", E, "weight-mismatch",
     "a weight range or size does not match the op's weights for the workload's channels"},
    {Check::forbidden_split, "M008", E, "forbidden-split",
     "a workload splits a dimension the op's annotation forbids (reduced or unpartitionable)"},
    {Check::quirk_corrected, "M009", W, "quirk-corrected",
     "a known quirk of the scheduler's IR (Q1-Q4) was corrected from the model"},
    {Check::layer_not_covered, "M010", E, "layer-not-covered",
     "elements of a layer's output that no workload computes"},
    {Check::quirk_no_room, "M011", E, "quirk-no-room",
     "a quirk's correction needs L2 room the full-dialect file's allocation does not have"},
    {Check::plan_file, "P001", E, "plan-file",
     "an ARK plan file is unreadable or breaks the plan-file format's structure"},
    {Check::plan_unsupported, "P002", E, "plan-unsupported",
     "a plan holds an op gemini's executors do not run, or one the model does not have"},
    {Check::plan_incomplete, "P003", E, "plan-incomplete",
     "a plan's tasks leave part of a layer uncomputed, or read a layer before it is done"},
    {Check::hw_config, "H001", E, "hw-config",
     "a hardware configuration's component or parameter is unknown, malformed or out of range"},
}};

// A broken catalogue is a programming error: fail at start-up, loudly.
const bool kCatalogueOk = [] {
  for (std::size_t i = 0; i < kChecks.size(); ++i) {
    if (static_cast<std::size_t>(kChecks[i].check) != i) {
      std::cerr << "gemini: internal error: check catalogue out of order at " << i << "\n";
      std::abort();
    }
  }
  return true;
}();
}  // namespace

std::span<const CheckInfo> all_checks() { return kChecks; }
const CheckInfo& info(Check c) { return kChecks.at(static_cast<std::size_t>(c)); }
const char* to_string(Severity s) { return s == Severity::error ? "error" : "warning"; }

void Diagnostics::add(Diagnostic d) {
  Tally& t = tallies_[static_cast<std::size_t>(d.check)];
  if (t.count++ == 0) t.first = d;
  const bool error = d.severity == Severity::error;
  ++(error ? errors_ : warnings_);
  if ((error ? errors_ : warnings_) > (error ? max_errors_ : max_warnings_)) {
    ++(error ? dropped_errors_ : dropped_warnings_);
    return;
  }
  ++t.kept;
  items_.push_back(std::move(d));
}

void Diagnostics::report(Check c, std::string pointer, std::string message) {
  Diagnostic d;
  d.check = c;
  d.severity = info(c).severity;
  d.pointer = std::move(pointer);
  d.message = std::move(message);
  add(std::move(d));
}

void Diagnostics::report_at(Check c, std::uint64_t line, std::uint64_t column,
                            std::string message) {
  Diagnostic d;
  d.check = c;
  d.severity = info(c).severity;
  d.line = line;
  d.column = column;
  d.message = std::move(message);
  add(std::move(d));
}

boost::json::object diagnostic_json(const Diagnostic& d) {
  boost::json::object o;
  o["code"] = d.code();
  o["name"] = info(d.check).name;
  o["severity"] = to_string(d.severity);
  if (d.line) {
    o["line"] = *d.line;
    o["column"] = d.column.value_or(0);
  } else {
    o["pointer"] = d.pointer;
  }
  o["message"] = d.message;
  if (!d.file.empty()) o["file"] = d.file;
  if (d.given) o["given"] = true;
  return o;
}

void config_error(ConfigErrors& errors, std::string file, std::string pointer,
                  std::string message) {
  Diagnostic d;
  d.check = Check::hw_config;
  d.severity = Severity::error;
  d.file = std::move(file);
  d.pointer = std::move(pointer);
  d.message = std::move(message);
  errors.push_back(std::move(d));
}

std::string config_text(const Diagnostic& d) {
  std::string out = d.file;
  if (d.given) return out + ": " + d.message;  // its name says where
  if (d.line)
    out += ":" + std::to_string(*d.line) + ":" + std::to_string(d.column.value_or(0));
  else if (!d.pointer.empty())
    out += ":" + d.pointer;
  return out + ": " + d.message;
}

}  // namespace gemini::ir
