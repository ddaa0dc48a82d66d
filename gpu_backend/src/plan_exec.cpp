// Running a plan (plan_exec.h): the plan resolved against the model first
// (plan_resolve.h), then its processor groups in order, each op's tasks of a
// group as one batch of tile operations (model::tile_op_for) on the backend.
#include "gemini/gpu/plan_exec.h"

#include <algorithm>
#include <chrono>
#include <map>

#include "gemini/ir/checked_int.h"
#include "gemini/ir/resources.h"
#include "gemini/model/layer_params.h"
#include "gemini/model/tile_op_factory.h"
#include "plan_resolve.h"

namespace gemini::gpu {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// What one op of the model accumulates while its tasks run.
struct Layer {
  std::vector<std::int32_t> sums;  // wide kinds
  model::Tensor8 out;              // narrow kinds
  std::vector<std::uint8_t> done;  // per output element: computed
  std::int64_t last_group = -1;    // the processor group of its last task
  bool finished = false;
  bool wide = false;
};

class Runner {
 public:
  Runner(const Plan& p, const model::Network& net, std::uint64_t seed, Backend& b,
         ir::Diagnostics& d, PlanRunStats& st)
      : plan_(p), net_(net), seed_(seed), b_(b), d_(d), st_(st) {}

  std::optional<model::Reference> run() {
    if (!resolve_plan(plan_, net_, d_, resolved_)) return std::nullopt;
    ref_.seed = seed_;
    ref_.numerics.resize(net_.ops.size());
    ref_.outputs.resize(net_.ops.size());
    if (!make_externals()) return std::nullopt;
    layers_.resize(net_.ops.size());
    for (std::size_t i = 0; i < net_.ops.size(); ++i) {
      const model::Op& op = net_.ops[i];
      Layer& l = layers_[i];
      l.wide = model::requantises(op);
      const auto n = static_cast<std::size_t>(model::whole_box(op.ofmap_shape).volume());
      l.done.assign(n, 0);
      if (l.wide) {
        l.sums.assign(n, 0);
      } else {
        l.out = model::zero_tensor(op.ofmap_shape);
      }
    }
    // Each op's last processor group.
    for (std::size_t g = 0; g < plan_.processor_groups.size(); ++g)
      each_task(plan_.processor_groups[g],
                [&](const ResolvedOp& r, std::int64_t, const std::string&) {
                  layers_[static_cast<std::size_t>(r.op)].last_group = static_cast<std::int64_t>(g);
                });
    for (std::size_t i = 0; i < net_.ops.size(); ++i)
      if (layers_[i].last_group < 0)
        d_.report(ir::Check::plan_incomplete, "",
                  "layer " + net_.ops[i].name + " has no task in the plan");
    if (d_.errors() > 0) return std::nullopt;
    for (std::size_t g = 0; g < plan_.processor_groups.size(); ++g) {
      if (!run_group(static_cast<std::int64_t>(g))) return std::nullopt;
    }
    return std::move(ref_);
  }

 private:
  template <class Fn>
  void each_task(const PlanProcessorGroup& g, Fn&& fn) {
    for (const PlanResourceGroup& rg : g.resource_groups)
      for (const PlanTaskGroup& tg : rg.task_groups) {
        auto it = resolved_.find(tg.task_id);
        // Nothing to run (virtual ops): its range, however long, is skipped.
        if (it == resolved_.end() || it->second.empty()) continue;
        for (std::int64_t k = 0; k < tg.tasks.count(); ++k)
          for (const ResolvedOp& r : it->second) fn(r, tg.tasks.at(k), tg.pointer);
      }
  }

  bool make_externals() {
    ref_.externals.resize(net_.externals.size());
    for (std::size_t e = 0; e < net_.externals.size(); ++e) {
      const model::External& x = net_.externals[e];
      model::Tensor8 t = model::zero_tensor(x.shape);
      Buffer buf(b_, t.data.size());
      const auto t0 = Clock::now();
      if (!buf.ok() ||
          !b_.generate(buf.as<std::int8_t>(), static_cast<std::int64_t>(t.data.size()),
                       model::stream_base(
                           seed_, model::tensor_key(model::DataKind::input,
                                                    static_cast<std::uint64_t>(x.tensor_id))))) {
        return fail();
      }
      st_.generate_seconds += since(t0);
      const auto t1 = Clock::now();
      if (!b_.download(t.data.data(), buf.as<void>(), t.data.size())) return fail();
      st_.transfer_seconds += since(t1);
      ref_.externals[e] = std::move(t);
    }
    return true;
  }

  bool fail() {
    d_.report(ir::Check::plan_incomplete, "",
              std::string("the ") + b_.name() + " backend failed: " + b_.error());
    return false;
  }

  bool upload(Buffer& buf, const std::vector<std::int8_t>& v) {
    buf = Buffer(b_, v.size());
    const auto t0 = Clock::now();
    const bool ok = buf.ok() && b_.upload(buf.as<void>(), v.data(), v.size());
    st_.transfer_seconds += since(t0);
    return ok;
  }

  bool run_group(std::int64_t g) {
    const PlanProcessorGroup& group = plan_.processor_groups[static_cast<std::size_t>(g)];
    // The group's tasks, per op.
    std::map<std::int32_t, std::vector<std::pair<const PlanOp*, std::int64_t>>> per_op;
    std::map<std::int32_t, std::string> where;
    each_task(group, [&](const ResolvedOp& r, std::int64_t task, const std::string& at) {
      per_op[r.op].emplace_back(r.plan_op, task);
      where.emplace(r.op, at);
    });
    for (auto& [i, tasks] : per_op) {
      const model::Op& op = net_.ops[static_cast<std::size_t>(i)];
      // What it reads must be complete.
      for (const auto* parts : {&op.inputs, &op.weights})
        for (const model::InputPart& part : *parts)
          if (!part.external && !layers_[static_cast<std::size_t>(part.producer)].finished) {
            d_.report(ir::Check::plan_incomplete, where[i],
                      op.name + " reads " + net_.ops[static_cast<std::size_t>(part.producer)].name +
                          " before all of its tasks ran (they run in this processor group or "
                          "later)");
            return false;
          }
      if (!run_tasks(i, tasks)) return false;
    }
    for (std::size_t i = 0; i < layers_.size(); ++i)
      if (layers_[i].last_group == g && !finish(static_cast<std::int32_t>(i))) return false;
    return true;
  }

  bool run_tasks(std::int32_t i, const std::vector<std::pair<const PlanOp*, std::int64_t>>& tasks) {
    const model::Op& op = net_.ops[static_cast<std::size_t>(i)];
    Layer& l = layers_[static_cast<std::size_t>(i)];
    model::Tensor8 scratch;
    const model::Tensor8& in = model::op_input(op, ref_, scratch);
    Buffer in_buf, w_buf;
    if (!upload(in_buf, in.data)) return fail();
    model::ConstTile weights;
    if (op.has_weights()) {
      const ir::Box wb = model::weight_box(op);
      if (op.weight_from_fmap) {
        if (!upload(w_buf, model::fmap_weights(op, ref_).data)) return fail();
      } else {
        w_buf = Buffer(b_, static_cast<std::size_t>(wb.volume()));
        const auto t0 = Clock::now();
        if (!w_buf.ok() ||
            !b_.generate(w_buf.as<std::int8_t>(), wb.volume(),
                         model::stream_base(
                             seed_, model::tensor_key(model::DataKind::weight,
                                                      static_cast<std::uint64_t>(op.node_id)))))
          return fail();
        st_.generate_seconds += since(t0);
      }
      weights = {w_buf.as<std::int8_t>(), wb};
    }
    // resolve() turned away the ops that do not fit one tile operation.
    const model::TileOp base =
        model::tile_op_for(op, {in_buf.as<std::int8_t>(), model::whole_box(in.shape)}, weights, {})
            .op;
    std::vector<model::TileOp> ops;
    std::vector<std::int64_t> offsets;
    ir::CheckedI64 elements;
    for (const auto& [po, task] : tasks) {
      model::TileOp t = base;
      t.out = task_tile_box(*po, static_cast<std::size_t>(task));
      ops.push_back(t);
      offsets.push_back(elements.value_or(0));
      elements += t.elements();
    }
    // The sums of every task of the group, taken at once: bounded first.
    ir::CheckedI64 bytes = elements;
    bytes *= static_cast<std::int64_t>(sizeof(std::int32_t));
    if (auto why = ir::exceeds(ir::MemoryLimit{}, bytes.get(),
                               "running the " + std::to_string(ops.size()) + " tasks of " +
                                   op.name + " in one processor group",
                               "their int32 sums")) {
      d_.report(ir::Check::plan_unsupported, tasks.front().first->pointer, *why);
      return false;
    }
    const std::int64_t total = *elements.get();
    Buffer out_buf(b_, static_cast<std::size_t>(total) * sizeof(std::int32_t));
    if (!out_buf.ok()) return fail();
    auto t0 = Clock::now();
    if (!b_.run(ops.data(), ops.size(), offsets.data(), out_buf.as<std::int32_t>())) return fail();
    st_.backend_seconds += since(t0);
    std::vector<std::int32_t> got(static_cast<std::size_t>(total));
    t0 = Clock::now();
    if (!b_.download(got.data(), out_buf.as<void>(), got.size() * sizeof(std::int32_t)))
      return fail();
    st_.transfer_seconds += since(t0);
    st_.tasks += static_cast<std::int64_t>(ops.size());
    st_.elements += total;
    // Into the layer, element by element in row order.
    const ir::Box all = model::whole_box(op.ofmap_shape);
    for (std::size_t k = 0; k < ops.size(); ++k) {
      const ir::Box& o = ops[k].out;
      const std::int32_t* src = got.data() + offsets[k];
      const std::int64_t row = o.extent(3);
      for (std::int32_t n = o.lo[0]; n <= o.hi[0]; ++n)
        for (std::int32_t c = o.lo[1]; c <= o.hi[1]; ++c)
          for (std::int32_t h = o.lo[2]; h <= o.hi[2]; ++h, src += row) {
            const auto at = static_cast<std::size_t>(all.offset(n, c, h, o.lo[3]));
            for (std::int64_t w = 0; w < row; ++w) {
              if (l.wide) {
                l.sums[at + static_cast<std::size_t>(w)] = src[w];
              } else {
                l.out.data[at + static_cast<std::size_t>(w)] = static_cast<std::int8_t>(src[w]);
              }
              l.done[at + static_cast<std::size_t>(w)] = 1;
            }
          }
    }
    return true;
  }

  // Every output computed; requantised with the shift calibrated on its sums.
  bool finish(std::int32_t i) {
    const model::Op& op = net_.ops[static_cast<std::size_t>(i)];
    Layer& l = layers_[static_cast<std::size_t>(i)];
    const ir::Box all = model::whole_box(op.ofmap_shape);
    const auto missing = static_cast<std::int64_t>(std::count(l.done.begin(), l.done.end(), 0));
    if (missing > 0) {
      const auto first =
          static_cast<std::int64_t>(std::find(l.done.begin(), l.done.end(), 0) - l.done.begin());
      std::int32_t o[4];
      model::box_coords(all, first, o);
      d_.report(ir::Check::plan_incomplete, "",
                "the tasks of " + op.name + " leave " + std::to_string(missing) + " of its " +
                    std::to_string(all.volume()) + " outputs uncomputed (the first at [" +
                    std::to_string(o[0]) + "," + std::to_string(o[1]) + "," + std::to_string(o[2]) +
                    "," + std::to_string(o[3]) + "])");
      return false;
    }
    model::LayerNumerics& ln = ref_.numerics[static_cast<std::size_t>(i)];
    if (l.wide) {
      ln.requantised = true;
      ln.shift = model::calibrated_shift(l.sums.data(), static_cast<std::int64_t>(l.sums.size()));
      Buffer sums(b_, l.sums.size() * sizeof(std::int32_t)),
          out(b_, l.sums.size() * sizeof(std::int32_t));
      auto t0 = Clock::now();
      if (!sums.ok() || !out.ok() ||
          !b_.upload(sums.as<void>(), l.sums.data(), l.sums.size() * sizeof(std::int32_t)))
        return fail();
      st_.transfer_seconds += since(t0);
      model::TileOp rq;
      rq.kind = model::TileKind::requantize;
      rq.shift = ln.shift;
      rq.sums = sums.as<std::int32_t>();
      rq.out = all;
      const std::int64_t zero = 0;
      t0 = Clock::now();
      if (!b_.run(&rq, 1, &zero, out.as<std::int32_t>())) return fail();
      st_.backend_seconds += since(t0);
      std::vector<std::int32_t> q(l.sums.size());
      t0 = Clock::now();
      if (!b_.download(q.data(), out.as<void>(), q.size() * sizeof(std::int32_t))) return fail();
      st_.transfer_seconds += since(t0);
      l.out = model::zero_tensor(op.ofmap_shape);
      for (std::size_t k = 0; k < q.size(); ++k) l.out.data[k] = static_cast<std::int8_t>(q[k]);
      std::vector<std::int32_t>().swap(l.sums);
    }
    ref_.outputs[static_cast<std::size_t>(i)] = std::move(l.out);
    std::vector<std::uint8_t>().swap(l.done);
    l.finished = true;
    return true;
  }

  const Plan& plan_;
  const model::Network& net_;
  std::uint64_t seed_;
  Backend& b_;
  ir::Diagnostics& d_;
  PlanRunStats& st_;
  ResolvedTasks resolved_;
  std::vector<Layer> layers_;
  model::Reference ref_;
};

}  // namespace

std::optional<model::Reference> run_plan(const Plan& plan, const model::Network& net,
                                         std::uint64_t seed, Backend& backend, ir::Diagnostics& d,
                                         PlanRunStats* stats) {
  PlanRunStats local;
  Runner r(plan, net, seed, backend, d, stats ? *stats : local);
  return r.run();
}

}  // namespace gemini::gpu
