// "banked" DRAM: one channel of `banks` banks in `bank_groups` groups with
// an open-row policy, first-ready FR-FCFS scheduling of bursts, periodic
// all-bank refresh (precharging the open banks first) and a write policy.
// All times inside are in DRAM clocks (tck_ps); see docs/timing-model.md,
// "banked".
//
// Queues: a request is split into bursts (`burst_bytes`), which enter the
// controller's read queue (`queue_depth` bursts, at most 256: each burst
// served looks at all of them) in arrival order as it has room, each when
// its slot is freed (the port holds the rest): a queue of bursts, as
// Ramulator 2's and gem5's controllers have. Posted writes have
// their own queue (`write_queue` bursts).
//
// Address map: `address_mapping` (dram_address_map.h), RoBaRaCoCh or
// MOP4CLXOR (Ramulator 2's), by default the preset's.
//
// Per burst, on bank b of group g, in the queue from a:
//   row hit:      col >= max(a, ready_col[b])
//   closed bank:  act = max(a, ready_act[b]), then the ACT limits
//   row conflict: act = max(a, ready_pre[b]) + tRP, then the ACT limits
//                 ACT limits: the first time at least tRRD_S from every
//                 ACT booked (tRRD_L in g), before or after it, with no
//                 tFAW window holding five; ready_col[b] = act + tRCD
//   col >= last column command of this direction + tCCD_S (in g: tCCD_L)
//   read:  col >= end of the last write's data + tWTR (_L in its group, _S)
//   data = max(col + CL (CWL for writes), bus_free (+ tRTW after a read, for
//          a write)); col = data - CL (CWL)
//   bus_free = data + tBURST
//   ready_pre[b] = max(act + tRAS, read: col + tRTP, write: data + tBURST + tWR)
// Scheduling, first ready as Ramulator's and gem5's FR-FCFS: among the
// bursts of the queue that have arrived, the one whose column command can
// issue first (a row hit, or a miss or conflict whose bank was opened early
// enough), ties to a row hit, then to the oldest.
// The controller commits bursts until the data bus is booked `commit_window`
// clocks ahead of now, then sleeps until half of that has drained; a burst
// that arrives later is scheduled after what is committed.
//
// Writes (`write_policy`): "posted" -- a write is done when the write queue
// has taken its last burst; the controller serves reads until the queue
// holds more than `write_high_watermark` of it (or no read is waiting), then
// drains writes until it holds less than `write_low_watermark` while a read
// waits (the policy of Ramulator 2's and gem5's controllers);
// "when_written" -- reads and writes in one queue, a write done when its
// last data is written.
//
// Parameters (declared in configure()): `preset`, any of its fields
// overridden in `timing`, `address_mapping`, `commit_window`, `queue_depth`,
// `write_policy`, `write_queue`, `write_high_watermark`,
// `write_low_watermark`.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <string>
#include <vector>

#include "dram_address_map.h"
#include "gemini/sim/dram_model.h"
#include "gemini/sim/dram_timing.h"
#include "gemini/sim/model_stall.h"

namespace gemini::sim {
namespace {

constexpr std::int64_t kLongAgo = -(std::int64_t{1} << 40);

struct BankedKnobs {
  DramTiming t;
  std::string mapping;
  std::int32_t window = 128, depth = 32;
  bool posted = true;
  std::int32_t write_queue = 32;
  WriteWatermarks marks;
};

class BankedDram final : public DramModel {
 public:
  explicit BankedDram(const BankedKnobs& k)
      : t_(k.t),
        map_(DramAddressMap::kind(k.mapping), k.t),
        window_(k.window),
        posted_(k.posted),
        wq_high_(k.marks.high * k.write_queue),
        wq_low_(static_cast<std::int64_t>(std::ceil(k.marks.low * k.write_queue))),
        banks_(static_cast<std::size_t>(k.t.banks)),
        groups_(static_cast<std::size_t>(k.t.bank_groups), LastColumns{kLongAgo, kLongAgo}),
        next_refresh_(k.t.trefi > 0 ? k.t.trefi : kNever) {
    rq_.free.assign(static_cast<std::size_t>(k.depth), 0);
    if (posted_) wq_.free.assign(static_cast<std::size_t>(k.write_queue), 0);
  }

  void enqueue(const DramRequest& r) override {
    if (r.arrival < last_arrival_) {
      std::fprintf(stderr, "gemini: internal error: DRAM requests out of arrival order\n");
      std::abort();
    }
    last_arrival_ = r.arrival;
    Request q;
    q.r = r;
    q.arrival = (r.arrival + t_.tck_ps - 1) / t_.tck_ps;
    q.bursts = std::max<std::int64_t>(
        1, r.bytes / t_.burst_bytes + (r.bytes % t_.burst_bytes != 0 ? 1 : 0));
    q.next_report = r.chunk_bytes > 0 && !r.write ? std::min(r.chunk_bytes, r.bytes) : r.bytes;
    const std::uint64_t id = first_id_ + reqs_.size();
    reqs_.push_back(q);
    (posted_ && r.write ? wq_ : rq_).to_feed.push_back(id);
    ++stats_.requests;
    left_bursts_ += static_cast<double>(q.bursts);
  }

  Tick advance(Tick now_ps, DramSink& sink) override {
    const std::int64_t now = now_ps / t_.tck_ps;
    for (;;) {
      feed(rq_, now, sink);
      feed(wq_, now, sink);
      if (rq_.bursts.empty() && wq_.bursts.empty()) return kNever;
      // Booked a window ahead: sleep until half of it has drained (waking
      // when the horizon recedes by one burst would cost a wake per burst).
      if (bus_free_ > now + window_) return (bus_free_ - window_ / 2) * t_.tck_ps;
      std::int64_t t = std::max(now, bus_free_);
      if (!arrived(rq_, t) && !arrived(wq_, t)) {  // the first to arrive, later
        const std::int64_t first = std::min(earliest(rq_), earliest(wq_));
        if (first > now + window_) return first * t_.tck_ps;
        t = first;
      }
      if (t >= next_refresh_) {
        refresh(t);
        continue;
      }
      const Choice c = choose(t);
      if (!c.sure && t > now) return t * t_.tck_ps;
      Queue& q = take(c);
      serve(q, pick(q, t), sink);
    }
  }

  double peak_gbps() const override { return t_.peak_gbps(); }
  std::string name() const override { return "banked"; }
  void add_stats(StatGroup& g) const override {
    g.add("bursts", &rows_.bursts, Unit::count, "data bursts of its requests");
    g.add("row_hits", &rows_.hits, Unit::count, "bursts to an open row");
    g.add("row_misses", &rows_.misses, Unit::count, "bursts to a closed bank");
    g.add("row_conflicts", &rows_.conflicts, Unit::count, "bursts to a bank with another row open");
    g.add("refreshes", &rows_.refreshes, Unit::count, "refreshes");
    g.add("write_drains", &rows_.drains, Unit::count,
          "times the controller turned to draining posted writes");
  }

 private:
  // The model's own counters (DramStats has the ports' common ones).
  struct RowStats {
    std::int64_t bursts = 0, hits = 0, misses = 0, conflicts = 0, refreshes = 0, drains = 0;
  };
  struct Bank {
    std::int64_t open_row = -1;
    std::int64_t ready_act = 0, ready_col = 0, ready_pre = 0;
  };
  // The last column command per direction (0 read, 1 write).
  using LastColumns = std::array<std::int64_t, 2>;
  struct Request {
    DramRequest r;
    std::int64_t arrival = 0;  // clocks
    std::int64_t bursts = 0, fed = 0, served = 0;
    std::int64_t done = 0, next_report = 0;  // bytes
  };
  struct Burst {
    std::uint64_t req = 0;  // its request's id
    std::uint64_t addr = 0;
    std::size_t bank = 0, group = 0;
    std::int64_t row = 0;
    std::int64_t arrival = 0;  // clocks: in the queue from
    std::int64_t bytes = 0;
    bool write = false;
  };
  // A controller queue: the bursts in it, oldest first, its free slots
  // (since when, oldest first; the two together are its size) and the
  // requests whose bursts wait to enter it, in arrival order.
  struct Queue {
    std::deque<Burst> bursts;
    std::deque<std::int64_t> free;
    std::deque<std::uint64_t> to_feed;
  };

  Request& request(std::uint64_t id) { return reqs_[static_cast<std::size_t>(id - first_id_)]; }

  // Moves the waiting requests' bursts into q while it has free slots, each
  // in the queue from max(its request's arrival, its slot's). A posted
  // write is done when its last burst is in the write queue.
  void feed(Queue& q, std::int64_t now, DramSink& sink) {
    while (!q.to_feed.empty() && !q.free.empty()) {
      const std::uint64_t id = q.to_feed.front();
      Request& r = request(id);
      const std::int64_t at = std::max(r.arrival, q.free.front());
      q.free.pop_front();
      const std::int64_t off = r.fed * t_.burst_bytes;
      Burst b;
      b.req = id;
      b.addr = r.r.addr + static_cast<std::uint64_t>(off);
      const DramAddressMap::Location l = map_.locate(b.addr);
      b.bank = l.bank;
      b.group = map_.group(l.bank);
      b.row = l.row;
      b.arrival = at;
      b.bytes = std::max<std::int64_t>(0, std::min<std::int64_t>(t_.burst_bytes, r.r.bytes - off));
      b.write = r.r.write;
      q.bursts.push_back(b);
      if (++r.fed < r.bursts) continue;
      q.to_feed.pop_front();
      if (&q == &wq_) {  // posted: done now
        sink.progress(r.r.tag, r.r.bytes, std::max(at, now) * t_.tck_ps);
        r.served = r.bursts;
        retire();
      }
    }
  }
  // Drops the finished requests at the front (ids stay valid).
  void retire() {
    while (!reqs_.empty() && reqs_.front().served == reqs_.front().bursts) {
      reqs_.pop_front();
      ++first_id_;
    }
  }
  static std::int64_t earliest(const Queue& q) {
    std::int64_t first = kNever;
    for (const Burst& b : q.bursts) first = std::min(first, b.arrival);
    return first;
  }
  static bool arrived(const Queue& q, std::int64_t t) {
    if (!q.bursts.empty() && q.bursts.front().arrival <= t) return true;  // mostly
    for (const Burst& b : q.bursts)
      if (b.arrival <= t) return true;
    return false;
  }
  // The queue the controller serves at t: the write queue while draining
  // (Ramulator 2's and gem5's rule, header). `sure`: whether that choice
  // stands whatever reads arrive before t -- a drain that only the absence
  // of a waiting read starts or continues is decided at t itself, not
  // booked ahead of it, since a read enqueued meanwhile would change it.
  struct Choice {
    bool drain, sure;
  };
  Choice choose(std::int64_t t) const {
    if (!posted_) return {false, true};
    const bool reads = arrived(rq_, t), writes = arrived(wq_, t);
    const auto queued = static_cast<std::int64_t>(wq_.bursts.size());
    bool drain = draining_;
    if (!drain)
      drain = writes && (static_cast<double>(queued) > wq_high_ || !reads);
    else if (!writes || (reads && queued < wq_low_))
      drain = false;
    // Entering a drain is sure above the high watermark, continuing one at
    // or above the low watermark: no read can change either.
    const bool sure =
        !drain || (draining_ ? queued >= wq_low_ : static_cast<double>(queued) > wq_high_);
    return {drain, sure};
  }
  Queue& take(Choice c) {
    if (c.drain && !draining_) ++rows_.drains;
    // The controller turns the clock after its last column command; the
    // other queue's precharges and activates start then, not before.
    if (c.drain != draining_) mode_since_ = last_col_ + 1;
    draining_ = c.drain;
    return c.drain ? wq_ : rq_;
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

  // First ready (header): the burst of q to serve at t.
  std::size_t pick(const Queue& q, std::int64_t t) const {
    std::size_t best = q.bursts.size();
    std::int64_t best_col = 0;
    bool best_hit = false;
    // No column command can issue before the bus allows it: the oldest row
    // hit that issues then is the choice (a stream's next burst mostly),
    // found first among the hits alone.
    const std::int64_t floor =
        std::min(bus_free_ - t_.cl, bus_free_ + (any_ && !last_write_ ? t_.trtw : 0) - t_.cwl);
    for (std::size_t i = 0; i < q.bursts.size(); ++i) {
      const Burst& b = q.bursts[i];
      const Bank& bk = banks_[b.bank];
      if (b.arrival > t || bk.open_row != b.row) continue;
      if (column_at(b.group, b.write, std::max(b.arrival, bk.ready_col)).col <= floor) return i;
    }
    for (std::size_t i = 0; i < q.bursts.size(); ++i) {
      const Burst& b = q.bursts[i];
      if (b.arrival > t) continue;
      const bool hit = banks_[b.bank].open_row == b.row;
      const std::int64_t col = column_at(b.group, b.write, col_ready(b)).col;
      if (best == q.bursts.size() || col < best_col || (col == best_col && hit && !best_hit)) {
        best = i;
        best_col = col;
        best_hit = hit;
      }
    }
    if (best == q.bursts.size()) {  // none arrived at t: the earliest
      best = 0;
      for (std::size_t i = 1; i < q.bursts.size(); ++i)
        if (q.bursts[i].arrival < q.bursts[best].arrival) best = i;
    }
    return best;
  }

  // When burst b's bank is ready for its column command: at once on a row
  // hit, else after the activate that opens its row.
  std::int64_t col_ready(const Burst& b) const {
    const Bank& bk = banks_[b.bank];
    if (bk.open_row == b.row) return std::max(b.arrival, bk.ready_col);
    return activate_for(b) + t_.trcd;
  }
  // The activate that opens burst b's row (its bank closed or at another
  // row: after the precharge, tRP), no earlier than its queue is served
  // (posted writes: the write queue's commands wait for a drain, the read
  // queue's for its end), at the first time the ACT limits allow.
  std::int64_t activate_for(const Burst& b) const {
    const Bank& bk = banks_[b.bank];
    const std::int64_t from = std::max(b.arrival, mode_since_);
    const std::int64_t at =
        bk.open_row >= 0 ? std::max(from, bk.ready_pre) + t_.trp : std::max(from, bk.ready_act);
    return act_slot(at, b.group);
  }
  // The first time from `at` at which an activate in group g keeps tRRD_S
  // (tRRD_L in its group) from every activate booked, before or after it
  // (activates are booked out of time order: a burst picked later may open
  // its bank earlier), and leaves no window of tFAW with five.
  std::int64_t act_slot(std::int64_t at, std::size_t g) const {
    const std::int64_t reach = std::max({t_.trrd_s, t_.trrd_l, t_.tfaw});
    const auto from = [this](std::int64_t v) {  // the first activate at or after v
      return std::lower_bound(acts_.begin(), acts_.end(), v,
                              [](const Act& a, std::int64_t x) { return a.t < x; });
    };
    for (std::int64_t t = at;;) {
      if (acts_.empty() || acts_.back().t <= t - reach) return t;  // nothing near: mostly
      bool moved = false;
      for (auto it = from(t - reach + 1); it != acts_.end() && it->t < t + reach; ++it) {
        const std::int64_t need = it->group == g ? t_.trrd_l : t_.trrd_s;
        if (it->t > t - need && it->t < t + need) {
          t = it->t + need;
          moved = true;
        }
      }
      if (!moved && t_.tfaw > 0) {
        // Every window of tFAW holding t holds at most three others: the
        // windows that start at an activate in (t - tFAW, t], and at t.
        const auto end = acts_.end();
        for (auto i = from(t - t_.tfaw + 1); i != end && i->t <= t && !moved; ++i) {
          auto j = i;
          while (j != end && j->t < i->t + t_.tfaw) ++j;
          if (j - i >= 4) {
            t = i->t + t_.tfaw;
            moved = true;
          }
        }
        if (!moved) {
          const auto i = from(t);
          auto j = i;
          while (j != end && j->t < t + t_.tfaw) ++j;
          if (j - i >= 4) {
            t = i->t + 1;  // past the first of them: try again from there
            moved = true;
          }
        }
      }
      if (!moved || t > at + 64 * reach + 1024) return t;
    }
  }
  void record_activate(std::int64_t t, std::size_t g) {
    const auto it = std::upper_bound(acts_.begin(), acts_.end(), t,
                                     [](std::int64_t v, const Act& a) { return v < a.t; });
    acts_.insert(it, Act{t, g});
    if (acts_.size() > kActsKept) acts_.erase(acts_.begin());  // the oldest
  }

  // The earliest column command of a burst of direction `write` on bank b
  // ready from `ready`, and its data: the CCD, turnaround and bus limits.
  struct Slot {
    std::int64_t col, data;
  };
  Slot column_at(std::size_t g, bool write, std::int64_t ready) const {
    const int d = write ? 1 : 0;
    std::int64_t col =
        std::max({ready, chan_[d] + t_.tccd, groups_[g][d] + std::max(t_.tccd_l, t_.tccd)});
    if (!write && last_write_end_ > kLongAgo)
      col = std::max(col, last_write_end_ + (g == last_write_group_ ? t_.twtr : t_.twtr_s));
    const std::int64_t lat = write ? t_.cwl : t_.cl;
    const std::int64_t turn = (any_ && write && !last_write_) ? t_.trtw : 0;
    const std::int64_t data = std::max(col + lat, bus_free_ + turn);
    return {data - lat, data};
  }

  // Books burst i of q: its activate if its row is not open, its column
  // command and data; frees its slot from its column command on; counts
  // it and reports its request's progress.
  void serve(Queue& q, std::size_t i, DramSink& sink) {
    const Burst b = q.bursts[i];
    q.bursts.erase(q.bursts.begin() + static_cast<std::ptrdiff_t>(i));
    Bank& bk = banks_[b.bank];
    const std::size_t g = b.group;
    if (bk.open_row == b.row) {
      ++rows_.hits;
    } else {
      ++(bk.open_row >= 0 ? rows_.conflicts : rows_.misses);
      const std::int64_t act = activate_for(b);
      record_activate(act, g);
      bk.open_row = b.row;
      bk.ready_pre = act + t_.tras;
      bk.ready_col = act + t_.trcd;
    }
    const Slot s = column_at(g, b.write, std::max(b.arrival, bk.ready_col));
    const std::int64_t end = s.data + t_.tburst;
    // The bursts still to come need the bus a burst each at least: when
    // the last of them would end past the clock, the run cannot finish, and
    // says so now rather than after scheduling them all.
    const double last =
        static_cast<double>(end) + (left_bursts_ - 1) * static_cast<double>(t_.tburst);
    if (last > static_cast<double>(kTickLimit / t_.tck_ps))
      throw ModelStall(past_clock_text(
          "dram.model \"banked\"", "a burst", last * static_cast<double>(t_.tck_ps),
          "its clock is " + std::to_string(t_.tck_ps) + " ps, a burst " +
              std::to_string(t_.tburst) + " clocks, a refresh " + std::to_string(t_.trfc) +
              " clocks every " + std::to_string(t_.trefi) + " (dram.timing)"));
    const int d = b.write ? 1 : 0;
    chan_[d] = s.col;
    groups_[g][d] = s.col;
    if (b.write) {
      bk.ready_pre = std::max(bk.ready_pre, end + t_.twr);
      last_write_end_ = end;
      last_write_group_ = g;
    } else {
      bk.ready_pre = std::max(bk.ready_pre, s.col + t_.trtp);
    }
    bus_free_ = end;
    last_col_ = s.col;
    last_write_ = b.write;
    any_ = true;
    q.free.push_back(s.col);
    left_bursts_ -= 1;
    ++rows_.bursts;
    stats_.data_busy += static_cast<Tick>(t_.tburst) * t_.tck_ps;
    (b.write ? stats_.bytes_written : stats_.bytes_read) += b.bytes;
    if (&q == &wq_) return;  // a posted write: reported when taken
    Request& r = request(b.req);
    r.done += b.bytes;
    ++r.served;
    if (r.served == r.bursts || r.done >= r.next_report) {
      sink.progress(r.r.tag, r.served == r.bursts ? r.r.bytes : r.done, end * t_.tck_ps);
      while (r.next_report <= r.done && r.next_report < r.r.bytes)
        r.next_report = std::min(
            r.r.bytes,
            r.next_report + (r.r.chunk_bytes > 0 && !r.r.write ? r.r.chunk_bytes : r.r.bytes));
    }
    if (r.served == r.bursts) retire();
  }

  DramTiming t_;
  DramAddressMap map_;
  std::int64_t window_;
  bool posted_;
  double wq_high_;       // bursts above which the controller drains
  std::int64_t wq_low_;  // bursts below which (a read waiting) it stops
  std::vector<Bank> banks_;
  std::vector<LastColumns> groups_;
  LastColumns chan_{kLongAgo, kLongAgo};
  // The activates booked, in time order (the latest kActsKept: older ones
  // are long past what a new one can be near).
  struct Act {
    std::int64_t t;
    std::size_t group;
  };
  static constexpr std::size_t kActsKept = 32;
  std::vector<Act> acts_;
  std::deque<Request> reqs_;  // in arrival order, from id first_id_
  std::uint64_t first_id_ = 0;
  double left_bursts_ = 0;  // of every request enqueued, not yet served (a bound: double)
  Queue rq_;                // reads (and writes unless posted)
  Queue wq_;                // posted writes
  bool draining_ = false;
  std::int64_t mode_since_ = kLongAgo;  // when the controller last turned (posted writes)
  std::int64_t last_col_ = kLongAgo;    // the last column command
  Tick last_arrival_ = 0;
  std::int64_t bus_free_ = 0;
  std::int64_t next_refresh_;
  std::int64_t last_write_end_ = kLongAgo;
  std::size_t last_write_group_ = 0;
  bool last_write_ = false, any_ = false;
  RowStats rows_;
};

// Declares and reads the model's parameters.
DramBuilder configure(ParamReader& r) {
  BankedKnobs k;
  const std::string preset = r.param<std::string>("preset")
                                 .choices(dram_preset_names())
                                 .fallback("ddr4_3200")
                                 .describe("the channel's timing (timing overrides any field)")
                                 .get();
  k.t = read_dram_timing(r, *dram_preset(preset));
  k.mapping = r.param<std::string>("address_mapping")
                  .choices(DramAddressMap::names())
                  .fallback(dram_preset_mapping(preset))
                  .describe(
                      "the address map, as Ramulator 2 names it: RoBaRaCoCh (row:bank:column) or "
                      "MOP4CLXOR (bank groups every 4 bursts); default the preset's (ddr4_3200: "
                      "MOP4CLXOR, others RoBaRaCoCh)")
                  .get();
  if (const std::string why = DramAddressMap::problem(DramAddressMap::kind(k.mapping), k.t);
      !why.empty())
    r.fail("address_mapping", k.mapping + " cannot map this channel: timing." + why);
  k.window = r.param<std::int32_t>("commit_window")
                 .unit("DRAM clocks")
                 .range(1, 1 << 20)
                 .fallback(128)
                 .describe("how far ahead the controller commits commands")
                 .get();
  k.depth = r.param<std::int32_t>("queue_depth")
                .unit("bursts")
                .range(1, 256)
                .fallback(32)
                .describe("the controller's read queue: FR-FCFS chooses among its oldest bursts")
                .get();
  k.posted = r.param<std::string>("write_policy")
                 .choices({"posted", "when_written"})
                 .fallback("posted")
                 .describe(
                     "posted: a write is done when the write queue takes it, drained between the "
                     "watermarks; when_written: when its data is written, reads and writes in one "
                     "queue")
                 .get() == "posted";
  k.write_queue = r.param<std::int32_t>("write_queue")
                      .unit("bursts")
                      .range(1, 256)
                      .fallback(32)
                      .describe("the write queue of write_policy posted")
                      .get();
  k.marks = read_write_watermarks(r);
  return [=](const DramContext&, std::string&) -> std::unique_ptr<DramModel> {
    return std::make_unique<BankedDram>(k);
  };
}

}  // namespace

DramModelInfo banked_dram_model() {
  return {"banked",
          "one channel: bank groups, banks, open rows, FR-FCFS, refresh, posted writes (the "
          "preset's timing)",
          configure};
}

}  // namespace gemini::sim
