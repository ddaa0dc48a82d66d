#pragma once
// DRAM channel timing models (docs/timing-model.md, "DRAM"), registered by
// name with the parameters each declares. Plain C++ in integer picoseconds,
// no SystemC: the DRAM controller module drives one model per port, and
// unit tests drive them directly.
//
// Contract: requests are enqueued with the earliest time the controller may
// serve them; advance(now) commits scheduling decisions for requests already
// enqueued, reporting through the sink when bytes of a request are done, and
// returns when it wants to be called again (kNever when nothing is pending).
// A model never reports a time earlier than `now`.

#include <boost/json/object.hpp>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gemini/ir/hw_config.h"
#include "gemini/sim/params.h"
#include "gemini/sim/stats.h"

namespace gemini::sim {

using Tick = std::int64_t;  // picoseconds
inline constexpr Tick kNever = std::numeric_limits<Tick>::max();

// static_cast<Tick>(std::ceil(x)) for |x| < 2^63, inline: std::ceil is a
// call into libm on targets without SSE4.1, and the timing models round up
// once per packet and link.
inline Tick ceil_tick(double x) {
  const auto t = static_cast<Tick>(x);  // toward zero
  return static_cast<double>(t) < x ? t + 1 : t;
}

struct DramRequest {
  std::uint64_t tag = 0;  // the caller's id, echoed in progress()
  bool write = false;
  std::uint64_t addr = 0;
  std::int64_t bytes = 0;
  Tick arrival = 0;              // not served before this
  std::int64_t chunk_bytes = 0;  // reads report progress every chunk (0: only at the end)
};

class DramSink {
 public:
  virtual ~DramSink() = default;
  // `done` bytes (cumulative) of request `tag` are at the port (read) or
  // written (write) at time `t`; the last call has done == bytes.
  virtual void progress(std::uint64_t tag, std::int64_t done, Tick t) = 0;
};

// The counters every model keeps (plain, read once at the end). A model
// with more (banks, rows, refreshes) keeps its own beside them and
// registers them in its register_stats override.
struct DramStats {
  std::int64_t bytes_read = 0, bytes_written = 0;
  std::int64_t requests = 0;
  Tick data_busy = 0;  // time the data bus carried data
};

class DramModel {
 public:
  virtual ~DramModel() = default;
  virtual void enqueue(const DramRequest& r) = 0;
  virtual Tick advance(Tick now, DramSink& sink) = 0;
  virtual double peak_gbps() const = 0;  // bytes per ns
  virtual std::string name() const = 0;
  const DramStats& stats() const { return stats_; }
  // Registers the model's counters in the port's group, tied to the
  // model's lifetime (stats.h): DramStats's, then the model's own
  // (add_stats).
  void register_stats(StatGroup& g) const;

 protected:
  // A model's counters beyond DramStats. Names the reports read when a
  // model has them: row_hits, row_misses and row_conflicts (per burst; the
  // row-hit rate), refreshes.
  virtual void add_stats(StatGroup& /*g*/) const {}
  DramStats stats_;

 private:
  StatOwner stat_owner_;
};

// What a model is built for: one port of a configuration on a mesh.
struct DramContext {
  double mesh_tops = 0;    // cores x MACs per cycle x 2 x clock, in TOPS
  std::int32_t ports = 1;  // the DRAM ports of the mesh
};

// Builds one port's model from the parameter values it holds; nullptr with
// `error` when they do not fit the context (a bandwidth per TOPS that comes
// to nothing on this mesh).
using DramBuilder =
    std::function<std::unique_ptr<DramModel>(const DramContext& ctx, std::string& error)>;

// A DRAM model by the name `dram.model` gives: `configure` declares and reads
// the model's parameters from the `dram` section (params.h) and returns the
// builder holding their values.
struct DramModelInfo {
  std::string name;
  std::string description;  // one line, for listings
  DramBuilder (*configure)(ParamReader& r) = nullptr;
};

// The registry. The built-in models are listed in dram_model.cpp (each
// defined in its own file); a model defined elsewhere, e.g. in a test,
// registers itself with a static DramModelRegistration. A name registered
// twice is an internal error.
void register_dram_model(DramModelInfo info);
struct DramModelRegistration {
  explicit DramModelRegistration(DramModelInfo info) { register_dram_model(std::move(info)); }
};
const std::vector<DramModelInfo>& dram_models();
// Their names, in registration order; `builtin_only`: the models gemini
// ships, not those a test registered.
std::vector<std::string> dram_model_names(bool builtin_only = false);
// Whether "ramulator2" is Ramulator 2 (cmake/ramulator2.cmake built it) or
// the stand-in that says why it is missing.
bool ramulator2_built();

// The `dram` section read: the ports' own parameters (every model has them)
// and the chosen model's builder.
struct DramSetup {
  std::string model;
  std::string placement;    // "west_east" or "west_east_row0"
  bool interleave = false;  // every access spread over all ports
  bool in_order = false;    // a core's reads reach DRAM in issue order
  DramBuilder build;
};
// Reads and checks the `dram` component ir keeps raw. Returns nullopt with
// one error per problem ("file:pointer: message") naming the model and the
// parameter: a bad value, or a key the chosen model does not have.
std::optional<DramSetup> read_dram_setup(const ir::RawComponent& dram, ir::ConfigErrors& errors);
// Every declared parameter: the ports' own (ParamInfo::model empty), then
// each model's.
std::vector<ParamInfo> dram_params();
// The model a `dram` section chooses, built for one port (unit tests drive
// models directly); nullptr with `error` when the section does not read.
std::unique_ptr<DramModel> make_dram_model(const boost::json::object& dram, const DramContext& ctx,
                                           std::string& error);

}  // namespace gemini::sim
