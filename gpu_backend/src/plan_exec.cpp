// Running a plan (plan_exec.h): the plan resolved against the model first
// (plan_resolve.h), then its processor groups in order, each op's tasks of a
// group as one batch of tile operations (model::tile_op_for) on the backend.
//
// Layers stay on the backend: each finished layer's int8 output is kept in
// backend memory until its last reader finished, and an op reads its input
// and per-sample weights there (assembled on the backend when they come
// from several producers). When an op's tasks are one tile of the whole
// layer (one task per layer), its sums are written in the layer's layout
// and never leave the backend: the shift is calibrated and the layer
// requantised there (Backend::finish_layer); only the int8 output is
// downloaded, once, into the reference. Other plans' tiles come back to
// the host and are placed element by element, as a plan may tile a layer
// any way it likes.
#include "gemini/gpu/plan_exec.h"

#include <algorithm>
#include <chrono>
#include <map>

#include "gemini/ir/checked_int.h"
#include "gemini/ir/resources.h"
#include "gemini/model/layer_params.h"
#include "gemini/model/tile_op_factory.h"
#include "host_memory.h"
#include "plan_resolve.h"

namespace gemini::gpu {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// What one op of the model accumulates while its tasks run.
struct Layer {
  // Tiles placed on the host (allocated by the first such tile):
  std::vector<std::int32_t> sums;  // wide kinds
  model::Tensor8 out;              // narrow kinds
  std::vector<std::uint8_t> done;  // per output element: computed
  Buffer values;                   // or: every value, in the layer's layout, on the backend
  Buffer dev;                      // the finished int8 output, on the backend
  std::int64_t last_group = -1;    // the processor group of its last task
  std::int32_t readers = 0;        // ops reading it that have not finished
  bool finished = false;
  bool wide = false;
};

class Runner {
 public:
  Runner(const Plan& p, const model::Network& net, std::uint64_t seed, Backend& b,
         ir::Diagnostics& d, PlanRunStats& st, const model::LayerDone& layer_done)
      : plan_(p), net_(net), seed_(seed), b_(b), d_(d), st_(st), layer_done_(layer_done) {}

  std::optional<model::Reference> run() {
    if (!resolve_plan(plan_, net_, d_, resolved_)) return std::nullopt;
    ref_.seed = seed_;
    ref_.numerics.resize(net_.ops.size());
    ref_.outputs.resize(net_.ops.size());
    if (!make_externals()) return std::nullopt;
    layers_.resize(net_.ops.size());
    for (std::size_t i = 0; i < net_.ops.size(); ++i) {
      const model::Op& op = net_.ops[i];
      layers_[i].wide = model::requantises(op);
      for (const auto* parts : {&op.inputs, &op.weights})
        for (const model::InputPart& part : *parts)
          if (!part.external) ++layers_[static_cast<std::size_t>(part.producer)].readers;
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
    // The outputs the reference keeps, mapped ahead by all threads.
    ir::CheckedI64 keep;
    for (const model::Op& op : net_.ops) keep += model::whole_box(op.ofmap_shape).volume();
    if (keep.get()) prefault_host_memory(*keep.get());
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
    externals_.resize(net_.externals.size());
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
      externals_[e] = std::move(buf);
    }
    return true;
  }

  // Where a part of an op's input lives on the backend, and its shape.
  const std::int8_t* part_on_backend(const model::InputPart& p, model::Dims4& shape) const {
    const auto i = static_cast<std::size_t>(p.external ? p.external_index : p.producer);
    shape = p.external ? ref_.externals[i].shape : ref_.outputs[i].shape;
    return p.external ? externals_[i].as<std::int8_t>() : layers_[i].dev.as<std::int8_t>();
  }

  // `parts` side by side along dimension 1 of a tensor of `shape` (as
  // model::op_input and model::fmap_weights do on the host): the one part
  // itself when there is one, else assembled in `scratch`.
  const std::int8_t* assemble(const std::vector<model::InputPart>& parts, const model::Dims4& shape,
                              Buffer& scratch, ir::Box& box) {
    model::Dims4 part_shape{};
    box = model::whole_box(shape);
    if (parts.size() == 1) {
      const std::int8_t* p = part_on_backend(parts.front(), part_shape);
      box = model::whole_box(part_shape);
      return p;
    }
    scratch = Buffer(b_, static_cast<std::size_t>(box.volume()));
    if (!scratch.ok()) return nullptr;
    const std::int64_t inner = shape[2] * shape[3];
    const auto t0 = Clock::now();
    for (const model::InputPart& part : parts) {
      const std::int8_t* src = part_on_backend(part, part_shape);
      const std::int64_t run = part_shape[1] * inner;
      for (std::int64_t n = 0; n < shape[0]; ++n)
        if (!b_.copy(scratch.as<std::int8_t>() + (n * shape[1] + part.offset) * inner,
                     src + n * run, static_cast<std::size_t>(run)))
          return nullptr;
    }
    st_.transfer_seconds += since(t0);
    return scratch.as<std::int8_t>();
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
    Buffer in_buf, w_buf;
    ir::Box in_box;
    const std::int8_t* in = assemble(op.inputs, op.ifmap_shape, in_buf, in_box);
    if (!in) return fail();
    model::ConstTile weights;
    if (op.has_weights()) {
      const ir::Box wb = model::weight_box(op);
      if (op.weight_from_fmap) {
        ir::Box box;
        const model::Dims4 shape{op.ifmap_shape[0], op.weight_shape[0], op.weight_shape[1],
                                 op.weight_shape[2] * op.weight_shape[3]};
        const std::int8_t* w = assemble(op.weights, shape, w_buf, box);
        if (!w) return fail();
        weights = {w, wb};
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
        weights = {w_buf.as<std::int8_t>(), wb};
      }
    }
    // resolve() turned away the ops that do not fit one tile operation.
    const model::TileOp base = model::tile_op_for(op, {in, in_box}, weights, {}).op;
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
    const ir::Box all = model::whole_box(op.ofmap_shape);
    // One tile of the whole layer: its values stay where they are.
    const bool whole = ops.size() == 1 && ops[0].out == all && l.done.empty();
    Buffer out_buf(b_, static_cast<std::size_t>(total) * sizeof(std::int32_t));
    if (!out_buf.ok()) return fail();
    auto t0 = Clock::now();
    if (!b_.run(ops.data(), ops.size(), offsets.data(), out_buf.as<std::int32_t>())) return fail();
    st_.backend_seconds += since(t0);
    st_.tasks += static_cast<std::int64_t>(ops.size());
    st_.elements += total;
    if (whole) {
      l.values = std::move(out_buf);
      return true;
    }
    std::vector<std::int32_t> got(static_cast<std::size_t>(total));
    t0 = Clock::now();
    if (!b_.download(got.data(), out_buf.as<void>(), got.size() * sizeof(std::int32_t)))
      return fail();
    st_.transfer_seconds += since(t0);
    t0 = Clock::now();
    place(l, op, ops, offsets, got);
    st_.host_seconds += since(t0);
    return true;
  }

  // Tiles computed elsewhere into the layer on the host, element by element
  // in row order.
  void place(Layer& l, const model::Op& op, const std::vector<model::TileOp>& ops,
             const std::vector<std::int64_t>& offsets, const std::vector<std::int32_t>& got) {
    const ir::Box all = model::whole_box(op.ofmap_shape);
    if (l.done.empty()) {
      const auto n = static_cast<std::size_t>(all.volume());
      l.done.assign(n, 0);
      if (l.wide) {
        l.sums.assign(n, 0);
      } else {
        l.out = model::zero_tensor(op.ofmap_shape);
      }
      if (l.values.bytes() > 0) {  // an earlier whole-layer tile: its values first
        std::vector<std::int32_t> v(n);
        if (b_.download(v.data(), l.values.as<void>(), n * sizeof(std::int32_t))) {
          for (std::size_t k = 0; k < n; ++k) {
            if (l.wide) {
              l.sums[k] = v[k];
            } else {
              l.out.data[k] = static_cast<std::int8_t>(v[k]);
            }
          }
          std::fill(l.done.begin(), l.done.end(), 1);
        }
        l.values = Buffer();
      }
    }
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
  }

  // Every output computed; requantised with the shift calibrated on its
  // sums, on the backend; the int8 output kept there for its readers and
  // downloaded into the reference.
  bool finish(std::int32_t i) {
    const model::Op& op = net_.ops[static_cast<std::size_t>(i)];
    Layer& l = layers_[static_cast<std::size_t>(i)];
    const ir::Box all = model::whole_box(op.ofmap_shape);
    const std::int64_t n = all.volume();
    if (l.values.bytes() == 0 && !check_done(op, l)) return false;
    model::LayerNumerics& ln = ref_.numerics[static_cast<std::size_t>(i)];
    l.dev = Buffer(b_, static_cast<std::size_t>(n));
    if (!l.dev.ok()) return fail();
    auto t0 = Clock::now();
    if (l.values.bytes() == 0 && !l.wide) {
      // Placed on the host already as int8.
      if (!b_.upload(l.dev.as<void>(), l.out.data.data(), l.out.data.size())) return fail();
      st_.transfer_seconds += since(t0);
    } else {
      if (l.values.bytes() == 0) {
        l.values = Buffer(b_, l.sums.size() * sizeof(std::int32_t));
        if (!l.values.ok() ||
            !b_.upload(l.values.as<void>(), l.sums.data(), l.sums.size() * sizeof(std::int32_t)))
          return fail();
        st_.transfer_seconds += since(t0);
        t0 = Clock::now();
      }
      std::int32_t shift = 0;
      if (!b_.finish_layer(l.values.as<std::int32_t>(), n, l.wide, shift, l.dev.as<std::int8_t>()))
        return fail();
      st_.backend_seconds += since(t0);
      ln.requantised = l.wide;
      ln.shift = l.wide ? shift : 0;
      t0 = Clock::now();
      l.out = model::zero_tensor(op.ofmap_shape);
      st_.host_seconds += since(t0);
      t0 = Clock::now();
      if (!b_.download(l.out.data.data(), l.dev.as<void>(), l.out.data.size())) return fail();
      st_.transfer_seconds += since(t0);
    }
    ref_.outputs[static_cast<std::size_t>(i)] = std::move(l.out);
    l.values = Buffer();
    std::vector<std::int32_t>().swap(l.sums);
    std::vector<std::uint8_t>().swap(l.done);
    l.finished = true;
    // What it read is no longer needed by it.
    for (const auto* parts : {&op.inputs, &op.weights})
      for (const model::InputPart& part : *parts)
        if (!part.external && --layers_[static_cast<std::size_t>(part.producer)].readers == 0)
          layers_[static_cast<std::size_t>(part.producer)].dev = Buffer();
    if (l.readers == 0) l.dev = Buffer();
    if (layer_done_) layer_done_(i);
    return true;
  }

  bool check_done(const model::Op& op, const Layer& l) {
    const ir::Box all = model::whole_box(op.ofmap_shape);
    const auto missing =
        l.done.empty() ? all.volume()
                       : static_cast<std::int64_t>(std::count(l.done.begin(), l.done.end(), 0));
    if (missing == 0) return true;
    const auto first = l.done.empty()
                           ? 0
                           : static_cast<std::int64_t>(std::find(l.done.begin(), l.done.end(), 0) -
                                                       l.done.begin());
    std::int32_t o[4];
    model::box_coords(all, first, o);
    d_.report(ir::Check::plan_incomplete, "",
              "the tasks of " + op.name + " leave " + std::to_string(missing) + " of its " +
                  std::to_string(all.volume()) + " outputs uncomputed (the first at [" +
                  std::to_string(o[0]) + "," + std::to_string(o[1]) + "," + std::to_string(o[2]) +
                  "," + std::to_string(o[3]) + "])");
    return false;
  }

  const Plan& plan_;
  const model::Network& net_;
  std::uint64_t seed_;
  Backend& b_;
  ir::Diagnostics& d_;
  PlanRunStats& st_;
  const model::LayerDone& layer_done_;
  ResolvedTasks resolved_;
  std::vector<Layer> layers_;
  std::vector<Buffer> externals_;  // the network's inputs, on the backend
  model::Reference ref_;
};

}  // namespace

std::optional<model::Reference> run_plan(const Plan& plan, const model::Network& net,
                                         std::uint64_t seed, Backend& backend, ir::Diagnostics& d,
                                         PlanRunStats* stats, const model::LayerDone& layer_done) {
  PlanRunStats local;
  Runner r(plan, net, seed, backend, d, stats ? *stats : local, layer_done);
  return r.run();
}

}  // namespace gemini::gpu
