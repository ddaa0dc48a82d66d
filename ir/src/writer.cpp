#include "gemini/ir/writer.h"

#include <zlib.h>

#include <fstream>
#include <sstream>

#include "gemini/ir/json_writer.h"

namespace gemini::ir {
namespace {

class ModelWriter {
 public:
  explicit ModelWriter(std::ostream& os) : w_(os) {}

  void model(const Model& m) {
    w_.begin_object();
    w_.key("-1");
    w_.begin_object();
    w_.key("in");
    w_.begin_array();
    for (const DramIn& e : m.dram_in) dram_in(e);
    w_.end_array();
    w_.key("out");
    w_.begin_array();
    for (const DramOut& e : m.dram_out) dram_out(e);
    w_.end_array();
    w_.end_object();
    for (const Core& c : m.cores) {
      w_.key(std::to_string(c.core_id));
      w_.begin_array();
      for (const Workload& wl : c.workloads) workload(wl);
      w_.end_array();
    }
    if (m.buffersize) {
      w_.key("buffersize");
      w_.value(*m.buffersize);
    }
    if (m.top_batch_cut) {
      w_.key("top_batch_cut");
      w_.value(*m.top_batch_cut);
    }
    w_.key("xlen");
    w_.value(std::int64_t{m.xlen});
    w_.key("ylen");
    w_.value(std::int64_t{m.ylen});
    w_.end_object();
  }

 private:
  template <typename T>
  void opt(const char* k, const std::optional<T>& v) {
    if (!v) return;
    w_.key(k);
    if constexpr (std::is_same_v<T, bool>) {
      w_.value(*v);
    } else if constexpr (std::is_same_v<T, std::string>) {
      w_.value(std::string_view(*v));
    } else {
      w_.value(static_cast<std::int64_t>(*v));
    }
  }
  void i64(const char* k, std::int64_t v) {
    w_.key(k);
    w_.value(v);
  }
  void str(const char* k, std::string_view v) {
    w_.key(k);
    w_.value(v);
  }
  template <typename C>
  void ints(const char* k, const C& c) {
    w_.key(k);
    w_.int_array(c.begin(), c.end());
  }
  void bound(const char* k, const Box& b, bool upper) {
    w_.key(k);
    const auto& a = upper ? b.hi : b.lo;
    if (b.scalar) {
      w_.value(std::int64_t{a[0]});
    } else {
      w_.int_array(a.begin(), a.begin() + b.rank);
    }
  }

  void endpoint(const Endpoint& e) {
    w_.begin_object();
    i64("core_id", e.core_id);
    opt("layer_name", e.layer_name);
    str("type", to_string(e.type));
    opt("workload_id", e.workload_id);
    w_.end_object();
  }
  void endpoints(const std::vector<Endpoint>& es) {
    w_.key("destination");
    w_.begin_array();
    for (const Endpoint& e : es) endpoint(e);
    w_.end_array();
  }

  void dram_in(const DramIn& e) {
    w_.begin_object();
    i64("core_id", e.core_id);
    opt("layer_name", e.layer_name);
    bound("lower", e.box, false);
    ints("related_ofmap", e.related_ofmap);
    i64("transfer_id", e.transfer_id);
    bound("upper", e.box, true);
    i64("workload_id", e.workload_id);
    w_.end_object();
  }

  void dram_out(const DramOut& e) {
    w_.begin_object();
    endpoints(e.destination);
    opt("layer_name", e.layer_name);
    bound("lower", e.box, false);
    ints("related_ifmap", e.related_ifmap);
    i64("size", e.size);
    i64("transfer_id", e.transfer_id);
    str("type", to_string(e.type));
    bound("upper", e.box, true);
    w_.end_object();
  }

  void ifmap(const Ifmap& f) {
    w_.begin_object();
    opt("align", f.align);
    opt("bitwidth", f.bitwidth);
    bound("lower", f.box, false);
    opt("max_workload_id", f.max_workload_id);
    opt("size", f.size);
    ints("transfer_id", f.transfer_id);
    bound("upper", f.box, true);
    w_.end_object();
  }

  void ofmap(const Ofmap& f) {
    w_.begin_object();
    opt("bitwidth", f.bitwidth);
    endpoints(f.destination);
    bound("lower", f.box, false);
    i64("size", f.size);
    i64("transfer_id", f.transfer_id);
    bound("upper", f.box, true);
    w_.end_object();
  }

  void weight(const Weight& x) {
    w_.key("weight");
    w_.begin_object();
    opt("align", x.align);
    opt("bitwidth", x.bitwidth);
    opt("from_ofmap", x.from_ofmap);
    bound("lower", x.box, false);
    opt("max_workload_id", x.max_workload_id);
    opt("size", x.size);
    if (!x.transfer_id.empty()) ints("transfer_id", x.transfer_id);
    bound("upper", x.box, true);
    w_.end_object();
  }

  void source(const Source& s) {
    w_.begin_object();
    if (s.channel) ints("channel", *s.channel);
    i64("core_id", s.core_id);
    opt("layer_name", s.layer_name);
    bound("lower", s.box, false);
    i64("size", s.size);
    i64("transfer_id", s.transfer_id);
    str("type", to_string(s.type));
    bound("upper", s.box, true);
    w_.end_object();
  }

  void buffer_entry(const BufferEntry& b) {
    w_.begin_object();
    opt("address", b.address);
    opt("align", b.align);
    opt("bitwidth", b.bitwidth);
    opt("block", b.block);
    opt("cur_wl_ifmap", b.cur_wl_ifmap);
    str("layer_name", b.layer_name);
    bound("lower", b.box, false);
    opt("newly_added", b.newly_added);
    opt("size", b.size);
    if (b.has_source) {
      w_.key("source");
      if (b.source_null) {
        w_.null();
      } else {
        w_.begin_array();
        for (const Source& s : b.source) source(s);
        w_.end_array();
      }
    }
    opt("tensor_id", b.tensor_id);
    opt("tensor_order", b.tensor_order);
    if (b.has_transfer_id) ints("transfer_id", b.transfer_id);
    str("type", to_string(b.type));
    bound("upper", b.box, true);
    opt("workload_id", b.workload_id);
    w_.end_object();
  }

  void wl0_entry(const Wl0Entry& e) {
    w_.begin_object();
    opt("address", e.address);
    opt("align", e.align);
    opt("bitwidth", e.bitwidth);
    opt("layer_name", e.layer_name);
    i64("size", e.size);
    str("source", to_string(e.source));
    w_.key("tensor_order");
    if (e.tensor_order) {
      w_.value(*e.tensor_order);
    } else {
      w_.null();
    }
    ints("transfer_id", e.transfer_id);
    w_.end_object();
  }

  void tile(const Tile& t) {
    w_.key(t.name);
    w_.begin_object();
    ints("act_mini_tile", t.act_mini_tile);
    i64("ci_cut_num", t.ci_cut_num);
    str("cut_mode", t.cut_mode);
    bound("ifmap_lower", t.ifmap, false);
    bound("ifmap_upper", t.ifmap, true);
    opt("layer_name", t.layer_name);
    str("loop_order", t.loop_order);
    ints("mtc0_mtk0", t.mtc0_mtk0);
    bound("ofmap_lower", t.ofmap, false);
    bound("ofmap_upper", t.ofmap, true);
    ints("out_mini_tile", t.out_mini_tile);
    w_.key("single_tile_time_pred");
    w_.value(t.single_tile_time_pred);
    if (t.tile_padding_tblr) ints("tile_padding_tblr", *t.tile_padding_tblr);
    w_.end_object();
  }

  void workload(const Workload& x) {
    w_.begin_object();
    w_.key("buffer");
    w_.begin_array();
    for (const BufferEntry& b : x.buffer) buffer_entry(b);
    w_.end_array();
    w_.key("ifmap");
    w_.begin_array();
    for (const Ifmap& f : x.ifmap) ifmap(f);
    w_.end_array();
    str("layer_name", x.layer_name);
    str("layer_type", to_string(x.kind));
    w_.key("ofmap");
    w_.begin_array();
    for (const Ofmap& f : x.ofmap) ofmap(f);
    w_.end_array();
    i64("ofmap_size", x.ofmap_size);
    if (x.ring_buffer_info) {
      w_.key("ring_buffer_info");
      w_.begin_array();
      for (const RingRegion& r : *x.ring_buffer_info) {
        const std::int64_t pair[2] = {r.begin, r.end};
        w_.int_array(std::begin(pair), std::end(pair));
      }
      w_.end_array();
    }
    // Extension: the public dialect's own layer_type string (or "" where the
    // file had none), when it is not the pe/vp/dt written above.
    if (x.layer_type != to_string(x.kind)) str("source_layer_type", x.layer_type);
    if (x.tile_info) {
      w_.key("tile_info");
      w_.begin_object();
      for (const Tile& t : *x.tile_info) tile(t);
      w_.end_object();
    }
    if (x.tile_padding_tblr) ints("tile_padding_tblr", *x.tile_padding_tblr);
    i64("time", x.time);
    if (x.weight) weight(*x.weight);
    if (x.wl0_buffer) {
      w_.key("wl0_buffer");
      w_.begin_array();
      for (const Wl0Entry& e : *x.wl0_buffer) wl0_entry(e);
      w_.end_array();
    }
    w_.key("workload");
    w_.begin_array();
    w_.int_array(x.workload.lo.begin(), x.workload.lo.begin() + x.workload.rank);
    w_.int_array(x.workload.hi.begin(), x.workload.hi.begin() + x.workload.rank);
    w_.end_array();
    i64("workload_id", x.workload_id);
    w_.end_object();
  }

  JsonWriter w_;
};

}  // namespace

void write_full(const Model& m, std::ostream& os) { ModelWriter(os).model(m); }

void drop_entry_workload_ids(Model& m) {
  for (Core& c : m.cores)
    for (Workload& w : c.workloads)
      for (BufferEntry& e : w.buffer) e.workload_id.reset();
}

bool write_full_file(const Model& m, const std::string& path, std::string& error) {
  const bool gz = path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
  if (!gz) {
    std::ofstream out(path, std::ios::binary);
    if (!out) {
      error = "cannot open " + path + " for writing";
      return false;
    }
    write_full(m, out);
    out.flush();
    if (!out) {
      error = "write to " + path + " failed";
      return false;
    }
    return true;
  }
  std::ostringstream ss;
  write_full(m, ss);
  const std::string bytes = ss.str();
  gzFile f = gzopen(path.c_str(), "wb6");
  if (!f) {
    error = "cannot open " + path + " for writing";
    return false;
  }
  std::size_t done = 0;
  while (done < bytes.size()) {
    const auto n = static_cast<unsigned>(std::min<std::size_t>(bytes.size() - done, 1u << 30));
    if (gzwrite(f, bytes.data() + done, n) != static_cast<int>(n)) {
      gzclose(f);
      error = "write to " + path + " failed";
      return false;
    }
    done += n;
  }
  if (gzclose(f) != Z_OK) {
    error = "write to " + path + " failed";
    return false;
  }
  return true;
}

}  // namespace gemini::ir
