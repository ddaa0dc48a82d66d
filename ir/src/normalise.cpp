// Builder::finish(): what can only be decided once the whole file was read --
// the dialect, the mesh, core numbering, units, and the keys the full dialect
// requires.
#include <algorithm>
#include <charconv>

#include "builder.h"
#include "gemini/ir/checked_int.h"

namespace gemini::ir::detail {

Dialect Builder::settle_dialect() {
  if (forced_) return *forced_;
  if (set_ev_.count > 0 && full_ev_.count > 0) {
    d_.report(Check::dialect_mixed, set_ev_.where,
              "public-dialect marker (" + set_ev_.what + ") here, but a full-dialect marker (" +
                  full_ev_.what + ") at " + full_ev_.where +
                  "; pass --dialect full|set to choose one");
    return set_ev_.count >= full_ev_.count ? Dialect::set : Dialect::full;
  }
  return set_ev_.count > 0 ? Dialect::set : Dialect::full;
}

// Public dialect: key = y * (xlen + 2) + x + 1, with the DRAM columns at
// x = -1 and x = xlen. Returns the core id, kDramCore for a DRAM column when
// dram_ok, or kInvalidCore (reported).
std::int32_t Builder::map_core_key(std::int64_t key, const Where& where, bool dram_ok) {
  const std::int64_t w = std::int64_t{m_.xlen} + 2;
  const std::int64_t y = key / w;
  const std::int64_t col = key % w;
  if (key >= 0 && y < m_.ylen) {
    if (col >= 1 && col <= m_.xlen) return static_cast<std::int32_t>(y * m_.xlen + (col - 1));
    if (dram_ok && (col == 0 || col == m_.xlen + 1)) return kDramCore;
  }
  d_.report(Check::core_outside_mesh, where.str(),
            "core key " + std::to_string(key) + " is not a core of the " + std::to_string(m_.xlen) +
                "x" + std::to_string(m_.ylen) +
                " mesh (public dialect: key = y*(xlen+2)+x+1 with 0<=x<xlen, 0<=y<ylen)");
  return kInvalidCore;
}

void Builder::normalise_set() {
  auto bytes = [&](std::int64_t& v, const Origin& o, const char* key) {
    if (v % 8 != 0)
      d_.report(Check::bits_not_bytes, m_.pointer(o, key),
                std::to_string(v) + " bits is not a whole number of bytes; rounded up");
    v = ceil_div<std::int64_t>(v, 8);  // v + 7 could overflow
  };
  auto ref = [&](std::int32_t& core, EndpointType type, const Origin& o, const char* key) {
    if (core == kInvalidCore) return;
    const std::int32_t mapped =
        map_core_key(core, Where{&m_.paths, o.loc, key}, type == EndpointType::dram);
    if (mapped == kInvalidCore) {
      core = kInvalidCore;
      return;
    }
    if (type == EndpointType::dram) {
      if (mapped != kDramCore && core != 0) {
        d_.report(Check::core_outside_mesh, Where{&m_.paths, o.loc, key}.str(),
                  "a DRAM endpoint names core key " + std::to_string(core) +
                      ", which is a core, not a DRAM port");
        core = kInvalidCore;
        return;
      }
      core = kDramCore;
      return;
    }
    if (mapped == kDramCore) {
      d_.report(Check::core_outside_mesh, Where{&m_.paths, o.loc, key}.str(),
                "a core endpoint names key " + std::to_string(core) + ", a DRAM column");
      core = kInvalidCore;
      return;
    }
    core = mapped;
  };

  for (DramIn& e : m_.dram_in) ref(e.core_id, EndpointType::core, e.origin, "core_id");
  for (DramOut& e : m_.dram_out) {
    bytes(e.size, e.origin, "/size");
    for (Endpoint& d : e.destination) ref(d.core_id, d.type, d.origin, "id");
  }
  for (Core& c : m_.cores) {
    for (Workload& w : c.workloads) {
      bytes(w.ofmap_size, w.origin, "/ofmap_size");
      for (Ifmap& f : w.ifmap)
        if (f.size) bytes(*f.size, f.origin, "/size");
      for (Ofmap& f : w.ofmap) {
        bytes(f.size, f.origin, "/size");
        for (Endpoint& d : f.destination) ref(d.core_id, d.type, d.origin, "id");
      }
      if (w.weight && w.weight->size) bytes(*w.weight->size, w.weight->origin, "/size");
      for (BufferEntry& b : w.buffer) {
        if (b.size) bytes(*b.size, b.origin, "/size");
        for (Source& s : b.source) {
          bytes(s.size, s.origin, "/size");
          ref(s.core_id, s.type, s.origin, "id");
        }
      }
    }
  }
}

void Builder::check_full_completeness() {
  auto endpoint_ok = [&](std::int32_t& core, EndpointType type, const Origin& o) {
    if (core == kInvalidCore) return;
    if (type == EndpointType::dram) {
      if (core != kDramCore) {
        d_.report(Check::core_outside_mesh, m_.pointer(o, "/core_id"),
                  "a DRAM endpoint has core_id " + std::to_string(core) + "; DRAM is -1");
        core = kInvalidCore;
      }
      return;
    }
    if (core < 0 || core >= m_.core_count()) {
      d_.report(Check::core_outside_mesh, m_.pointer(o, "/core_id"),
                "core_id " + std::to_string(core) + " is outside the " + std::to_string(m_.xlen) +
                    "x" + std::to_string(m_.ylen) + " mesh (0.." +
                    std::to_string(m_.core_count() - 1) + ")");
      core = kInvalidCore;
    }
  };
  auto require = [&](bool present, const Origin& o, const char* key, const char* what) {
    if (!present)
      d_.report(Check::missing_key, m_.pointer(o),
                std::string("missing required key \"") + key + "\" (full dialect; expected " +
                    what + ")");
  };
  require(saw_buffersize_, m_.origin, "buffersize", "the L2 size in bytes");
  // Tolerated while the dialect was still open (the public quirks Q4 and
  // Q1), required once it is settled as full.
  for (const std::string& at : no_layer_type_at_)
    d_.report(Check::missing_key, at,
              "missing required key \"layer_type\" (full dialect; expected \"pe\", \"vp\" or "
              "\"dt\")");
  no_layer_type_ = {};
  for (DramIn& e : m_.dram_in) endpoint_ok(e.core_id, EndpointType::core, e.origin);
  for (DramOut& e : m_.dram_out)
    for (Endpoint& d : e.destination) endpoint_ok(d.core_id, d.type, d.origin);
  for (Core& c : m_.cores) {
    for (Workload& w : c.workloads) {
      for (const Ifmap& f : w.ifmap)
        require(f.has_transfer_id, f.origin, "transfer_id", "an array of transfer ids");
      for (Ofmap& f : w.ofmap)
        for (Endpoint& d : f.destination) endpoint_ok(d.core_id, d.type, d.origin);
      // Required full-dialect keys of workloads and buffer entries are
      // checked while reading (Builder::full_only), where absent and invalid
      // can be told apart.
      for (BufferEntry& b : w.buffer)
        for (Source& s : b.source) endpoint_ok(s.core_id, s.type, s.origin);
    }
  }
}

bool Builder::finish() {
  if (!saw_xlen_) d_.report(Check::missing_key, "", "missing required key \"xlen\" (mesh width)");
  if (!saw_ylen_) d_.report(Check::missing_key, "", "missing required key \"ylen\" (mesh height)");
  if (!saw_dram_) d_.report(Check::missing_key, "", "missing required key \"-1\" (DRAM tensors)");
  const bool mesh_ok = m_.xlen >= 1 && m_.ylen >= 1 && std::int64_t{m_.xlen} * m_.ylen <= (1 << 20);
  if ((saw_xlen_ && saw_ylen_) && !mesh_ok && m_.xlen >= 0 && m_.ylen >= 0)
    d_.report(Check::bad_mesh, "/xlen",
              "xlen=" + std::to_string(m_.xlen) + ", ylen=" + std::to_string(m_.ylen) +
                  ": expected 1 <= xlen, ylen and xlen*ylen <= 1048576");

  m_.dialect = settle_dialect();
  if (d_.has(Check::dialect_mixed)) return false;

  // Core keys -> core ids.
  std::vector<Core> cores;
  cores.reserve(m_.cores.size());
  for (std::size_t i = 0; i < m_.cores.size(); ++i) {
    const std::string& key = core_keys_[i];
    const Where where{&m_.paths, m_.cores[i].origin.loc, {}};
    std::int64_t k = 0;
    auto [p, ec] = std::from_chars(key.data(), key.data() + key.size(), k);
    if (ec != std::errc() || p != key.data() + key.size()) {
      d_.report(Check::out_of_range, where.str(),
                "core key \"" + key + "\" does not fit an integer");
      continue;
    }
    if (!mesh_ok) continue;
    std::int32_t id = kInvalidCore;
    if (m_.dialect == Dialect::set) {
      id = map_core_key(k, where, false);
    } else if (k >= 0 && k < m_.core_count()) {
      id = static_cast<std::int32_t>(k);
    } else {
      d_.report(Check::core_outside_mesh, where.str(),
                "core " + key + " is outside the " + std::to_string(m_.xlen) + "x" +
                    std::to_string(m_.ylen) + " mesh (0.." + std::to_string(m_.core_count() - 1) +
                    ")");
    }
    if (id == kInvalidCore) continue;
    m_.cores[i].core_id = id;
    cores.push_back(std::move(m_.cores[i]));
  }
  std::stable_sort(cores.begin(), cores.end(),
                   [](const Core& a, const Core& b) { return a.core_id < b.core_id; });
  for (std::size_t i = 1; i < cores.size(); ++i) {
    if (cores[i].core_id == cores[i - 1].core_id)
      d_.report(Check::duplicate_core, m_.pointer(cores[i].origin),
                "names core " + std::to_string(cores[i].core_id) + ", as does " +
                    m_.pointer(cores[i - 1].origin));
  }
  cores.erase(std::unique(cores.begin(), cores.end(),
                          [](const Core& a, const Core& b) { return a.core_id == b.core_id; }),
              cores.end());
  m_.cores = std::move(cores);

  if (!mesh_ok) return true;
  if (m_.dialect == Dialect::set) {
    normalise_set();
    source_unsourced_inputs();
  } else {
    check_full_completeness();
  }
  report_tallies();
  return true;
}

}  // namespace gemini::ir::detail
