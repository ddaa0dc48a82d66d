// The model loader's JSON values (network_loader.h): integers, integer
// lists, tensors {"Id", "Shape", "Buffer", "DataType"}.
#include "gemini/ir/checked_int.h"
#include "network_loader.h"

namespace gemini::model::detail {
namespace json = boost::json;

std::string id_list(const std::set<std::int64_t>& ids) {
  std::string s = "[";
  for (std::int64_t id : ids) {
    if (s.size() > 1) s += ", ";
    s += std::to_string(id);
  }
  return s + "]";
}

// Every dimension in [1, max_dim] and the volume at most kMaxTensorElements.
bool shape_in_range(const Dims4& d, std::int64_t max_dim, std::string& why) {
  ir::CheckedI64 volume(1);
  for (std::int64_t x : d) {
    if (!in_range(x, 1, max_dim)) {
      why = "every dimension must be in [1, " + std::to_string(max_dim) + "]";
      return false;
    }
    volume *= x;
  }
  if (!volume.ok() || *volume.get() > kMaxTensorElements) {
    why = "more than 2^31 elements is more than gemini computes";
    return false;
  }
  return true;
}

bool Loader::integer(const json::value& v, const std::string& at, std::int64_t& out) {
  const auto x = json_.integer(v, at);
  if (x) out = *x;
  return x.has_value();
}

bool Loader::ints(const json::value& v, const std::string& at, std::vector<std::int64_t>& out) {
  return json_.integers(v, at, out);
}

bool Loader::tensor(const json::value& v, const std::string& at, TensorRef& t) {
  const json::object* o = json_.object(&v, at, "a tensor");
  if (!o) return false;
  t.at = at;
  const json::value* id = json_.member(*o, at, "Id");
  if (!id) return false;
  const json::value* shape = json_.member(*o, at, "Shape");
  if (!shape) return false;
  const json::value* buf = o->if_contains("Buffer");
  if (!integer(*id, at + "/Id", t.id) || !ints(*shape, at + "/Shape", t.shape)) return false;
  if (buf && buf->is_object()) {
    if (const json::value* bid = buf->get_object().if_contains("Id"))
      if (!integer(*bid, at + "/Buffer/Id", t.buffer)) return false;
  }
  if (const json::value* dt = o->if_contains("DataType"))
    if (!dt->is_string() || (dt->get_string() != "INT8" && dt->get_string() != "BYTE")) {
      error(at + "/DataType",
            "gemini computes int8 tensors; this one is " +
                (dt->is_string() ? std::string(dt->get_string()) : "not a string"));
      return false;
    }
  if (t.shape.empty() || t.shape.size() > 4) {
    error(at + "/Shape", "a tensor has 1 to 4 dimensions");
    return false;
  }
  // [C,H,W] and shorter shapes are [N,C,H,W] with leading ones.
  while (t.shape.size() < 4) t.shape.insert(t.shape.begin(), 1);
  std::int64_t volume = 1;
  for (std::int64_t x : t.shape) {
    if (x <= 0 || x > 65535) {
      error(at + "/Shape", "every dimension must be in [1, 65535]");
      return false;
    }
    volume *= x;
    if (volume > kMaxTensorElements) {
      error(at + "/Shape", "a tensor of more than 2^31 elements is more than gemini computes");
      return false;
    }
  }
  return true;
}

bool Loader::tensors(const json::object& op, const char* key, const std::string& at,
                     std::vector<TensorRef>& out) {
  const json::value* v = op.if_contains(key);
  if (!v) return true;
  const json::array* a = json_.array(v, at + "/" + key, std::string("\"") + key + "\"");
  if (!a) return false;
  for (std::size_t i = 0; i < a->size(); ++i) {
    TensorRef t;
    if (!tensor((*a)[i], at + "/" + key + "/" + std::to_string(i), t)) return false;
    out.push_back(std::move(t));
  }
  return true;
}

bool Loader::dims4(const std::vector<std::int64_t>& v, const std::string& at, std::size_t n,
                   std::int64_t* out) {
  if (v.size() != n) {
    error(at, "expected " + std::to_string(n) + " integers, got " + std::to_string(v.size()));
    return false;
  }
  std::copy(v.begin(), v.end(), out);
  return true;
}

}  // namespace gemini::model::detail
