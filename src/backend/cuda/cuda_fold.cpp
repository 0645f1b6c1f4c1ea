// CudaBackend::fold: one generated kernel per (op, dtype, start, scan), a thread per
// (kept element, segment) walking the axis in order (kernels/fold.cuh). Sequential by
// design: it serves the ufuncs that have no parallel ReduceOp (subtract.reduce,
// power.accumulate, reduceat), whose result depends on the order of operations.
#include "backend/cuda/cuda_fold.h"

#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_codegen.h"
#include "backend/cuda/cuda_context.h"
#include "backend/cuda/kernel_families.h"

namespace copper::backend::cuda {

namespace {

constexpr unsigned kBlock = 128;

// Host mirror of copper::kern::FoldArgs.
struct FoldArgs {
  const void* in;
  void* out;
  const void* where;
  const void* seg;
  long long tasks, nseg, n, in_step, out_step, where_step;
  StridedLayoutParam<3> layout;
};

}  // namespace

std::string fold_source(ops::UfuncId op, DType loop, bool from_out, bool scan) {
  std::string s = source_prologue();
  s += "#include \"copper_kernels/fold.cuh\"\n";
  s += "static_assert(sizeof(copper::kern::FoldArgs) == " + std::to_string(sizeof(FoldArgs)) +
       ", \"FoldArgs differs between host and device\");\n";
  s += "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(kBlock) +
       ") copper_fold(const copper::kern::FoldArgs a) {\n  copper::kern::fold<copper::ops::" +
       std::string(ops::info(op).name) + ", " + device_type_name(loop) + ", " + (from_out ? "true" : "false") + ", " +
       (scan ? "true" : "false") + ">(a);\n}\n";
  return s;
}

void CudaBackend::fold(ops::UfuncId op, DType loop, const ArrayView& in, const ArrayView& out, const FoldOptions& o) {
  const int kd = static_cast<int>(in.shape.size()) - 1;
  FoldArgs a{};
  a.in = in.data;
  a.out = out.data;
  a.where = o.where ? o.where->data : nullptr;
  a.seg = o.segments ? o.segments->data : nullptr;
  a.nseg = o.segments ? o.segments->shape[0] : 1;
  a.n = in.shape.back();
  a.in_step = in.strides.back();
  a.out_step = o.scan || o.segments ? out.strides.back() : 0;
  a.where_step = o.where ? o.where->strides.back() : 0;
  const Shape kept(in.shape.begin(), in.shape.begin() + kd);
  std::int64_t count = shape_size(kept);
  a.tasks = count * a.nseg;
  if (a.tasks == 0) return;
  const Strides in_kept(in.strides.begin(), in.strides.begin() + kd);
  const Strides out_kept(out.strides.begin(), out.strides.begin() + kd);
  const Strides where_kept = o.where ? Strides(o.where->strides.begin(), o.where->strides.begin() + kd) : Strides(kd, 0);
  const Strides* strides[3] = {&in_kept, &out_kept, &where_kept};
  a.layout = strided_param<3>(collapse(kept, std::span<const Strides* const>(strides, 3)));
  KeyBuilder b;
  b.add(kFamilyUfuncFold).add(static_cast<unsigned>(op)).add(static_cast<unsigned>(loop)).add(o.from_out).add(o.scan);
  const CUfunction fn =
      get_kernel(index_, b.key(), [&] { return fold_source(op, loop, o.from_out, o.scan); }, "copper_fold");
  void* args[] = {&a};
  launch(index_, fn, grid_for(index_, a.tasks, kBlock, resident_blocks_per_sm(fn, kBlock)), kBlock, args,
         ops::info(op).name.data());
}

}  // namespace copper::backend::cuda
