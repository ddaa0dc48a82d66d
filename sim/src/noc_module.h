#pragma once
// The mesh NoC and the glue between cores and DRAM ports (docs/timing-model.md,
// "NoC" and "DMA").
//
// Structure: a NocModel timing model (noc_model.h), a time-ordered queue of packet
// injections and message arrivals, and one SC_METHOD woken only at the time
// of the earliest queued item.
//
// Behaviour: a message is split into packets of noc.packet_bytes (tokens,
// DMA read requests and write acks are one packet of noc.control_bytes).
// A source injects its next packet when the previous one has left it and, for
// reads out of L2, no faster than its L2 port rate; DRAM read data is
// injected at the port as the DRAM delivers it. Arrivals:
//   data send   -> data token at the receiver, sender's noc_send completes;
//   token       -> token at the receiver;
//   read request at the port -> a read with one member (below): one stripe
//                  at the core's port (every port's when interleaved); the
//                  dma_in / wl0_load completes l2.latency_cycles after the
//                  last byte arrives;
//   (with l2.noc_writes_share_ports, a core takes data packets off the NoC
//   no faster than its L2 port rate with one stream more than its engines')
//   write data packet at the port -> DRAM write; when all are written an ack
//                  goes back and the dma_out completes on its arrival;
//   multicast read request at the port -> counted into its group (transfer,
//                  part); when all `members` have arrived, the union of
//                  their byte ranges is read once, in equal stripes, one at
//                  each distinct DRAM port of the members (the scheduler's
//                  multicast_dram splits a read over its DRAM ports the
//                  same way); each stripe's packets are forked along the
//                  XY tree from its port to every member
//                  (NocModel::multicast), and a member's dma_in completes
//                  l2.latency_cycles after the last byte of its last
//                  stripe.
//
// Files: noc_module.cpp the packets and the event loop; noc_dma.cpp the DMA
// transfer protocol (requests, joins, stripes, in-order holds, writes and
// acks); noc_accounting.cpp the energy and the waits each message counts.
//
// Distributions (stats.h, group "noc"), whatever the NoC model:
// packet_latency, each packet's time from being handed to the model to its
// tail at its destination (a multicast's: at each receiver) in ps;
// messages_in_flight, the messages the module holds (on the network or
// waiting at a DRAM port) that a new message finds.

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <queue>
#include <set>
#include <unordered_map>
#include <vector>

#include "byte_ranges.h"
#include "gemini/sim/energy.h"
#include "gemini/sim/noc_model.h"
#include "memory_port.h"
#include "network_port.h"
#include "sc_include.h"
#include "sim_context.h"

namespace gemini::sim {

// The network port of every core (network_port.h) and the client of every
// DRAM port (memory_port.h): it knows cores and ports only through those.
class NocModule final : public sc_core::sc_module,
                        public NetworkPort,
                        public MemoryClient,
                        private NocModel::Events {
 public:
  NocModule(const sc_core::sc_module_name& name, SimContext& ctx);
  // The cores (by index) with their NoC nodes, and the DRAM ports.
  void attach(std::vector<NetworkClient*> cores, std::vector<std::int32_t> core_nodes,
              std::vector<MemoryPort*> ports);

  // NetworkPort: called by cores at time `now`.
  void send_data(std::int32_t src, std::uint8_t engine, std::uint32_t op, std::int32_t dst,
                 std::int64_t bytes, std::uint32_t slot, double src_ps_per_byte, Tick now) override;
  void send_token(std::int32_t src, std::int32_t dst, std::uint32_t slot, OpRef from,
                  Tick now) override;
  void send_multicast(std::int32_t src, std::uint8_t engine, const std::vector<MulticastTarget>& to,
                      std::int64_t bytes, double src_ps_per_byte, Tick now) override;
  void dram_read(std::int32_t core, std::uint8_t engine, std::uint32_t op, std::uint64_t addr,
                 std::int64_t bytes, Tick now) override;
  void dram_multicast_read(std::int32_t core, std::uint8_t engine, std::uint32_t op,
                           std::uint64_t addr, std::int64_t bytes, std::uint32_t transfer,
                           std::uint16_t part, std::uint16_t members, Tick now) override;
  void dram_write(std::int32_t core, std::uint8_t engine, std::uint32_t op, std::uint64_t addr,
                  std::int64_t bytes, double src_ps_per_byte, Tick now) override;
  bool writing_l2(std::int32_t core) const override {
    return incoming_[static_cast<std::size_t>(core)] > 0;
  }
  // MemoryClient: called by a DRAM port; `tag.msg` is the message.
  void dram_progress(RequestTag tag, std::int64_t done, Tick t) override;
  void dram_waited(RequestTag tag, Tick waited, OpRef before) override;

  const NocModel& noc() const { return *noc_; }
  const StatGroup& stats() const { return stats_; }

 private:
  enum class Kind : std::uint8_t {
    data,
    multicast_data,
    token,
    read_request,
    read_data,
    write_data,
    write_ack,
    multicast_request
  };
  // The operation of a core that a message completes (multicast data: the
  // receiving core and the sender's noc_send, with its token slot there).
  struct Member {
    std::int32_t core = 0;
    std::uint8_t engine = 0;
    std::uint32_t op = 0;
    std::uint32_t slot = 0;
    bool operator<(const Member& o) const { return core < o.core; }
  };
  // A multicast read's members and their ranges, gathered at the port.
  struct Join {
    std::uint16_t members = 0;
    std::vector<Member> receivers;
    std::vector<ByteRange> ranges;
    std::vector<std::uint32_t> seqs;  // each receiver's read sequence number
  };
  struct Message {
    Kind kind = Kind::data;
    std::uint8_t engine = 0;
    std::uint32_t op = 0;           // the instruction it completes
    std::int32_t src = 0, dst = 0;  // NoC nodes
    std::int32_t core = 0;          // core index to complete / deliver to
    std::int32_t sender = 0;        // data: the sending core, whose noc_send completes
    std::int32_t port = 0;
    std::int64_t bytes = 0, sent = 0;  // on the NoC: the message's size, injected so far
    std::int64_t read_bytes = 0;       // read request: the size of the DRAM read
    std::uint16_t members = 0;         // multicast request: the group's size
    std::int64_t forwarded = 0;        // write data: bytes handed to the DRAM so far
    std::int64_t written = 0;          // write data: bytes the DRAM has written
    std::uint64_t addr = 0;
    // Data, token: the token's slot at the receiver (OpRec::slot);
    // multicast request: transfer << 16 | part.
    std::uint64_t key = 0;
    OpRef from;                   // token: the signal that sent it
    std::uint32_t seq = 0;        // read request: its place in its core's reads
    double src_ps_per_byte = 0;
    bool stalled = false;
    Tick next_min = 0, last_write = 0;
    std::vector<std::pair<std::int64_t, Tick>> ready;  // read data: (bytes, time)
    std::size_t ready_head = 0;
    // Read data and multicast data: its receivers (one, or a multicast's;
    // multicast data: the receiving core and the sender's noc_send), their
    // NoC nodes, and how many have not had its last packet.
    std::vector<Member> receivers;
    std::vector<std::int32_t> receiver_nodes;
    std::size_t pending = 0;
    std::uint32_t fork = 0;  // read data: its Fork
    // Read data, multicast data: what the NoC model keeps of its packets'
    // route (NocModel::multicast_stream).
    NocModel::MulticastMemo route;
  };
  // What a message waited for on links and at DRAM ports (OpWait), kept
  // beside msgs_ (same index) so that Message stays small: the owner of
  // its packets (set at its first), the longest wait of one of its
  // packets (whose link wait.link_id names). Its link wait is the delay of
  // its last arrival: the latest arrival of its packets against the
  // latest each would have had without waiting for others' packets, plus
  // what an earlier message of the same transfer carried (a write's, for
  // its ack).
  struct MsgWait {
    // First what each packet reads and writes (add_link_wait), together.
    Tick last_arrival = 0, ideal_arrival = 0, carried = 0, longest = 0;
    OpRef owner;
    OpWait wait;
  };
  // A read's stripes: per receiver, the stripes still to arrive.
  struct Fork {
    std::vector<std::uint16_t> left;
    std::size_t open = 0;  // receivers not yet complete
    OpWait wait;           // the largest of its stripes'
    Tick dram_ready = 0;   // when the DRAM had the last byte of its last stripe
  };
  enum class Ev : std::uint8_t { inject, arrive, port_packet };
  // aux: arrive, 0 or receiver + 1; port_packet, the packet's bytes (at
  // most packet_bytes) at DRAM port `port`.
  struct Item {
    Tick t;
    std::uint64_t seq;
    std::uint32_t msg;
    std::int32_t aux;
    std::int32_t port;
    Ev ev;
    bool operator>(const Item& o) const { return t != o.t ? t > o.t : seq > o.seq; }
  };

  void run();
  void schedule(Tick t, std::uint32_t msg, Ev ev, std::int32_t aux = 0, std::int32_t port = 0);
  // A closed-loop model (noc_model.h; noc_module_closed.cpp): hands packet
  // `pkt` of message `id` over at `now` to `dst` (a multicast's and a
  // read's: its receivers) instead of timing it with send(); false when
  // the model is not closed-loop. Its reports (NocModel::Events) then do
  // what send()'s timing does.
  bool enqueue_closed(std::uint32_t id, Tick now, std::int32_t dst, std::int32_t port,
                      std::int64_t pkt);
  void injected(std::uint64_t tag, Tick t) override;
  void arrived(const NocModel::Arrival& a) override;
  std::uint32_t alloc(Kind k);
  // A message from a core to its DRAM port.
  std::uint32_t to_port(Kind k, std::int32_t core, std::uint8_t engine, std::uint32_t op,
                        std::uint64_t addr);
  void release(std::uint32_t id);
  std::int32_t core_node(std::int32_t core) const;
  std::int32_t port_node(std::int32_t port) const;
  void inject(std::uint32_t id, Tick now);
  // A message's last packet has arrived (a message of one receiver).
  void arrive(std::uint32_t id, Tick now);
  // Multicast data's or read data's last packet at its receiver `i`.
  void multicast_arrived(std::uint32_t id, std::size_t i, Tick now);
  void stripe_arrived(std::uint32_t id, std::size_t i, Tick now);
  // arrive() of a DMA message: read and multicast requests, write acks.
  void dma_arrive(std::uint32_t id, Tick now);
  // A write's packet of `bytes` has arrived at DRAM port `port`.
  void port_packet(std::uint32_t id, std::int32_t port, std::int64_t bytes, Tick now);
  void try_read_packet(std::uint32_t id, Tick earliest);
  // l2.noc_writes_share_ports: `core` takes a packet off the NoC at its L2
  // port's rate with its engines' streams plus this one.
  void set_l2_write_rate(std::int32_t core);
  // A read for the members of `j` (one, or a multicast's): the union of
  // their ranges in equal stripes, one at each of `ports`, each forked to
  // every member.
  // `held`: how long dram.in_order held it at its port.
  void start_stripes(Join& j, std::vector<std::int32_t> ports, Tick now, Tick held = 0);
  // The instruction message `m`'s packets are for.
  OpRef owner_of(const Message& m) const;
  // Adds a packet's arrival and link wait to its message's.
  static void add_link_wait(MsgWait& m, Tick arrived, Tick waited, std::int32_t link, OpRef whose) {
    m.last_arrival = std::max(m.last_arrival, arrived);
    m.ideal_arrival = std::max(m.ideal_arrival, arrived - waited);
    m.wait.link = m.carried + (m.last_arrival - m.ideal_arrival);
    if (waited > m.longest) {
      m.longest = waited;
      m.wait.link_id = link;
      m.wait.link_owner = whose;
    }
  }
  // Energy: `n` events `e` of a transfer for `members` (a multicast's
  // share evenly, the remainder to the first), or of message `m`'s owner.
  void count_shared(const std::vector<Member>& members, Event e, std::int64_t n);
  void count_owner(const Message& m, Event e, std::int64_t n);
  // A packet of `bytes` over `links` router links, `d2d_links` of them
  // die-to-die: the NoC and D2D byte-hops, counted for its owner.
  void count_hops(const Message& m, std::int64_t bytes, std::int32_t links, std::int32_t d2d_links);
  // Power over time (power.h): `done` DRAM bytes of `m` moved at its port
  // by time t (a read's so far, a write packet's), spent then.
  void power_dram(const Message& m, std::int64_t done, Tick t);

  SimContext& ctx_;
  std::unique_ptr<NocModel> noc_;
  std::vector<NetworkClient*> cores_;
  std::vector<MemoryPort*> ports_;
  std::vector<std::int32_t> core_nodes_;
  std::vector<std::int32_t> incoming_;  // per core: NoC data messages being written
  std::vector<double> l2_ps_per_byte_;  // by streams k: period / rate(k)
  std::vector<Message> msgs_;
  std::vector<MsgWait> msg_waits_;
  std::vector<std::uint32_t> free_;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue_;
  std::unordered_map<std::uint64_t, Join> joins_;  // by transfer << 16 | part
  std::vector<std::int32_t> all_ports_;            // dram.interleave: every port
  std::vector<Fork> forks_;
  NocModel::MulticastTiming multicast_timing_;  // inject's, reused for every multicast packet
  std::vector<std::uint32_t> free_forks_;
  // dram.in_order: per core, the reads it has issued that have not started
  // at DRAM (by sequence number), and its unicast reads that arrived at
  // their port before an earlier read of the core started (held there).
  struct Held {
    Join join;
    std::vector<std::int32_t> ports;
    Tick since = 0;
  };
  std::vector<std::uint32_t> read_seq_;
  std::vector<std::set<std::uint32_t>> unstarted_;
  std::vector<std::map<std::uint32_t, Held>> held_;
  bool in_order_ = false;
  // The read `seq` of `core` has started: start the held reads it unblocks.
  void read_started(std::int32_t core, std::uint32_t seq, Tick now);
  std::uint64_t seq_ = 0;
  bool running_ = false;
  // A closed-loop model's packets in flight (by the tag they were handed
  // over with): their message, size, write port, when handed over, copies
  // not yet arrived and whether the source is still sending it; per message,
  // packets handed over and, per receiver, arrived.
  bool closed_ = false;
  struct Pending {
    std::uint32_t msg = 0;
    std::int64_t bytes = 0;
    std::int32_t port = 0;
    Tick handed = 0;
    std::uint32_t copies = 0;
    bool injecting = false;
    std::int32_t links = 0, d2d_links = 0;  // its arrivals' so far
  };
  struct ClosedMsg {
    std::uint32_t enqueued = 0;
    std::vector<std::uint32_t> arrived;
  };
  std::vector<Pending> pending_;
  std::vector<std::uint32_t> free_pending_;
  std::vector<ClosedMsg> closed_msgs_;
  std::vector<std::int32_t> one_dst_{0};
  sc_core::sc_event ev_;
  Distribution packet_latency_, in_flight_;
  StatGroup stats_{"noc", "noc"};
};

}  // namespace gemini::sim
