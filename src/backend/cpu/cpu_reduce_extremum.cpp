// min, max, nanmin and nanmax loops (see cpu_reduce_kernels.h). Input and output
// share one dtype; order does not change the result, so every layout applies.
#include "backend/cpu/cpu_reduce_families.h"
#include "backend/cpu/cpu_reduce_kernels.h"
#include "backend/cpu/cpu_reduce_reducers.h"

namespace copper::backend::cpu {

bool reduce_extremum_family(ops::ReduceOp op, const ArrayView& in, int nreduce, const ArrayView& out) {
  if (in.dtype != out.dtype) return false;
  ops::visit_dtype(in.dtype, [&]<class T>() {
    using namespace reducers;
    switch (op) {
      case ops::ReduceOp::max: return reduce_kernels::reduce<Max<T>, T, T>(in, nreduce, out);
      case ops::ReduceOp::min: return reduce_kernels::reduce<Min<T>, T, T>(in, nreduce, out);
      case ops::ReduceOp::nanmax: return reduce_kernels::reduce<NanMax<T>, T, T>(in, nreduce, out);
      case ops::ReduceOp::nanmin: return reduce_kernels::reduce<NanMin<T>, T, T>(in, nreduce, out);
      default: throw RuntimeError("reduce_extremum_family: not an extremum op");
    }
  });
  return true;
}

}  // namespace copper::backend::cpu
