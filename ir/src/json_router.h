#pragma once
// JsonRouter: a boost::json SAX handler that walks the top of an IR document
// (the top-level object, "-1" with its "in"/"out" lists, the per-core
// workload lists) itself and materialises only one element at a time -- one
// workload, one DRAM entry, one top-level scalar -- as a boost::json::value,
// which it hands to the ElementSink and then frees. Peak memory is one element,
// not the document; the bytes are fed in chunks and never held whole.

#include <boost/json/basic_parser.hpp>
#include <boost/json/monotonic_resource.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_stack.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gemini/ir/path_table.h"

namespace gemini::ir::detail {

// Where a materialised element sits in the document.
enum class Slot : std::uint8_t {
  root,         // the whole document (it is not an object)
  top_member,   // a top-level member other than "-1" or a core list
  dram_member,  // a member of "-1" other than an "in"/"out" list
  dram_in,      // an element of "-1"/"in"
  dram_out,     // an element of "-1"/"out"
  workload,     // an element of a core's list
};

class ElementSink {
 public:
  virtual ~ElementSink() = default;
  // `key` is the member name for top_member / dram_member / workload (the core
  // key); `index` the array index for list elements.
  virtual void element(Slot slot, std::string_view key, std::uint32_t index, Loc loc,
                       const boost::json::value& v) = 0;
  virtual void core_list(std::string_view key, Loc loc) = 0;
  virtual void dram_object(Loc loc) = 0;
  virtual void duplicate_key(Loc where, std::string_view key) = 0;
};

class JsonRouter {
 public:
  JsonRouter(PathTable& paths, ElementSink& sink);

  static constexpr std::size_t max_object_size = std::size_t(-1);
  static constexpr std::size_t max_array_size = std::size_t(-1);
  static constexpr std::size_t max_key_size = std::size_t(-1);
  static constexpr std::size_t max_string_size = std::size_t(-1);

  bool on_document_begin(boost::json::error_code&) { return true; }
  bool on_document_end(boost::json::error_code&) { return true; }
  bool on_object_begin(boost::json::error_code& ec);
  bool on_object_end(std::size_t n, boost::json::error_code& ec);
  bool on_array_begin(boost::json::error_code& ec);
  bool on_array_end(std::size_t n, boost::json::error_code& ec);
  bool on_key_part(boost::json::string_view s, std::size_t n, boost::json::error_code& ec);
  bool on_key(boost::json::string_view s, std::size_t n, boost::json::error_code& ec);
  bool on_string_part(boost::json::string_view s, std::size_t n, boost::json::error_code& ec);
  bool on_string(boost::json::string_view s, std::size_t n, boost::json::error_code& ec);
  bool on_number_part(boost::json::string_view, boost::json::error_code&) { return true; }
  bool on_int64(std::int64_t i, boost::json::string_view, boost::json::error_code& ec);
  bool on_uint64(std::uint64_t u, boost::json::string_view, boost::json::error_code& ec);
  bool on_double(double d, boost::json::string_view, boost::json::error_code& ec);
  bool on_bool(bool b, boost::json::error_code& ec);
  bool on_null(boost::json::error_code& ec);
  bool on_comment_part(boost::json::string_view, boost::json::error_code&) { return true; }
  bool on_comment(boost::json::string_view, boost::json::error_code&) { return true; }

 private:
  enum class Role : std::uint8_t { top, dram, dram_in, dram_out, core };
  struct Frame {
    Role role;
    Loc loc;
    std::uint32_t index = 0;
    std::string key;        // last key seen (object frames)
    std::size_t key_start;  // into key_hashes_
  };

  // A value starts at the current position: decide whether to descend into it
  // (a structural container we walk ourselves) or to materialise it.
  void begin_value(bool is_object, bool is_array);
  void finish_scalar();
  void deliver();
  bool note_key(std::string_view key);  // duplicate detection; false if duplicate

  PathTable& paths_;
  ElementSink& sink_;
  // Re-created per element: a released monotonic_resource keeps growing its
  // next block size, which would run away over thousands of elements.
  std::optional<boost::json::monotonic_resource> mr_;
  boost::json::value_stack st_;
  std::vector<Frame> frames_;
  std::vector<std::uint64_t> key_hashes_;
  std::vector<std::size_t> mat_key_starts_;  // per open object being materialised
  std::string key_buf_;                      // key parts split across chunks
  int mat_depth_ = 0;                        // > 0 while materialising
  bool mat_active_ = false;
  Slot mat_slot_ = Slot::root;
  std::string mat_key_;
  std::uint32_t mat_index_ = 0;
  Loc mat_loc_ = kRootLoc;
  bool mat_dup_reported_ = false;
};

}  // namespace gemini::ir::detail
