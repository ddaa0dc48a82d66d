// Reading plan files (plan.h): the structure checks of the format, P001 at
// a JSON pointer. One reader per level -- the document, a TaskInfo and its
// ops (with gemini's Config keys), a ProcessorGroup, a ResourceGroup, a
// TaskGroup -- each checking what it reads against what encloses it.
#include <boost/json.hpp>
#include <fstream>
#include <map>
#include <sstream>

#include "gemini/gpu/plan.h"
#include "gemini/ir/json_document.h"
#include "gemini/ir/json_reader.h"

namespace gemini::gpu {
namespace json = boost::json;

namespace {

// Reads one plan document, reporting what is wrong (P001) at its pointer,
// every value through the one JSON reader (ir/json_reader.h).
class Reader {
 public:
  explicit Reader(ir::Diagnostics& d) : json_(d, ir::Check::plan_file) {}
  bool ok() const { return json_.ok(); }

  void error(const std::string& at, const std::string& message) { json_.error(at, message); }

  const json::value* member(const json::object& o, const std::string& at, const char* key,
                            bool required = true) {
    return json_.member(o, at, key, required);
  }

  std::optional<std::int64_t> integer(const json::object& o, const std::string& at, const char* key,
                                      std::int64_t lo, bool required = true) {
    return json_.integer(o, at, key, lo, ir::JsonReader::kNoMax, required);
  }

  const json::object* object(const json::value* v, const std::string& at, const char* what) {
    return json_.object(v, at, what);
  }

  const json::array* array(const json::value* v, const std::string& at, const char* what) {
    return json_.array(v, at, what);
  }

  std::optional<std::int64_t> integer(const json::value& v, const std::string& at, std::int64_t lo,
                                      std::int64_t hi) {
    return json_.integer(v, at, lo, hi);
  }
  std::optional<std::string> string(const json::value& v, const std::string& at) {
    return json_.string(v, at);
  }
  std::optional<bool> boolean(const json::value& v, const std::string& at) {
    return json_.boolean(v, at);
  }

  // [begin, end] or [begin, end, step].
  std::optional<PlanRange> range(const json::object& o, const std::string& at, const char* key) {
    const json::value* v = member(o, at, key);
    const std::string where = at + "/" + key;
    const json::array* a = array(v, where, "a range [begin, end] or [begin, end, step]");
    if (!a) return std::nullopt;
    if (a->size() != 2 && a->size() != 3) {
      error(where, "a range has 2 or 3 entries, not " + std::to_string(a->size()));
      return std::nullopt;
    }
    std::int64_t x[3] = {0, 0, 1};
    for (std::size_t i = 0; i < a->size(); ++i) {
      const auto xi = json_.integer((*a)[i], where + "/" + std::to_string(i));
      if (!xi) return std::nullopt;
      x[i] = *xi;
    }
    if (x[2] <= 0) {
      error(where + "/2", "a range's step must be positive, not " + std::to_string(x[2]));
      return std::nullopt;
    }
    if (x[0] < 0 || x[1] < x[0]) {
      error(where, "a range [" + std::to_string(x[0]) + ", " + std::to_string(x[1]) +
                       ") must have 0 <= begin <= end");
      return std::nullopt;
    }
    return PlanRange{x[0], x[1], x[2]};
  }

 private:
  ir::JsonReader json_;
};

// The largest coordinate of a tensor (and of a Tile's extent).
constexpr std::int64_t kMaxCoordinate = 65535;

bool within(const PlanRange& inner, std::int64_t lo, std::int64_t hi) {
  return inner.count() == 0 || (inner.begin >= lo && inner.at(inner.count() - 1) < hi);
}

// gemini's Config `Tile`: four entries in [1, kMaxCoordinate]. ARK's own
// plans give a 2-D shape there, which gemini does not use.
void read_tile(Reader& r, const json::value& tile, const std::string& cat, PlanOp& op) {
  const json::array* a = r.array(&tile, cat + "/Tile", "a tile shape");
  std::array<std::int64_t, 4> s{};
  bool good = a && a->size() == 4;
  for (std::size_t k = 0; good && k < 4; ++k) {
    const auto x = r.integer((*a)[k], cat + "/Tile/" + std::to_string(k), 1, kMaxCoordinate);
    if (x) s[k] = *x;
    good = x.has_value();
  }
  if (good) op.tile = s;
}

// gemini's Config `TaskTiles`: the first element [n, c, h, w] of each task.
void read_task_tiles(Reader& r, const json::value& tt, const std::string& cat, PlanOp& op) {
  const json::array* a = r.array(&tt, cat + "/TaskTiles", "the first element of each task");
  for (std::size_t k = 0; a && k < a->size(); ++k) {
    const json::value& e = (*a)[k];
    std::array<std::int32_t, 4> lo{};
    bool good = e.is_array() && e.get_array().size() == 4;
    for (std::size_t q = 0; good && q < 4; ++q) {
      const json::value& c = e.get_array()[q];
      good = c.is_int64() && c.as_int64() >= 0 && c.as_int64() <= kMaxCoordinate;
      if (good) lo[q] = static_cast<std::int32_t>(c.as_int64());
    }
    if (!good) {
      r.error(
          cat + "/TaskTiles/" + std::to_string(k),
          "expected [n, c, h, w], four integers in [0, " + std::to_string(kMaxCoordinate) + "]");
      continue;
    }
    op.task_tiles.push_back(lo);
  }
}

// One op of a TaskInfo (at `oat`): Type, Name, IsVirtual, its tensor lists,
// Args and Config.
std::optional<PlanOp> read_op(Reader& r, const json::value& v, const std::string& oat) {
  const json::object* oo = r.object(&v, oat, "an op");
  if (!oo) return std::nullopt;
  PlanOp op;
  op.pointer = oat;
  op.json = v;
  const json::value* type = r.member(*oo, oat, "Type");
  const json::value* name = r.member(*oo, oat, "Name");
  if (type)
    if (auto t = r.string(*type, oat + "/Type")) op.type = std::move(*t);
  if (name)
    if (auto n = r.string(*name, oat + "/Name")) op.name = std::move(*n);
  if (const json::value* iv = r.member(*oo, oat, "IsVirtual"))
    if (auto b = r.boolean(*iv, oat + "/IsVirtual")) op.is_virtual = *b;
  for (const char* k : {"ReadTensors", "WriteTensors", "ResultTensors"})
    r.array(r.member(*oo, oat, k), oat + "/" + k, "a list of tensors");
  r.object(r.member(*oo, oat, "Args"), oat + "/Args", "the op's arguments");
  const std::string cat = oat + "/Config";
  if (const json::object* cfg = r.object(r.member(*oo, oat, "Config"), cat, "a Config")) {
    if (auto x = r.integer(*cfg, cat, "NumTasks", 0)) op.num_tasks = *x;
    if (auto x = r.integer(*cfg, cat, "NumWarps", 1)) op.num_warps = *x;
    if (auto x = r.integer(*cfg, cat, "SramBytes", 0)) op.sram_bytes = *x;
    if (const json::value* tile = cfg->if_contains("Tile")) read_tile(r, *tile, cat, op);
    if (const json::value* tt = cfg->if_contains("TaskTiles")) read_task_tiles(r, *tt, cat, op);
  }
  return op;
}

// One TaskInfo (at `at`); `ids` holds the Ids seen so far, with their
// pointers.
std::optional<PlanTaskInfo> read_task_info(Reader& r, const json::value& v, const std::string& at,
                                           const Plan& p,
                                           std::map<std::int64_t, std::string>& ids) {
  const json::object* o = r.object(&v, at, "a TaskInfo");
  if (!o) return std::nullopt;
  PlanTaskInfo t;
  t.pointer = at;
  if (auto x = r.integer(*o, at, "Id", 0)) {
    t.id = *x;
    if (auto [it, fresh] = ids.emplace(t.id, at); !fresh)
      r.error(at + "/Id", "TaskInfo Id " + std::to_string(t.id) + " is also that of " + it->second);
  }
  if (auto x = r.integer(*o, at, "NumWarps", 1)) t.num_warps = *x;
  if (auto x = r.integer(*o, at, "SramBytes", 0)) t.sram_bytes = *x;
  if (t.num_warps > p.num_warps_per_processor)
    r.error(at + "/NumWarps", "NumWarps " + std::to_string(t.num_warps) +
                                  " exceeds NumWarpsPerProcessor " +
                                  std::to_string(p.num_warps_per_processor));
  const json::array* ops = r.array(r.member(*o, at, "Ops"), at + "/Ops", "the list of ops");
  if (ops && ops->empty()) r.error(at + "/Ops", "a TaskInfo has at least one op");
  for (std::size_t j = 0; ops && j < ops->size(); ++j)
    if (auto op = read_op(r, (*ops)[j], at + "/Ops/" + std::to_string(j)))
      t.ops.push_back(std::move(*op));
  for (std::size_t j = 1; j < t.ops.size(); ++j)
    if (t.ops[j].num_tasks != t.ops[0].num_tasks)
      r.error(t.ops[j].pointer + "/Config/NumTasks",
              "the ops of a TaskInfo share NumTasks: " + std::to_string(t.ops[j].num_tasks) +
                  " here, " + std::to_string(t.ops[0].num_tasks) + " in its first op");
  return t;
}

// One TaskGroup (at `tat`): its tasks inside its TaskInfo's NumTasks.
std::optional<PlanTaskGroup> read_task_group(Reader& r, const json::value& v,
                                             const std::string& tat, const Plan& p) {
  const json::object* to = r.object(&v, tat, "a TaskGroup");
  if (!to) return std::nullopt;
  PlanTaskGroup tg;
  tg.pointer = tat;
  if (auto x = r.integer(*to, tat, "TaskId", 0)) tg.task_id = *x;
  if (auto x = r.integer(*to, tat, "Granularity", 1)) tg.granularity = *x;
  if (auto x = r.range(*to, tat, "TaskRange")) tg.tasks = *x;
  if (const PlanTaskInfo* info = p.task_info(tg.task_id)) {
    const std::int64_t n = info->ops.empty() ? 0 : info->ops[0].num_tasks;
    if (!within(tg.tasks, 0, n))
      r.error(tat + "/TaskRange", "tasks outside [0, NumTasks = " + std::to_string(n) +
                                      ") of TaskInfo " + std::to_string(tg.task_id));
  } else if (to->if_contains("TaskId")) {
    r.error(tat + "/TaskId", "no TaskInfo has Id " + std::to_string(tg.task_id));
  }
  return tg;
}

// One ResourceGroup (at `rat`) of processor group `g`: its processors
// among g's, its warps inside NumWarpsPerProcessor, SRAM of step 1.
std::optional<PlanResourceGroup> read_resource_group(Reader& r, const json::value& v,
                                                     const std::string& rat, const Plan& p,
                                                     const PlanProcessorGroup& g) {
  const json::object* ro = r.object(&v, rat, "a ResourceGroup");
  if (!ro) return std::nullopt;
  PlanResourceGroup rg;
  rg.pointer = rat;
  if (auto x = r.range(*ro, rat, "ProcessorRange")) {
    rg.processors = *x;
    std::int64_t outside = 0;
    if (!rg.processors.within(g.processors, outside))
      r.error(rat + "/ProcessorRange",
              "processor " + std::to_string(outside) + " is not one of its processor group's");
  }
  if (auto x = r.range(*ro, rat, "WarpRange")) {
    rg.warps = *x;
    if (!within(rg.warps, 0, p.num_warps_per_processor))
      r.error(rat + "/WarpRange", "warps outside [0, NumWarpsPerProcessor = " +
                                      std::to_string(p.num_warps_per_processor) + ")");
  }
  if (auto x = r.range(*ro, rat, "SramRange")) {
    rg.sram = *x;
    if (rg.sram.step != 1) r.error(rat + "/SramRange", "an SRAM range has step 1");
  }
  const json::array* tgs =
      r.array(r.member(*ro, rat, "TaskGroups"), rat + "/TaskGroups", "TaskGroups");
  for (std::size_t k = 0; tgs && k < tgs->size(); ++k)
    if (auto tg = read_task_group(r, (*tgs)[k], rat + "/TaskGroups/" + std::to_string(k), p))
      rg.task_groups.push_back(*tg);
  return rg;
}

// One ProcessorGroup (at `at`): its processors inside NumProcessors.
std::optional<PlanProcessorGroup> read_processor_group(Reader& r, const json::value& v,
                                                       const std::string& at, const Plan& p) {
  const json::object* o = r.object(&v, at, "a ProcessorGroup");
  if (!o) return std::nullopt;
  PlanProcessorGroup g;
  g.pointer = at;
  if (auto x = r.range(*o, at, "ProcessorRange")) {
    g.processors = *x;
    if (!within(g.processors, 0, p.num_processors))
      r.error(at + "/ProcessorRange",
              "processors outside [0, NumProcessors = " + std::to_string(p.num_processors) + ")");
  }
  const json::array* rgs =
      r.array(r.member(*o, at, "ResourceGroups"), at + "/ResourceGroups", "ResourceGroups");
  for (std::size_t j = 0; rgs && j < rgs->size(); ++j)
    if (auto rg =
            read_resource_group(r, (*rgs)[j], at + "/ResourceGroups/" + std::to_string(j), p, g))
      g.resource_groups.push_back(std::move(*rg));
  return g;
}

}  // namespace

std::optional<Plan> parse_plan(const json::value& doc, ir::Diagnostics& d) {
  Reader r(d);
  if (!doc.is_object()) {
    r.error("", "an ARK plan file is a JSON object");
    return std::nullopt;
  }
  const json::object& top = doc.get_object();
  Plan p;
  if (auto x = r.integer(top, "", "Rank", 0)) p.rank = *x;
  if (auto x = r.integer(top, "", "WorldSize", 1)) p.world_size = *x;
  if (auto x = r.integer(top, "", "NumProcessors", 1)) p.num_processors = *x;
  if (auto x = r.integer(top, "", "NumWarpsPerProcessor", 1)) p.num_warps_per_processor = *x;
  if (const json::value* a = top.if_contains("Architecture"))
    if (auto x = r.string(*a, "/Architecture")) p.architecture = std::move(*x);
  std::map<std::int64_t, std::string> ids;
  if (const json::array* infos =
          r.array(r.member(top, "", "TaskInfos"), "/TaskInfos", "the list of TaskInfos")) {
    for (std::size_t i = 0; i < infos->size(); ++i)
      if (auto t = read_task_info(r, (*infos)[i], "/TaskInfos/" + std::to_string(i), p, ids))
        p.task_infos.push_back(std::move(*t));
  }
  if (const json::array* groups = r.array(r.member(top, "", "ProcessorGroups"), "/ProcessorGroups",
                                          "the list of ProcessorGroups")) {
    for (std::size_t i = 0; i < groups->size(); ++i)
      if (auto g =
              read_processor_group(r, (*groups)[i], "/ProcessorGroups/" + std::to_string(i), p))
        p.processor_groups.push_back(std::move(*g));
  }
  if (!r.ok()) return std::nullopt;
  return p;
}

std::optional<Plan> load_plan(const std::string& path, ir::Diagnostics& d) {
  std::ifstream is(path, std::ios::binary);
  if (!is) {
    d.report(ir::Check::plan_file, "", "cannot open the plan file " + path);
    return std::nullopt;
  }
  std::ostringstream ss;
  ss << is.rdbuf();
  return parse_plan_text(ss.str(), d);
}

std::optional<Plan> parse_plan_text(const std::string& text, ir::Diagnostics& d) {
  ir::JsonDocument doc = ir::parse_json_document(text);
  if (!doc.value) {
    d.report_at(ir::Check::plan_file, doc.line, doc.column, "not valid JSON: " + doc.error);
    return std::nullopt;
  }
  for (const std::string& at : doc.duplicate_keys)
    d.report(ir::Check::plan_file, at,
             "this key repeats in its object (JSON leaves which one counts undefined)");
  if (!doc.duplicate_keys.empty()) return std::nullopt;
  return parse_plan(*doc.value, d);
}

}  // namespace gemini::gpu
