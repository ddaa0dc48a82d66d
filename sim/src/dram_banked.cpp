// "banked" DRAM: one channel of `banks` banks with an open-row policy,
// FR-FCFS scheduling at burst granularity and periodic all-bank refresh
// (precharging the open banks first). All
// times inside are in DRAM clocks (tck_ps); see docs/timing-model.md.
//
// Address map (row : bank : column): column = addr % row_bytes,
// bank = (addr / row_bytes) % banks, row = addr / (row_bytes * banks), so a
// sequential stream fills a row, then moves to the next bank.
//
// Per burst of the chosen request, on bank b, arrival a:
//   row hit:      col = max(a, ready_col[b])
//   closed bank:  act = max(a, ready_act[b]);            col = act + tRCD
//   row conflict: act = max(a, ready_pre[b]) + tRP;      col = act + tRCD
//   data = max(col + CL (CWL for writes), bus_free + turnaround)
//   bus_free = data + tBURST; ready_col[b] = data - CL + tCCD
//   ready_pre[b] = max(act + tRAS, write ? data + tBURST + tWR : ...)
// The controller commits bursts until the data bus is booked `commit_window`
// clocks ahead of now, then sleeps until half of that has drained; a request
// that arrives later is scheduled after what is committed (a command queue of
// that depth).
//
// Parameters (declared in configure()): `preset`, any of its fields
// overridden in `timing`, `commit_window` and `queue_depth`.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <vector>

#include "gemini/sim/dram_model.h"
#include "gemini/sim/dram_timing.h"
#include "gemini/sim/model_stall.h"

namespace gemini::sim {
namespace {

class BankedDram final : public DramModel {
 public:
  BankedDram(const DramTiming& t, std::int32_t window, std::int32_t depth)
      : t_(t),
        window_(window),
        depth_(static_cast<std::size_t>(depth)),
        banks_(static_cast<std::size_t>(t.banks)),
        row_shift_(log2_exact(t.row_bytes)),
        bank_shift_(log2_exact(t.banks)),
        pow2_(row_shift_ >= 0 && bank_shift_ >= 0),
        bank_mask_(static_cast<std::uint64_t>(t.banks) - 1),
        next_refresh_(t.trefi > 0 ? t.trefi : kNever) {}

  void enqueue(const DramRequest& r) override {
    if (!pending_.empty() && r.arrival < pending_.back().r.arrival) {
      std::fprintf(stderr, "gemini: internal error: DRAM requests out of arrival order\n");
      std::abort();
    }
    Pending p;
    p.r = r;
    p.next_addr = r.addr;
    locate(p);
    p.arrival = (r.arrival + t_.tck_ps - 1) / t_.tck_ps;
    p.next_report = r.chunk_bytes > 0 && !r.write ? std::min(r.chunk_bytes, r.bytes) : r.bytes;
    pending_.push_back(p);
    ++stats_.requests;
  }

  Tick advance(Tick now_ps, DramSink& sink) override {
    const std::int64_t now = now_ps / t_.tck_ps;
    while (!pending_.empty()) {
      // Booked a window ahead: sleep until half of it has drained (waking
      // when the horizon recedes by one burst would cost a wake per burst).
      if (bus_free_ > now + window_) return (bus_free_ - window_ / 2) * t_.tck_ps;
      std::int64_t t = std::max(now, bus_free_);
      const std::int64_t first = pending_.front().arrival;  // enqueued in arrival order
      if (first > t) {
        if (first > now + window_) return first * t_.tck_ps;
        t = first;
      }
      if (t >= next_refresh_) {
        refresh(t);
        continue;
      }
      // The picked request keeps the bus while its bursts hit the row it has
      // open: no older request can hit meanwhile (serving this row opens no
      // other), so this is what pick() would choose each time, without the
      // scan.
      const std::size_t i = pick(t);
      bool finished = burst(i, sink);
      while (!finished && bus_free_ <= now + window_ && std::max(now, bus_free_) < next_refresh_ &&
             banks_[pending_[i].bank].open_row == pending_[i].row)
        finished = hit_run(i, now, sink);
    }
    return kNever;
  }

  double peak_gbps() const override { return t_.peak_gbps(); }
  std::string name() const override { return "banked"; }
  void add_stats(StatGroup& g) const override {
    g.add("bursts", &rows_.bursts, Unit::count, "data bursts of its requests");
    g.add("row_hits", &rows_.hits, Unit::count, "bursts to an open row");
    g.add("row_misses", &rows_.misses, Unit::count, "bursts to a closed bank");
    g.add("row_conflicts", &rows_.conflicts, Unit::count, "bursts to a bank with another row open");
    g.add("refreshes", &rows_.refreshes, Unit::count, "refreshes");
  }

 private:
  // The model's own counters (DramStats has the ports' common ones).
  struct RowStats {
    std::int64_t bursts = 0, hits = 0, misses = 0, conflicts = 0, refreshes = 0;
  };
  RowStats rows_;
  struct Bank {
    std::int64_t open_row = -1;
    std::int64_t ready_act = 0, ready_col = 0, ready_pre = 0;
  };
  struct Pending {
    DramRequest r;
    std::uint64_t next_addr = 0;
    std::int64_t done = 0, next_report = 0;
    std::int64_t arrival = 0;  // clocks
    std::size_t bank = 0;      // of the next burst
    std::int64_t row = 0;
  };
  void locate(Pending& p) const {
    p.bank = bank_of(p.next_addr);
    p.row = row_of(p.next_addr);
  }

  std::size_t bank_of(std::uint64_t a) const {
    if (pow2_) return static_cast<std::size_t>((a >> row_shift_) & bank_mask_);
    return static_cast<std::size_t>((a / static_cast<std::uint64_t>(t_.row_bytes)) %
                                    static_cast<std::uint64_t>(t_.banks));
  }
  std::int64_t row_of(std::uint64_t a) const {
    if (pow2_) return static_cast<std::int64_t>(a >> (row_shift_ + bank_shift_));
    return static_cast<std::int64_t>(
        a / (static_cast<std::uint64_t>(t_.row_bytes) * static_cast<std::uint64_t>(t_.banks)));
  }
  static int log2_exact(std::int64_t v) {  // -1 unless a power of two
    if (v <= 0 || (v & (v - 1)) != 0) return -1;
    int k = 0;
    while ((std::int64_t{1} << k) < v) ++k;
    return k;
  }

  // Refreshes due by `t`: the open banks precharged (tRP, once they may
  // be), then tRFC; with every bank closed the refresh starts at once.
  // Refreshes that fell in an idle stretch long ago are counted but cost
  // nothing now.
  void refresh(std::int64_t t) {
    if (t - next_refresh_ >= t_.trefi) {
      const std::int64_t n = (t - next_refresh_) / t_.trefi;
      next_refresh_ += n * t_.trefi;
      rows_.refreshes += n;
      for (Bank& b : banks_) b.open_row = -1;
    }
    std::int64_t start = std::max(next_refresh_, bus_free_);
    bool open = false;
    for (const Bank& b : banks_)
      if (b.open_row >= 0) {
        start = std::max(start, b.ready_pre);
        open = true;
      }
    for (Bank& b : banks_) {
      b.open_row = -1;
      b.ready_act = start + (open ? t_.trp : 0) + t_.trfc;
    }
    next_refresh_ += t_.trefi;
    ++rows_.refreshes;
  }

  // FR-FCFS over the controller's queue (the oldest `queue_depth` requests):
  // the oldest arrived request whose next burst hits an open row, else the
  // oldest arrived request.
  std::size_t pick(std::int64_t t) const {
    std::size_t oldest = pending_.size();
    const std::size_t n = std::min(pending_.size(), depth_);
    for (std::size_t i = 0; i < n; ++i) {
      const Pending& p = pending_[i];
      if (p.arrival > t) continue;
      if (banks_[p.bank].open_row == p.row) return i;
      if (oldest == pending_.size()) oldest = i;
    }
    return oldest;
  }

  // Row hits of request i in a row: burst j's data starts at d0 + j * step
  // (step = max(tCCD, tBURST)), so the bursts up to the first limit -- the
  // row's end, the request's end, its next progress report, the commit
  // horizon, the next refresh -- are booked at once, exactly as burst() would
  // book them one by one. True when the request finished.
  bool hit_run(std::size_t i, std::int64_t now, DramSink& sink) {
    Pending& p = pending_[i];
    Bank& bk = banks_[p.bank];
    const bool write = p.r.write;
    const std::int64_t lat = write ? t_.cwl : t_.cl;
    const std::int64_t step = std::max(t_.tccd, t_.tburst);
    const std::int64_t d0 = std::max(std::max(p.arrival, bk.ready_col) + lat, bus_free_);
    const std::int64_t bb = t_.burst_bytes;
    auto bursts_for = [&](std::int64_t bytes) { return (bytes + bb - 1) / bb; };
    std::int64_t k =
        bursts_for(t_.row_bytes - static_cast<std::int64_t>(
                                      p.next_addr % static_cast<std::uint64_t>(t_.row_bytes)));
    k = std::min(k, bursts_for(p.r.bytes - p.done));
    k = std::min(k, std::max<std::int64_t>(1, bursts_for(p.next_report - p.done)));
    // Burst j >= 1 is booked only while the bus is free by now + window and
    // before the next refresh: d0 + (j - 1) * step + tBURST within the limit.
    auto upto = [&](std::int64_t limit) {  // bursts j = 0 .. J with that end <= limit
      const std::int64_t room = limit - d0 - t_.tburst;
      return room < 0 ? std::int64_t{1} : room / step + 2;
    };
    k = std::min(k, upto(now + window_));
    if (next_refresh_ != kNever) k = std::min(k, upto(next_refresh_ - 1));
    k = std::max<std::int64_t>(k, 1);
    const std::int64_t last = d0 + (k - 1) * step;
    const std::int64_t end = last + t_.tburst;
    bk.ready_col = last - lat + t_.tccd;
    if (write) bk.ready_pre = std::max(bk.ready_pre, end + t_.twr);
    bus_free_ = end;
    rows_.hits += k;
    return advance_request(i, k, end, sink);
  }

  // `k` bursts of request i are done, the last ending at `end` (clocks):
  // counts them, reports progress, removes the request when it is complete.
  bool advance_request(std::size_t i, std::int64_t k, std::int64_t end, DramSink& sink) {
    if (end > kTickLimit / t_.tck_ps)
      throw ModelStall(past_clock_text(
          "dram.model \"banked\"", "a burst", static_cast<double>(end) * static_cast<double>(t_.tck_ps),
          "its clock is " + std::to_string(t_.tck_ps) + " ps, a burst " + std::to_string(t_.tburst) +
              " clocks, a refresh " + std::to_string(t_.trfc) + " clocks every " +
              std::to_string(t_.trefi) + " (dram.timing)"));
    Pending& p = pending_[i];
    const bool write = p.r.write;
    const std::int64_t bb = t_.burst_bytes;
    rows_.bursts += k;
    stats_.data_busy += static_cast<Tick>(k * t_.tburst) * t_.tck_ps;
    const std::int64_t n = std::min(k * bb, p.r.bytes - p.done);
    p.done += n;
    p.next_addr += static_cast<std::uint64_t>(k * bb);
    locate(p);
    (write ? stats_.bytes_written : stats_.bytes_read) += n;
    if (p.done >= p.next_report) {
      sink.progress(p.r.tag, p.done, end * t_.tck_ps);
      p.next_report = std::min(
          p.r.bytes, p.next_report + (p.r.chunk_bytes > 0 && !write ? p.r.chunk_bytes : p.r.bytes));
    }
    if (p.done < p.r.bytes) return false;
    pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(i));
    return true;
  }

  // One burst of request i; true when that finished (and removed) it.
  bool burst(std::size_t i, DramSink& sink) {
    Pending& p = pending_[i];
    const bool write = p.r.write;
    Bank& bk = banks_[p.bank];
    const std::int64_t row = p.row;
    std::int64_t col = 0;
    if (bk.open_row == row) {
      ++rows_.hits;
      col = std::max(p.arrival, bk.ready_col);
    } else {
      std::int64_t act = 0;
      if (bk.open_row >= 0) {
        ++rows_.conflicts;
        act = std::max(p.arrival, bk.ready_pre) + t_.trp;
      } else {
        ++rows_.misses;
        act = std::max(p.arrival, bk.ready_act);
      }
      bk.open_row = row;
      bk.ready_pre = act + t_.tras;
      col = std::max(act + t_.trcd, bk.ready_col);
    }
    const std::int64_t lat = write ? t_.cwl : t_.cl;
    const std::int64_t turn = (any_ && write != last_write_) ? (write ? t_.trtw : t_.twtr) : 0;
    const std::int64_t data = std::max(col + lat, bus_free_ + turn);
    bk.ready_col = data - lat + t_.tccd;
    const std::int64_t end = data + t_.tburst;
    if (write) bk.ready_pre = std::max(bk.ready_pre, end + t_.twr);
    bus_free_ = end;
    last_write_ = write;
    any_ = true;
    return advance_request(i, 1, end, sink);
  }

  DramTiming t_;
  std::int64_t window_;
  std::size_t depth_;
  std::vector<Bank> banks_;
  int row_shift_, bank_shift_;
  bool pow2_;  // row_bytes and banks are powers of two: shifts, not divisions
  std::uint64_t bank_mask_;
  std::deque<Pending> pending_;  // in arrival order
  std::int64_t bus_free_ = 0;
  std::int64_t next_refresh_;
  bool last_write_ = false, any_ = false;
};

// Declares and reads the model's parameters.
DramBuilder configure(ParamReader& r) {
  const std::string preset = r.param<std::string>("preset")
                                 .choices(dram_preset_names())
                                 .fallback("ddr4_3200")
                                 .describe("the channel's timing (timing overrides any field)")
                                 .get();
  const DramTiming t = read_dram_timing(r, *dram_preset(preset));
  const std::int32_t window = r.param<std::int32_t>("commit_window")
                                  .unit("DRAM clocks")
                                  .range(1, 1 << 20)
                                  .fallback(128)
                                  .describe("how far ahead the controller commits commands")
                                  .get();
  const std::int32_t depth = r.param<std::int32_t>("queue_depth")
                                 .unit("requests")
                                 .range(1, 1 << 16)
                                 .fallback(32)
                                 .describe("the oldest requests FR-FCFS chooses among")
                                 .get();
  return [=](const DramContext&, std::string&) -> std::unique_ptr<DramModel> {
    return std::make_unique<BankedDram>(t, window, depth);
  };
}

}  // namespace

DramModelInfo banked_dram_model() {
  return {"banked", "one channel: banks, open rows, FR-FCFS, refresh (the preset's timing)",
          configure};
}

}  // namespace gemini::sim
