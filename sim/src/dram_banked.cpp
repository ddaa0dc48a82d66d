// "banked" DRAM: one channel of `banks` banks in `bank_groups` groups with
// an open-row policy, scheduled command by command as Ramulator 2's and
// gem5's controllers do: first-ready FR-FCFS, periodic all-bank refresh and
// a write policy. All times inside are in DRAM clocks (tck_ps); the command
// timing is BankedChannel's (dram_banked_channel.h); see
// docs/timing-model.md, "banked".
//
// Queues: a request is split into bursts (`burst_bytes`), which enter the
// controller's read queue (`queue_depth` bursts, at most 256: each command
// may look at all of them, a class of alike bursts at a time) in arrival
// order as it has room, each the clock
// after its slot is freed (the port holds the rest). Posted writes have
// their own queue (`write_queue` bursts). A burst leaves its queue when its
// column command issues, or when it activates its bank: it then waits in
// the active list (a bank at a time) for its column command.
//
// Address map: `address_mapping` (dram_address_map.h), RoBaRaCoCh or
// MOP4CLXOR (Ramulator 2's), by default the preset's.
//
// Scheduling, one command per clock, at the first clock any command can
// issue (Ramulator 2's generic controller, evaluated only at the clocks
// where its choice can change):
//   1. a column command of the active list, the oldest that can issue;
//   2. else, with a refresh due (every tREFI), the refresh alone: PREA once
//      the active list is empty, then REF (tRFC);
//   3. else the served queue's oldest burst whose next command -- PRE (its
//      bank at another row), ACT (closed) or RD/WR (its row open) -- can
//      issue (first ready); a PRE of a bank the active list waits on is
//      not issued, and nothing is then.
// Writes (`write_policy`): "posted" -- a write is done when the write queue
// has taken its last burst; the controller serves reads until the write
// queue holds more than `write_high_watermark` of it (or no read is
// waiting), then writes until it holds less than `write_low_watermark`
// while a read waits; "when_written" -- reads and writes in one queue, a
// write done when its last data is written.
//
// Decisions before the clock of `now` are final (a request still to come
// arrives at or after it). Later ones are made only while every queue has
// bursts waiting to enter it (a request still to come queues behind them)
// or, by `commit_window` clocks, ahead of time; the model then wakes when
// the next command's soonest report (its data's end) is due.
//
// Parameters (declared in configure()): `preset`, any of its fields
// overridden in `timing`, `address_mapping`, `commit_window`, `queue_depth`,
// `write_policy`, `write_queue`, `write_high_watermark`,
// `write_low_watermark`.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <string>
#include <vector>

#include "dram_address_map.h"
#include "dram_banked_channel.h"
#include "dram_banked_choice.h"
#include "dram_banked_queue.h"
#include "gemini/sim/dram_model.h"
#include "gemini/sim/dram_timing.h"
#include "gemini/sim/model_stall.h"

namespace gemini::sim {
namespace {

struct BankedKnobs {
  DramTiming t;
  std::string mapping;
  std::int32_t window = 0, depth = 32;
  bool posted = true;
  std::int32_t write_queue = 32;
  WriteWatermarks marks;
};

class BankedDram final : public DramModel {
 public:
  explicit BankedDram(const BankedKnobs& k)
      : t_(k.t),
        ch_(k.t),
        map_(DramAddressMap::kind(k.mapping), k.t),
        window_(k.window),
        posted_(k.posted),
        wq_high_(k.marks.high * k.write_queue),
        wq_low_(k.marks.low * k.write_queue),
        lead_(std::min(k.t.cl, k.t.cwl) + k.t.tburst),
        clock_limit_(static_cast<double>(kTickLimit / k.t.tck_ps)),
        bank_waiters_(static_cast<std::size_t>(k.t.banks), 0),
        group_(static_cast<std::size_t>(k.t.banks)),
        next_refresh_(k.t.trefi > 0 ? k.t.trefi - 1 : kNever) {
    rq_.free.assign(static_cast<std::size_t>(k.depth), 0);
    if (posted_) wq_.free.assign(static_cast<std::size_t>(k.write_queue), 0);
    for (std::size_t b = 0; b < group_.size(); ++b)
      group_[b] = static_cast<std::uint32_t>(map_.group(b));
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
    if (idle()) {
      pending_valid_ = false;
      catch_up(q.arrival);
    }
    const std::uint64_t id = first_id_ + reqs_.size();
    reqs_.push_back(q);
    (posted_ && r.write ? wq_ : rq_).to_feed.push_back(id);
    ++stats_.requests;
    left_bursts_ += static_cast<double>(q.bursts);
  }

  Tick advance(Tick now_ps, DramSink& sink) override {
    now_ps_ = now_ps;
    // A request still to come arrives at this clock or later.
    const std::int64_t final_before = (now_ps + t_.tck_ps - 1) / t_.tck_ps;
    for (;;) {
      if (feed(rq_, sink) + feed(wq_, sink) > 0) pending_valid_ = false;
      if (idle()) return kNever;
      const Next n = pending_valid_ ? pending_ : next_command();
      const bool closed = !rq_.to_feed.empty() && (!posted_ || !wq_.to_feed.empty());
      if (n.at >= final_before + window_ && !closed) {
        pending_ = n;
        pending_valid_ = true;
        // Decisions may wait while what they report stays ahead of the
        // simulator: a command at n.at or later reports no sooner than its
        // data's end, min(CL, CWL) + tBURST later -- unless a posted write
        // waits for a slot (done when it frees, the clock after a command).
        const std::int64_t lead = wq_.to_feed.empty() ? lead_ : 1;
        return (n.at + lead - 1 - window_) * t_.tck_ps + 1;
      }
      pending_valid_ = false;
      issue(n, sink);
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
  struct Request {
    DramRequest r;
    std::int64_t arrival = 0;  // clocks
    std::int64_t bursts = 0, fed = 0, served = 0;
    std::int64_t done = 0, next_report = 0;  // bytes
  };
  using Burst = BankedBurst;
  using Bursts = BankedBursts;
  // A controller queue: the bursts in it in arrival order (oldest first;
  // their arrivals never decrease), its free slots (since when, oldest
  // first; the two together are its size) and the requests whose bursts
  // wait to enter it, in arrival order.
  // Its floor is the choice's (dram_banked_choice.h), dropped by any command
  // but RD, WR and CAS.
  struct Queue {
    Bursts bursts;
    std::deque<std::int64_t> free;
    std::deque<std::uint64_t> to_feed;
    mutable BankedFloor floor;
  };
  using Cmd = BankedCmd;
  // The next command: of the active list's burst i, of the queue's burst
  // i, or the refresh's.
  enum class From : std::uint8_t { active, queue, refresh };
  struct Next {
    From from = From::queue;
    std::size_t i = 0;
    Cmd cmd = Cmd::col;
    std::int64_t at = 0;
    bool drain = false, turned = false;  // the write mode then (From::queue: of the write
                                         // queue's burst i); whether it turned to writes
  };

  bool idle() const {
    return rq_.bursts.empty() && wq_.bursts.empty() && active_.empty() && rq_.to_feed.empty() &&
           wq_.to_feed.empty();
  }

  Request& request(std::uint64_t id) { return reqs_[static_cast<std::size_t>(id - first_id_)]; }

  // Moves the waiting requests' bursts into q while it has free slots, each
  // in the queue from max(its request's arrival, its slot's); how many. A
  // posted write is done when its last burst is in the write queue.
  int feed(Queue& q, DramSink& sink) {
    int fed = 0;
    for (; !q.to_feed.empty() && !q.free.empty(); ++fed) {
      const std::uint64_t id = q.to_feed.front();
      Request& r = request(id);
      const std::int64_t at = std::max(r.arrival, q.free.front());
      q.free.pop_front();
      const std::int64_t off = r.fed * t_.burst_bytes;
      const DramAddressMap::Location l = map_.locate(r.r.addr + static_cast<std::uint64_t>(off));
      const bool posted = &q == &wq_;
      const bool made = q.bursts.push_back([&](Burst& b) {
        b.req = id;
        b.bank = static_cast<std::uint32_t>(l.bank);
        b.group = group_[l.bank];
        b.row = l.row;
        b.arrival = at;
        b.bytes = static_cast<std::int32_t>(
            std::max<std::int64_t>(0, std::min<std::int64_t>(t_.burst_bytes, r.r.bytes - off)));
        b.write = r.r.write;
        b.posted = posted;
      });
      if (made) q.floor.add(ch_, q.bursts.classes().back());
      if (++r.fed < r.bursts) continue;
      q.to_feed.pop_front();
      if (posted) {  // done now
        sink.progress(r.r.tag, r.r.bytes, std::max(at * t_.tck_ps, now_ps_));
        r.served = r.bursts;
        retire();
      }
    }
    return fed;
  }
  // Drops the finished requests at the front (ids stay valid).
  void retire() {
    while (!reqs_.empty() && reqs_.front().served == reqs_.front().bursts) {
      reqs_.pop_front();
      ++first_id_;
    }
  }
  // The next command of burst b (from its bank's state) and its earliest
  // clock from t.
  std::int64_t ready(const Burst& b, std::int64_t t, Cmd& cmd) const {
    const std::int64_t from = std::max(t, b.arrival);
    const BankedChannel::Bank& k = ch_.bank(b.bank);
    if (k.half_open) {  // any burst of the bank may issue ACT-2
      cmd = Cmd::act2;
      return from;
    }
    if (ch_.is_open(b.bank, b.row)) {
      const std::int64_t col = ch_.col_at(b.bank, b.group, b.write, from).col;
      cmd = ch_.needs_sync(col) ? Cmd::cas : Cmd::col;
      return cmd == Cmd::cas ? std::max(from, ch_.synced_until() + 1) : col;
    }
    if (k.open_row < 0) {
      cmd = Cmd::act;
      return ch_.act_at(b.bank, b.group, from);
    }
    cmd = Cmd::pre;
    return ch_.pre_at(b.bank, from);
  }

  // The refreshes of an idle stretch before clock `until`, when a request
  // arrives at a channel with nothing queued (none can arrive before it):
  // each done when due (PREA once the banks may close, REF), the last
  // leaving the banks refreshing; counted, costing nothing more.
  void catch_up(std::int64_t until) {
    if (t_.trefi <= 0 || next_refresh_ >= until) return;
    rq_.floor.valid = wq_.floor.valid = false;
    const std::int64_t n = (until - 1 - next_refresh_) / t_.trefi + 1;
    const std::int64_t last = next_refresh_ + (n - 1) * t_.trefi;
    std::int64_t at = std::max(next_refresh_, cmd_free_);
    if (ch_.any_open()) {
      at = ch_.prea_at(at);
      ch_.prea(at);
      ++at;
    }
    at = ch_.ref_at(at);
    ch_.ref(at);
    if (n > 1) ch_.ref(at = ch_.ref_at(last));
    cmd_free_ = std::max(cmd_free_, at + 1);
    rows_.refreshes += n;
    next_refresh_ = last + t_.trefi;
  }

  // The posted-write mode after `drain` at a clock with `reads` and
  // `writes` queued (Ramulator 2's and gem5's rule, header).
  bool drain_at(bool drain, std::size_t reads, std::size_t writes) const {
    if (!posted_) return false;
    const auto w = static_cast<double>(writes);
    if (!drain) return w > wq_high_ || reads == 0;
    // Back to reads below the low watermark, or with no write left (a low
    // watermark of 0 would otherwise drain an empty queue for ever).
    return !((w < wq_low_ || writes == 0) && reads != 0);
  }

  // The next command from cmd_free_ (the scheduling rule of the header),
  // found by moving t from one clock where the choice can change to the
  // next: an arrival, a refresh falling due, a blocked precharge. Pure:
  // the write mode it passes through is the command's, committed if it
  // issues.
  Next next_command() const {
    std::int64_t t = cmd_free_;
    bool drain = draining_, turned = false;
    for (;;) {
      std::int64_t next = kNever;  // the first arrival after t
      const std::size_t reads = rq_.bursts.arrived(t, next);
      const std::size_t writes = posted_ ? wq_.bursts.arrived(t, next) : 0;
      const bool refresh = next_refresh_ <= t;  // due: it alone besides the active list
      Next a{From::active, 0, Cmd::col, kNever};
      for (std::size_t i = 0; i < active_.size(); ++i) {
        Cmd c = Cmd::col;
        const std::int64_t at = ready(active_[i], t, c);
        if (at < a.at || (at == a.at && active_[i].arrival < active_[a.i].arrival))
          a.i = i, a.cmd = c, a.at = at;
      }
      if (a.at == t) {  // the active list first: nothing else is looked at
        a.drain = drain;
        a.turned = turned;
        return a;
      }
      Next r{From::refresh, 0, Cmd::ref, kNever};
      if (refresh && !ch_.any_open()) {
        r.at = ch_.ref_at(t);
      } else if (refresh && active_.empty()) {  // a PREA waits for the active list
        r.cmd = Cmd::prea;
        r.at = ch_.prea_at(t);
      }
      Next q{From::queue, 0, Cmd::col, kNever};
      const Queue* served = &rq_;
      if (!refresh) {
        const bool was = drain;
        drain = drain_at(drain, reads, writes);
        turned = turned || (drain && !was && writes > 0);
        served = drain ? &wq_ : &rq_;
        const std::size_t n = drain ? writes : reads;
        // Arrived bursts of one bank, row and direction are ready together:
        // the oldest of them stands for the rest (dram_banked_choice.h).
        const BankedPick p = banked_first_ready(ch_, served->bursts, n, t, served->floor);
        q.i = p.i, q.cmd = p.cmd, q.at = p.at;
      }
      a.drain = r.drain = q.drain = drain;
      a.turned = r.turned = q.turned = turned;
      const std::int64_t first = std::min({a.at, r.at, q.at});
      if (first == kNever && next == kNever) bug("nothing to schedule with requests queued");
      if (!refresh && next_refresh_ <= std::min(first, next)) {  // a refresh falls due first
        t = next_refresh_;
        continue;
      }
      if (next <= first) {  // an arrival first: it may change the choice
        t = next;
        continue;
      }
      if (a.at == first) return a;
      if (r.at == first) return r;
      const Burst& b = served->bursts[q.i];
      if (q.cmd != Cmd::pre || bank_waiters_[b.bank] == 0) return q;
      // The oldest ready is a precharge of a bank the active list waits on:
      // nothing issues until that burst's column command or an older
      // burst's command can.
      std::int64_t until = std::min(a.at, next);
      for (const Bursts::Class& k : served->bursts.classes()) {
        if (k.first >= q.i) break;
        Cmd c = Cmd::col;
        until = std::min(until, banked_ready(ch_, k, t, c));
      }
      t = std::max(first + 1, until);
    }
  }

  [[noreturn]] static void bug(const char* what) {
    std::fprintf(stderr, "gemini: internal error: dram.model \"banked\": %s\n", what);
    std::abort();
  }

  // Issues command n at n.at (the bus taken for its clock).
  void issue(const Next& n, DramSink& sink) {
    if (n.cmd != Cmd::col && n.cmd != Cmd::cas) rq_.floor.valid = wq_.floor.valid = false;
    cmd_free_ = n.at + 1;
    draining_ = n.drain;
    if (n.turned) ++rows_.drains;
    if (n.from == From::refresh) {
      if (n.cmd == Cmd::prea) {
        ch_.prea(n.at);
        return;
      }
      ch_.ref(n.at);
      next_refresh_ += t_.trefi;
      ++rows_.refreshes;
      return;
    }
    if (n.from == From::active) {
      const Burst b = active_[n.i];
      if (n.cmd == Cmd::cas) {
        ch_.cas(b.write, n.at);
        return;
      }
      active_.erase(active_.begin() + static_cast<std::ptrdiff_t>(n.i));
      --bank_waiters_[b.bank];
      column(b, n.at, sink);
      return;
    }
    Queue& q = n.drain ? wq_ : rq_;
    Burst& b = q.bursts[n.i];
    if (!b.counted)  // its first command tells what it found
      ++(n.cmd == Cmd::pre                         ? rows_.conflicts
         : n.cmd == Cmd::act || n.cmd == Cmd::act2 ? rows_.misses
                                                   : rows_.hits);
    b.counted = true;
    switch (n.cmd) {
      case Cmd::pre:
        ch_.pre(b.bank, n.at);
        return;
      case Cmd::cas:
        ch_.cas(b.write, n.at);
        return;
      case Cmd::act:
        ch_.act(b.bank, b.group, b.row, n.at);
        if (t_.act_commands > 1) return;  // ACT-2 opens it
        break;
      case Cmd::act2:
        ch_.act2(b.bank, b.row);
        break;
      default:
        column(b, n.at, sink);
    }
    if (n.cmd != Cmd::col) {  // activated: to the active list
      active_.push_back(b);
      ++bank_waiters_[b.bank];
    }
    q.bursts.erase(n.i);
    q.free.push_back(n.at + 1);  // the next burst enters the clock after
  }

  // Burst b's column command at `at`: its data, counted, and its request's
  // progress reported.
  void column(const Burst& b, std::int64_t at, DramSink& sink) {
    const std::int64_t end =
        ch_.col(b.bank, b.group, b.write, ch_.col_at(b.bank, b.group, b.write, at));
    // The bursts still to come need the bus a burst each at least: when
    // the last of them would end past the clock, the run cannot finish, and
    // says so now rather than after scheduling them all.
    const double last =
        static_cast<double>(end) + (left_bursts_ - 1) * static_cast<double>(t_.tburst);
    if (last > clock_limit_)
      throw ModelStall(past_clock_text(
          "dram.model \"banked\"", "a burst", last * static_cast<double>(t_.tck_ps),
          "its clock is " + std::to_string(t_.tck_ps) + " ps, a burst " +
              std::to_string(t_.tburst) + " clocks, a refresh " + std::to_string(t_.trfc) +
              " clocks every " + std::to_string(t_.trefi) + " (dram.timing)"));
    left_bursts_ -= 1;
    ++rows_.bursts;
    stats_.data_busy += static_cast<Tick>(t_.tburst) * t_.tck_ps;
    (b.write ? stats_.bytes_written : stats_.bytes_read) += b.bytes;
    if (b.posted) return;  // reported when the write queue took it
    Request& r = request(b.req);
    r.done += b.bytes;
    ++r.served;
    if (r.served == r.bursts || r.done >= r.next_report) {
      sink.progress(r.r.tag, r.served == r.bursts ? r.r.bytes : r.done,
                    std::max(end * t_.tck_ps, now_ps_));
      while (r.next_report <= r.done && r.next_report < r.r.bytes)
        r.next_report = std::min(
            r.r.bytes,
            r.next_report + (r.r.chunk_bytes > 0 && !r.r.write ? r.r.chunk_bytes : r.r.bytes));
    }
    if (r.served == r.bursts) retire();
  }

  DramTiming t_;
  BankedChannel ch_;
  DramAddressMap map_;
  std::int64_t window_;
  bool posted_;
  double wq_high_;            // bursts above which the controller drains
  double wq_low_;             // bursts below which (a read waiting) it stops
  std::int64_t lead_;         // clocks from a command to the soonest report it makes
  double clock_limit_;        // the last clock the simulator can reach (kTickLimit)
  std::deque<Request> reqs_;  // in arrival order, from id first_id_
  std::uint64_t first_id_ = 0;
  double left_bursts_ = 0;     // of every request enqueued, not yet served (a bound: double)
  Queue rq_;                   // reads (and writes unless posted)
  Queue wq_;                   // posted writes
  std::vector<Burst> active_;  // activated, waiting for their column command
  std::vector<std::int32_t> bank_waiters_;  // per bank: bursts of active_ on it
  std::vector<std::uint32_t> group_;        // per bank: its bank group (map_.group)
  // The command next_command() found when advance() could not yet decide
  // it: still the next while nothing is enqueued, fed or issued.
  Next pending_;
  bool pending_valid_ = false;
  bool draining_ = false;
  std::int64_t cmd_free_ = 0;  // the first clock the command bus is free
  Tick now_ps_ = 0;            // advance()'s now
  Tick last_arrival_ = 0;
  std::int64_t next_refresh_;
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
                 .unit(Unit::dram_clocks)
                 .range(0, 1 << 20)
                 .fallback(0)
                 .describe(
                     "how far past the simulator's time the controller decides commands that a "
                     "request still to come could change (0: never, exact; more: fewer wakes)")
                 .get();
  k.depth = r.param<std::int32_t>("queue_depth")
                .unit(Unit::bursts)
                .range(1, 256)
                .fallback(32)
                .describe("the controller's read queue: FR-FCFS chooses among its bursts")
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
                      .unit(Unit::bursts)
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
