// CpuBackend::reduce: picks the family loop for the op; where a family has no loop
// for the (input, output) dtype pair, casts the input to the output dtype first.
#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/cpu_reduce_families.h"

namespace copper::backend::cpu {

namespace {
bool run_family(ops::ReduceOp op, const ArrayView& in, int nreduce, const ArrayView& out) {
  using ops::ReduceOp;
  switch (op) {
    case ReduceOp::sum:
    case ReduceOp::nansum:
    case ReduceOp::l2norm: return reduce_sum_family(op, in, nreduce, out);
    case ReduceOp::prod:
    case ReduceOp::nanprod: return reduce_prod_family(op, in, nreduce, out);
    case ReduceOp::min:
    case ReduceOp::max:
    case ReduceOp::nanmin:
    case ReduceOp::nanmax: return reduce_extremum_family(op, in, nreduce, out);
    case ReduceOp::all:
    case ReduceOp::any: return reduce_logical_family(op, in, nreduce, out);
    case ReduceOp::argmin:
    case ReduceOp::argmax: return reduce_arg_family(op, in, nreduce, out);
  }
  return false;
}
}  // namespace

void CpuBackend::reduce(ops::ReduceOp op, const ArrayView& in, int nreduce, const ArrayView& out) {
  if (nreduce < 0 || nreduce > static_cast<int>(in.shape.size()) ||
      out.shape.size() != in.shape.size() - static_cast<std::size_t>(nreduce))
    throw RuntimeError("CpuBackend::reduce: output rank does not match the kept axes");
  if (run_family(op, in, nreduce, out)) return;
  if (op == ops::ReduceOp::argmin || op == ops::ReduceOp::argmax || op == ops::ReduceOp::all ||
      op == ops::ReduceOp::any)
    throw RuntimeError("CpuBackend::reduce: " + std::string(ops::name(op)) + " needs an int64 or bool output");
  // No loop converts this pair while loading: cast the input into a temporary first.
  auto buffer = allocate(static_cast<std::size_t>(shape_size(in.shape) * itemsize(out.dtype)));
  ArrayView cast{buffer->data(), out.dtype, in.shape, c_strides(in.shape, itemsize(out.dtype))};
  copy(in, cast);
  if (!run_family(op, cast, nreduce, out))
    throw RuntimeError("CpuBackend::reduce: no loop for " + std::string(ops::name(op)) + " over " +
                       std::string(name(out.dtype)));
}

}  // namespace copper::backend::cpu
