#include "json_router.h"

#include <algorithm>
#include <functional>

namespace gemini::ir::detail {
namespace {

bool is_core_key(std::string_view k) {
  if (k.empty() || k == "-1") return false;
  std::size_t i = k[0] == '-' ? 1 : 0;
  if (i == k.size()) return false;
  return std::all_of(k.begin() + static_cast<std::ptrdiff_t>(i), k.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

std::uint64_t key_hash(std::string_view s) { return std::hash<std::string_view>{}(s); }

}  // namespace

JsonRouter::JsonRouter(PathTable& paths, ElementSink& sink) : paths_(paths), sink_(sink) {}

void JsonRouter::begin_value(bool is_object, bool is_array) {
  auto start = [&](Slot slot, std::string_view key, std::uint32_t idx, Loc loc) {
    mat_active_ = true;
    mat_slot_ = slot;
    mat_key_.assign(key);
    mat_index_ = idx;
    mat_loc_ = loc;
    mat_dup_reported_ = false;
    mr_.emplace(64 * 1024);
    st_.reset(boost::json::storage_ptr(&*mr_));
  };
  if (frames_.empty()) {
    if (is_object) {
      frames_.push_back({Role::top, kRootLoc, 0, {}, key_hashes_.size()});
      return;
    }
    start(Slot::root, {}, 0, kRootLoc);
    return;
  }
  Frame& p = frames_.back();
  switch (p.role) {
    case Role::top: {
      const Loc loc = paths_.key(p.loc, p.key);
      if (p.key == "-1" && is_object) {
        sink_.dram_object(loc);
        frames_.push_back({Role::dram, loc, 0, {}, key_hashes_.size()});
        return;
      }
      if (is_core_key(p.key) && is_array) {
        sink_.core_list(p.key, loc);
        frames_.push_back({Role::core, loc, 0, p.key, key_hashes_.size()});
        return;
      }
      start(Slot::top_member, p.key, 0, loc);
      return;
    }
    case Role::dram: {
      const Loc loc = paths_.key(p.loc, p.key);
      if ((p.key == "in" || p.key == "out") && is_array) {
        frames_.push_back(
            {p.key == "in" ? Role::dram_in : Role::dram_out, loc, 0, {}, key_hashes_.size()});
        return;
      }
      start(Slot::dram_member, p.key, 0, loc);
      return;
    }
    case Role::dram_in:
    case Role::dram_out:
    case Role::core: {
      const std::uint32_t idx = p.index++;
      const Loc loc = paths_.index(p.loc, idx);
      const Slot slot = p.role == Role::core      ? Slot::workload
                        : p.role == Role::dram_in ? Slot::dram_in
                                                  : Slot::dram_out;
      start(slot, p.role == Role::core ? std::string_view(p.key) : std::string_view(), idx, loc);
      return;
    }
  }
}

void JsonRouter::deliver() {
  {
    boost::json::value v = st_.release();
    sink_.element(mat_slot_, mat_key_, mat_index_, mat_loc_, v);
  }
  mr_.reset();
  mat_active_ = false;
}

bool JsonRouter::note_key(std::string_view key) {
  const std::uint64_t h = key_hash(key);
  const std::size_t from = mat_active_ ? mat_key_starts_.back() : frames_.back().key_start;
  const bool dup = std::find(key_hashes_.begin() + static_cast<std::ptrdiff_t>(from),
                             key_hashes_.end(), h) != key_hashes_.end();
  key_hashes_.push_back(h);
  if (dup) {
    if (!mat_active_) {
      sink_.duplicate_key(frames_.back().loc, key);
    } else if (!mat_dup_reported_) {
      mat_dup_reported_ = true;
      sink_.duplicate_key(mat_loc_, key);
    }
  }
  return !dup;
}

bool JsonRouter::on_object_begin(boost::json::error_code&) {
  if (!mat_active_) {
    begin_value(true, false);
    if (!mat_active_) return true;  // a structural container we walk ourselves
  }
  ++mat_depth_;
  mat_key_starts_.push_back(key_hashes_.size());
  return true;
}

bool JsonRouter::on_object_end(std::size_t n, boost::json::error_code&) {
  if (mat_active_) {
    st_.push_object(n);
    key_hashes_.resize(mat_key_starts_.back());
    mat_key_starts_.pop_back();
    if (--mat_depth_ == 0) deliver();
    return true;
  }
  key_hashes_.resize(frames_.back().key_start);
  frames_.pop_back();
  return true;
}

bool JsonRouter::on_array_begin(boost::json::error_code&) {
  if (!mat_active_) {
    begin_value(false, true);
    if (!mat_active_) return true;
  }
  ++mat_depth_;
  return true;
}

bool JsonRouter::on_array_end(std::size_t n, boost::json::error_code&) {
  if (mat_active_) {
    st_.push_array(n);
    if (--mat_depth_ == 0) deliver();
    return true;
  }
  frames_.pop_back();
  return true;
}

bool JsonRouter::on_key_part(boost::json::string_view s, std::size_t, boost::json::error_code&) {
  if (mat_active_) st_.push_chars(s);
  key_buf_.append(s.data(), s.size());
  return true;
}

bool JsonRouter::on_key(boost::json::string_view s, std::size_t, boost::json::error_code&) {
  std::string_view full(s.data(), s.size());
  if (!key_buf_.empty()) {
    key_buf_.append(s.data(), s.size());
    full = key_buf_;
  }
  if (mat_active_) {
    st_.push_key(s);
  } else {
    frames_.back().key.assign(full);
  }
  note_key(full);
  key_buf_.clear();
  return true;
}

bool JsonRouter::on_string_part(boost::json::string_view s, std::size_t, boost::json::error_code&) {
  if (!mat_active_) begin_value(false, false);
  st_.push_chars(s);
  return true;
}

bool JsonRouter::on_string(boost::json::string_view s, std::size_t, boost::json::error_code&) {
  if (!mat_active_) begin_value(false, false);
  st_.push_string(s);
  finish_scalar();
  return true;
}

void JsonRouter::finish_scalar() {
  if (mat_depth_ == 0) deliver();
}

bool JsonRouter::on_int64(std::int64_t i, boost::json::string_view, boost::json::error_code&) {
  if (!mat_active_) begin_value(false, false);
  st_.push_int64(i);
  finish_scalar();
  return true;
}

bool JsonRouter::on_uint64(std::uint64_t u, boost::json::string_view, boost::json::error_code&) {
  if (!mat_active_) begin_value(false, false);
  st_.push_uint64(u);
  finish_scalar();
  return true;
}

bool JsonRouter::on_double(double d, boost::json::string_view, boost::json::error_code&) {
  if (!mat_active_) begin_value(false, false);
  st_.push_double(d);
  finish_scalar();
  return true;
}

bool JsonRouter::on_bool(bool b, boost::json::error_code&) {
  if (!mat_active_) begin_value(false, false);
  st_.push_bool(b);
  finish_scalar();
  return true;
}

bool JsonRouter::on_null(boost::json::error_code&) {
  if (!mat_active_) begin_value(false, false);
  st_.push_null();
  finish_scalar();
  return true;
}

}  // namespace gemini::ir::detail
