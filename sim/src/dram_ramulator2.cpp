// "ramulator2" DRAM: one Ramulator 2 memory system per port, driven through
// its GEM5 (external simulator) frontend. Timing (docs/timing-model.md,
// "ramulator2"): the memory system is ticked once per DRAM clock (`tick`
// ps). A request that arrives at time a is split into accesses of the
// standard's granularity (Ramulator's prefetch x channel width), sent in
// address order for the first clock c with c x tick >= a, so that its first
// command can issue at clock c, as banked's can; a send the controller's queue
// refuses (32 reads, 32 writes) is retried before each later tick, in order
// (back-pressure: the port's own queue holds the rest). A read's bytes are
// done when Ramulator calls back (its data's last beat: the read command's
// clock + CL + burst); a write's when the controller has accepted its last
// access (a posted write, as the gem5 wrapper acknowledges it; Ramulator
// drains its write queue by its watermarks). Addresses are the request's
// byte addresses, mapped by Ramulator's address mapper.
//
// The model wakes every clock while anything is queued or in flight, and
// not at all when idle: an idle stretch is ticked through at the next
// arrival (refreshes keep their clocks). Statistics come from a controller
// plugin of ours (GeminiProbe) that sees every command Ramulator issues:
// row hits, misses and conflicts, counted as Ramulator's controller counts
// them, and refreshes.
#include "dram_ramulator2.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <exception>
#include <initializer_list>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "base/base.h"
#include "child_probe.h"
#include "dram/dram.h"
#include "dram_controller/controller.h"
#include "dram_controller/plugin.h"
#include "frontend/frontend.h"
#include "gemini/sim/model_stall.h"
#include "memory_system/memory_system.h"

namespace gemini::sim {

class Ramulator2Dram;

// The model's own counters (registered by register_stats).
struct Ramulator2Counters {
  std::int64_t accesses = 0;  // sent to Ramulator
  std::int64_t row_hits = 0, row_misses = 0, row_conflicts = 0, refreshes = 0;
  std::int64_t refused = 0;           // sends the full queue refused (retried)
  std::int64_t in_flight_clocks = 0;  // sum over clocks of accesses sent, not done
  std::int64_t busy_clocks = 0;       // clocks with an access in flight
  std::int64_t clocks = 0;            // clocks ticked
};

namespace {
// The counters of the model being built: the probe, built inside
// Factory::create_memory_system, takes them in init().
thread_local Ramulator2Counters* g_building = nullptr;
}  // namespace

}  // namespace gemini::sim

namespace Ramulator {

// Sees every command the controller issues (a controller plugin's update()
// runs before the command is issued): a request's first command classifies
// it as a row hit, conflict or miss; a refresh command counts a refresh.
class GeminiProbe final : public IControllerPlugin, public Implementation {
  RAMULATOR_REGISTER_IMPLEMENTATION(IControllerPlugin, GeminiProbe, "GeminiProbe",
                                    "gemini's counters of one port.")
 public:
  void init() override {
    counters_ = gemini::sim::g_building;
    m_ctrl = cast_parent<IDRAMController>();
  }
  void setup(IFrontEnd*, IMemorySystem*) override {
    dram_ = m_ctrl->m_dram;
    row_level_ = dram_->m_levels("row");
  }
  void update(bool found, ReqBuffer::iterator& it) override {
    if (!found || !counters_) return;
    const bool access = it->type_id == Request::Type::Read || it->type_id == Request::Type::Write;
    if (access && !it->is_stat_updated) {
      // Classified by the request's first command, which is what the
      // controller's own row check decides: an activate (a command on a
      // row), a miss; a precharge, a conflict; else (a read, a write,
      // LPDDR5's CAS sync), a hit. The controller's own check is skipped
      // (is_stat_updated): for LPDDR5 it exits the process when it meets a
      // bank between its two activate steps (its row-hit check knows no
      // "Pre-Opened" state), and gemini reads these counters, not its.
      if (dram_->m_command_scopes(it->command) == row_level_)
        ++counters_->row_misses;
      else if (dram_->m_command_meta(it->command).is_closing)
        ++counters_->row_conflicts;
      else
        ++counters_->row_hits;
      it->is_stat_updated = true;
    }
    if (it->command != it->final_command) return;
    if (!access && dram_->m_command_meta(it->command).is_refreshing)
      ++counters_->refreshes;
  }

 private:
  gemini::sim::Ramulator2Counters* counters_ = nullptr;
  IDRAM* dram_ = nullptr;
  int row_level_ = -1;
};

}  // namespace Ramulator

namespace gemini::sim {

class Ramulator2Dram final : public DramModel {
 public:
  // Builds the memory system; throws what Ramulator throws.
  explicit Ramulator2Dram(const Ramulator2Config& c) : label_(c.label), tick_(c.tick_ps) {
    const YAML::Node config = YAML::Load(c.yaml);
    g_building = &own_;
    struct Reset {
      ~Reset() { g_building = nullptr; }
    } reset;
    frontend_ = Ramulator::Factory::create_frontend(config);
    memory_ = Ramulator::Factory::create_memory_system(config);
    frontend_->connect_memory_system(memory_);
    memory_->connect_frontend(frontend_);
    Ramulator::IDRAM* dram = memory_->get_ifce<Ramulator::IDRAM>();
    if (tick_ <= 0) tick_ = dram->m_timing_vals("tCK_ps");
    access_ = std::int64_t{dram->m_internal_prefetch_size} * dram->m_channel_width / 8;
    const char* bl = dram->m_timings.contains("nBL") ? "nBL" : "nBL16";
    burst_clocks_ = dram->m_timing_vals(bl);
    channels_ = dram->get_level_size("channel");
    if (tick_ <= 0 || access_ <= 0 || burst_clocks_ <= 0 || channels_ <= 0)
      throw std::runtime_error("the memory system reports no clock, access size or burst");
    for (int i = 0; i < static_cast<int>(dram->m_timings.size()); ++i)
      timings_.emplace_back(std::string(dram->m_timings(i)), dram->m_timing_vals(i));
    for (int i = 0; i < static_cast<int>(dram->m_levels.size()); ++i)
      levels_.emplace_back(std::string(dram->m_levels(i)), dram->m_organization.count[i]);
    watch_.set_bound(stall_bound());
  }

  // The timing relations Ramulator assumes and does not check, on the
  // values its standard resolved (presets, then every override): "" when
  // they hold.
  std::string timing_problem() const;

  // Ramulator frees nothing it builds below the two top-level objects; those
  // at least go with the port.
  ~Ramulator2Dram() override {
    delete dynamic_cast<Ramulator::Implementation*>(frontend_);
    delete dynamic_cast<Ramulator::Implementation*>(memory_);
  }
  Ramulator2Dram(const Ramulator2Dram&) = delete;
  Ramulator2Dram& operator=(const Ramulator2Dram&) = delete;

  void enqueue(const DramRequest& r) override {
    Open o;
    o.r = r;
    o.next_report = r.chunk_bytes > 0 && !r.write ? std::min(r.chunk_bytes, r.bytes) : r.bytes;
    const auto slot = static_cast<std::uint32_t>(alloc(o));
    Feed f{slot, (r.arrival + tick_ - 1) / tick_, r.addr, r.bytes};
    (r.write ? writes_ : reads_).push_back(f);
    ++stats_.requests;
  }

  Tick advance(Tick now, DramSink& sink) override {
    sink_ = &sink;
    now_ = now;
    const std::int64_t last = now / tick_ + 1;  // Ramulator's clock at `now`
    try {
      while (clk_ < last) {
        const std::int64_t c = clk_ + 1;
        if (idle()) {
          // Nothing to send before the next arrival: tick through quietly.
          const std::int64_t next = std::min(last, next_arrival());
          while (clk_ < next) step();
          continue;
        }
        feed(reads_, c);
        feed(writes_, c);
        step();
        if (watch_.stalled(clk_, !idle())) stalled();
      }
    } catch (const ModelStall&) {
      throw;
    } catch (const std::exception& e) {
      // Ramulator stops on what its configuration cannot do (a refresh its
      // full queue refuses): a diagnostic about the configuration.
      throw ModelStall("dram.model \"ramulator2\" (" + label_ + "): Ramulator 2 stopped at DRAM clock " +
                       std::to_string(clk_) + ": " + e.what() + " (its timings: " + timing_list() +
                       ")");
    }
    sink_ = nullptr;
    if (!idle()) return clk_ * tick_;  // Ramulator's next clock
    const std::int64_t next = next_arrival();
    return next == kNoArrival ? kNever : std::max(next, clk_) * tick_;
  }

  double peak_gbps() const override {
    return static_cast<double>(access_ * channels_) /
           (static_cast<double>(burst_clocks_) * static_cast<double>(tick_) / 1000.0);
  }
  std::string name() const override { return "ramulator2"; }

  void add_stats(StatGroup& g) const override {
    g.add("bursts", &own_.accesses, Unit::count,
          "accesses of the standard's granularity sent to Ramulator");
    g.add("row_hits", &own_.row_hits, Unit::count,
          "accesses whose first command was a read or write: to an open row");
    g.add("row_misses", &own_.row_misses, Unit::count,
          "accesses whose first command was an activate: to a closed bank");
    g.add("row_conflicts", &own_.row_conflicts, Unit::count,
          "accesses whose first command was a precharge: another row open");
    g.add("refreshes", &own_.refreshes, Unit::count, "refresh commands issued");
    g.add("queue_refusals", &own_.refused, Unit::count,
          "sends the controller's full queue refused, retried a clock later");
    g.add("in_flight_clocks", &own_.in_flight_clocks, Unit::count,
          "accesses in Ramulator summed over its clocks: / busy_clocks = mean occupancy");
    g.add("busy_clocks", &own_.busy_clocks, Unit::count,
          "DRAM clocks with an access in flight: bytes / (this x tick) = achieved bandwidth "
          "while busy");
    g.add("clocks", &own_.clocks, Unit::count, "DRAM clocks ticked");
  }

  std::int64_t access_bytes() const { return access_; }
  Tick tick_ps() const { return tick_; }

 private:
  static constexpr std::int64_t kNoArrival = std::numeric_limits<std::int64_t>::max();
  struct Open {
    DramRequest r;
    std::int64_t done = 0, next_report = 0;
    bool live = false;
  };
  struct Feed {  // a request's accesses not yet sent
    std::uint32_t slot;
    std::int64_t arrival;  // clock
    std::uint64_t next;    // address of the next access
    std::int64_t left;     // bytes
  };

  std::size_t alloc(const Open& o) {
    std::size_t i;
    if (!free_.empty()) {
      i = free_.back();
      free_.pop_back();
    } else {
      i = open_.size();
      open_.emplace_back();
    }
    open_[i] = o;
    open_[i].live = true;
    return i;
  }

  bool idle() const { return in_flight_ == 0 && !ready(reads_) && !ready(writes_); }
  // Arrived by the next clock's time (its commands may issue then).
  bool ready(const std::deque<Feed>& q) const {
    return !q.empty() && q.front().arrival <= clk_;
  }
  std::int64_t next_arrival() const {
    std::int64_t n = kNoArrival;
    if (!reads_.empty()) n = std::min(n, reads_.front().arrival);
    if (!writes_.empty()) n = std::min(n, writes_.front().arrival);
    return n;
  }

  // Sends what has arrived by Ramulator's clock c (our clock c - 1), in
  // order, until the controller refuses one.
  void feed(std::deque<Feed>& q, std::int64_t c) {
    while (!q.empty() && q.front().arrival <= c - 1) {
      Feed& f = q.front();
      const bool write = open_[f.slot].r.write;
      const std::uint32_t slot = f.slot;
      const std::int64_t n = std::min(f.left, access_);
      const auto addr = static_cast<Ramulator::Addr_t>(f.next & kAddrMask);
      bool ok = false;
      if (write) {
        ok = frontend_->receive_external_requests(Ramulator::Request::Type::Write, addr, 0, {});
      } else {
        ok = frontend_->receive_external_requests(
            Ramulator::Request::Type::Read, addr, 0,
            [this, slot, n](Ramulator::Request&) { done(slot, n, false); });
      }
      if (!ok) {
        ++own_.refused;
        return;
      }
      watch_.progressed(clk_);
      ++own_.accesses;
      f.next += static_cast<std::uint64_t>(access_);
      f.left -= n;
      ++in_flight_;
      if (write) acks_.push_back({slot, n});  // acknowledged at clock c
      if (f.left <= 0) q.pop_front();
    }
  }

  // One DRAM clock: the accesses sent for it are acknowledged (writes) and
  // the reads whose data is complete call back.
  void step() {
    own_.in_flight_clocks += in_flight_;
    if (in_flight_ > 0) ++own_.busy_clocks;
    ++own_.clocks;
    ++clk_;  // (reads call back inside tick(), at this clock)
    memory_->tick();
    for (const Ack& a : acks_) done(a.slot, a.bytes, true);
    acks_.clear();
  }

  void done(std::uint32_t slot, std::int64_t n, bool write) {
    --in_flight_;
    watch_.progressed(clk_);
    Open& o = open_[slot];
    const Tick t = std::max(now_, (clk_ - 1) * tick_);
    o.done += n;
    stats_.data_busy += burst_clocks_ * tick_;
    (write ? stats_.bytes_written : stats_.bytes_read) += n;
    if (o.done < o.next_report) return;
    if (sink_) sink_->progress(o.r.tag, o.done, t);
    if (o.done >= o.r.bytes) {
      o.live = false;
      free_.push_back(slot);
      return;
    }
    o.next_report =
        std::min(o.r.bytes, o.next_report + (o.r.chunk_bytes > 0 ? o.r.chunk_bytes : o.r.bytes));
  }

  // Ramulator's addresses are signed: the port's byte address below 2^62.
  static constexpr std::uint64_t kAddrMask = (std::uint64_t{1} << 62) - 1;
  struct Ack {
    std::uint32_t slot;
    std::int64_t bytes;
  };

  // A timing value by Ramulator's name (the first of `names` the standard
  // has); -1 when it has none.
  std::int64_t timing(std::initializer_list<const char*> names) const {
    for (const char* n : names)
      for (const auto& [k, v] : timings_)
        if (k == n) return v;
    return -1;
  }
  // Refreshes this often count towards a stall's bound; rarer ones (refresh
  // off: 2^30) do not.
  std::int64_t refresh_interval() const {
    const std::int64_t r = timing({"nREFI"});
    return r > 0 && r < (std::int64_t{1} << 29) ? r : 0;
  }
  // No access accepted and no read done for longer than this, with work
  // waiting, is impossible in a sound configuration: two refresh intervals
  // and every timing of the standard many times over (a queue of accesses
  // that each conflict, a write drain, a refresh).
  std::int64_t stall_bound() const {
    std::int64_t sum = 0;
    for (const auto& [k, v] : timings_)
      if (k != "rate" && k != "tCK_ps" && k != "nREFI") sum += std::clamp<std::int64_t>(v, 0, 1 << 20);
    return 1000 + 64 * sum + 2 * refresh_interval();
  }
  std::string timing_list() const {
    std::string out;
    for (const char* k : {"nREFI", "nRFC", "nRFC1", "nRFCab", "nRP", "nRPab", "nRCD", "nRCDRD",
                          "nCL", "nBL", "nBL16"}) {
      const std::int64_t v = timing({k});
      if (v >= 0 || k == std::string("nREFI"))
        out += (out.empty() ? "" : ", ") + std::string(k) + " " + std::to_string(v);
    }
    return out;
  }
  [[noreturn]] void stalled() const {
    throw ModelStall(
        "dram.model \"ramulator2\" (" + label_ + "): Ramulator 2 makes no progress: no access " +
        "accepted and no read done for " + std::to_string(watch_.since(clk_)) +
        " DRAM clocks (at clock " + std::to_string(clk_) + "; a sound configuration serves one within " +
        std::to_string(watch_.bound()) + ") while " + std::to_string(in_flight_) +
        " accesses are in it and " + std::to_string(reads_.size() + writes_.size()) +
        " requests wait at the port. Its timings: " + timing_list());
  }

  Ramulator2Counters own_;
  std::string label_;
  std::vector<std::pair<std::string, std::int64_t>> timings_;  // resolved, by name
  std::vector<std::pair<std::string, std::int64_t>> levels_;   // the organisation's counts
  StallWatch watch_;
  Ramulator::IFrontEnd* frontend_ = nullptr;
  Ramulator::IMemorySystem* memory_ = nullptr;
  Tick tick_;
  std::int64_t access_ = 0, burst_clocks_ = 0, channels_ = 1;
  // Ramulator's clock n (ticks done) is our clock n - 1, at (n - 1) x tick
  // ps: a request that arrives at clock k is sent before tick k + 1, when
  // its first command may issue (banked's timing of the same request).
  std::int64_t clk_ = 0;
  Tick now_ = 0;
  std::vector<Open> open_;
  std::vector<std::size_t> free_;
  std::deque<Feed> reads_, writes_;
  std::vector<Ack> acks_;
  std::int64_t in_flight_ = 0;  // accesses sent, not yet done
  DramSink* sink_ = nullptr;
};

std::string Ramulator2Dram::timing_problem() const {
  for (const auto& [level, count] : levels_)
    if (count < 1)
      return "its organisation has " + std::to_string(count) + " of level \"" + level +
             "\": every level needs at least one";
  for (const auto& [k, v] : timings_)
    if (v < 0 && k != "nREFI")
      return "timing " + k + " is " + std::to_string(v) + ": Ramulator's timings are clocks, 0 or more";
  const std::int64_t refi = timing({"nREFI"}), rfc = timing({"nRFC", "nRFC1", "nRFCab"});
  if (refi <= 0 || refi >= (std::int64_t{1} << 29) || rfc < 0) return "";
  // Between two refreshes the controller closes every bank (nRP), refreshes
  // (nRFC), and must still open a row and read a burst, or no request is
  // ever served.
  const std::int64_t rp = timing({"nRP", "nRPab"}), rcd = timing({"nRCD", "nRCDRD"});
  const std::int64_t cl = timing({"nCL"}), bl = timing({"nBL", "nBL16"});
  const std::int64_t need = rfc + std::max<std::int64_t>(rp, 0) + std::max<std::int64_t>(rcd, 0) +
                            std::max<std::int64_t>(cl, 0) + std::max<std::int64_t>(bl, 0);
  if (refi > need) return "";
  return "nREFI " + std::to_string(refi) + " leaves no time to serve a request between refreshes: "
         "it must exceed the refresh and one access, nRFC + nRP + nRCD + nCL + nBL = " +
         std::to_string(rfc) + " + " + std::to_string(rp) + " + " + std::to_string(rcd) + " + " +
         std::to_string(cl) + " + " + std::to_string(bl) + " = " + std::to_string(need) + " clocks";
}

std::string probe_ramulator2(const Ramulator2Config& c) {
  const ChildResult r = run_in_child([&c] {
    std::string error;
    const std::unique_ptr<DramModel> m = make_ramulator2_model(c, error);
    if (!m) {
      std::printf("%s\n", error.c_str());
      return 2;
    }
    // Timings that cannot serve: the caller's check words it.
    if (!ramulator2_timing_problem(*m).empty()) return 0;
    struct Quiet : DramSink {
      void progress(std::uint64_t, std::int64_t, Tick) override {}
    } sink;
    for (std::uint64_t i = 0; i < 8; ++i)
      m->enqueue({i, i % 2 == 1, i << 16, 256, 0, 0});
    try {
      Tick now = 0;
      for (int step = 0; step < 100000; ++step) {
        const Tick next = m->advance(now, sink);
        if (next == kNever) return 0;
        now = next;
      }
    } catch (const ModelStall& e) {
      std::printf("%s\n", e.what());
      return 3;
    }
    return 0;
  });
  return r.ok ? "" : child_refusal("Ramulator 2", r);
}

std::string ramulator2_timing_problem(const DramModel& m) {
  const auto* r = dynamic_cast<const Ramulator2Dram*>(&m);
  return r ? r->timing_problem() : std::string();
}

std::unique_ptr<DramModel> make_ramulator2_model(const Ramulator2Config& c, std::string& error) {
  try {
    return std::make_unique<Ramulator2Dram>(c);
  } catch (const std::exception& e) {
    error = e.what();
  } catch (...) {
    error = "an unknown exception";
  }
  return nullptr;
}

namespace {

DramBuilder configure(ParamReader& r) {
  const Ramulator2Config c = read_ramulator2_config(r);
  return [c](const DramContext&, std::string& error) { return make_ramulator2_model(c, error); };
}

}  // namespace

bool ramulator2_built() { return true; }

DramModelInfo ramulator2_dram_model() {
  return {"ramulator2",
          "Ramulator 2 (commit be93be7): one memory system per port, banked's presets or "
          "Ramulator's standards",
          configure};
}

}  // namespace gemini::sim
