#pragma once
// Builder: turns the elements the JsonRouter materialises into the IR model,
// then (finish) settles the dialect and normalises the public one: core keys
// become core ids, bits become bytes, DRAM references become -1. Problems are
// reported, never thrown; what cannot be read is left out of the model.

#include <map>
#include <optional>
#include <string>

#include "gemini/ir/diagnostics.h"
#include "gemini/ir/model.h"
#include "json_router.h"
#include "value_reader.h"

namespace gemini::ir::detail {

class Builder final : public ElementSink {
 public:
  Builder(Model& m, Diagnostics& d, std::optional<Dialect> forced);

  void element(Slot slot, std::string_view key, std::uint32_t index, Loc loc,
               const boost::json::value& v) override;
  void core_list(std::string_view key, Loc loc) override;
  void dram_object(Loc loc) override;
  void duplicate_key(Loc where, std::string_view key) override;

  // After the last element: dialect, core numbering, units, required keys.
  // False when the dialect cannot be settled (L006): nothing is normalised.
  bool finish();

 private:
  struct Evidence {
    std::size_t count = 0;
    std::string where, what;
    void note(const Where& w, std::string_view x) {
      if (count++ == 0) {
        where = w.str();
        what = x;
      }
    }
  };

  // A quirk of the public scheduler met on many elements: reported once per
  // file by finish(), with the count and the first location.
  struct Tally {
    std::size_t count = 0;
    std::string first;
    template <class F>
    void add(F&& where) {
      if (count++ == 0) first = where();
    }
  };

  void top_member(std::string_view key, Loc loc, const boost::json::value& v);
  void dram_in(Loc loc, const boost::json::value& v);
  void dram_out(Loc loc, const boost::json::value& v);
  void workload(std::string_view core_key, Loc loc, const boost::json::value& v);
  // Parts of workload() (builder_workload.cpp).
  bool workload_kind(ObjReader& r, Workload& w, std::optional<std::size_t>& kind);
  bool workload_ifmaps(ObjReader& r, Loc loc, Workload& w);
  void workload_snapshots(ObjReader& r, Loc loc, Workload& w,
                          const std::optional<std::size_t>& kind);
  bool workload_without_kind(ObjReader& r, Workload& w, const std::optional<Box>& box);
  std::optional<Endpoint> endpoint(Loc loc, const boost::json::value& v);
  std::optional<Ofmap> ofmap(Loc loc, const boost::json::value& v);
  std::optional<Ifmap> ifmap(Loc loc, const boost::json::value& v);
  std::optional<Weight> weight(Loc loc, const boost::json::value& v);
  std::optional<BufferEntry> buffer_entry(Loc loc, const boost::json::value& v);
  std::optional<Source> source(Loc loc, const boost::json::value& v);
  std::optional<Wl0Entry> wl0_entry(Loc loc, const boost::json::value& v);
  std::optional<RingRegion> ring_region(Loc loc, const boost::json::value& v);
  std::optional<Tile> tile(Loc loc, std::string_view name, const boost::json::value& v);
  // core_id (full) or id (public dialect), noting the evidence.
  std::optional<std::int32_t> core_ref(ObjReader& r);
  const boost::json::object* as_object(Loc loc, const boost::json::value& v, const char* what);
  const boost::json::array* as_array(const Where& where, const boost::json::value* v,
                                     const char* what);

  // What read_list() met: whether the value was a list, and whether every
  // element of it was read.
  struct ListRead {
    bool list = false, all = true;
    bool ok() const { return list && all; }
  };
  // The one list reader: `v`, the member `key` of the object `r` reads (absent:
  // nothing, reported by whoever asked for it), must be an array (else S002
  // "expected <what> (an array)"); each element goes through
  // `read(Loc, value) -> std::optional<T>` at its own location, what it
  // returns is appended to `out`, a nullopt marks the list as not all read.
  template <class T, class Read>
  ListRead read_list(const ObjReader& r, std::string_view key, const boost::json::value* v,
                     const char* what, std::vector<T>& out, Read&& read);
  // The "destination" list of a DRAM out tensor or an ofmap.
  ListRead destinations(ObjReader& r, std::vector<Endpoint>& out);

  // True once the file is known to be in the full dialect (forced, or full
  // markers and no public ones so far): its extra keys are then required.
  Need full_only() const {
    const bool full =
        forced_ ? *forced_ == Dialect::full : full_ev_.count > 0 && set_ev_.count == 0;
    return full ? Need::required : Need::optional;
  }
  bool saw_buffersize_ = false;

  // finish() steps
  Dialect settle_dialect();
  void normalise_set();
  void check_full_completeness();
  void source_unsourced_inputs();
  void report_tallies();
  std::int32_t map_core_key(std::int64_t key, const Where& where, bool dram_ok);

  Model& m_;
  Diagnostics& d_;
  ReadContext ctx_;
  std::optional<Dialect> forced_;
  Evidence set_ev_, full_ev_;
  Tally no_layer_type_, no_layer_type_not_permutation_;
  std::vector<std::string> no_layer_type_at_;  // an error if the file turns out full
  bool saw_dram_ = false;
  bool saw_xlen_ = false, saw_ylen_ = false;
  std::map<std::string, std::size_t, std::less<>> core_by_key_;  // raw key -> m_.cores index
  std::vector<std::string> core_keys_;                           // parallel to m_.cores
};

// Defined here: builder.cpp and builder_workload.cpp both read lists.
template <class T, class Read>
Builder::ListRead Builder::read_list(const ObjReader& r, std::string_view key,
                                     const boost::json::value* v, const char* what,
                                     std::vector<T>& out, Read&& read) {
  ListRead got;
  const boost::json::array* list = as_array(r.where(key), v, what);
  if (!list) return got;
  got.list = true;
  const Loc at = m_.paths.key(r.loc(), key);
  out.reserve(out.size() + list->size());
  for (std::size_t i = 0; i < list->size(); ++i) {
    if (auto x = read(m_.paths.index(at, static_cast<std::uint32_t>(i)), (*list)[i])) {
      out.push_back(std::move(*x));
    } else {
      got.all = false;
    }
  }
  return got;
}

}  // namespace gemini::ir::detail
