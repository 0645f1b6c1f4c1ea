// all and any loops: any input dtype, a bool output (see cpu_reduce_kernels.h).
#include "backend/cpu/cpu_reduce_families.h"
#include "backend/cpu/cpu_reduce_kernels.h"
#include "backend/cpu/cpu_reduce_reducers.h"

namespace copper::backend::cpu {

bool reduce_logical_family(ops::ReduceOp op, const ArrayView& in, int nreduce, const ArrayView& out) {
  if (out.dtype != DType::bool_) return false;
  ops::visit_dtype(in.dtype, [&]<class T>() {
    if (op == ops::ReduceOp::all) reduce_kernels::reduce<reducers::All<T>, T, bool>(in, nreduce, out);
    else reduce_kernels::reduce<reducers::Any<T>, T, bool>(in, nreduce, out);
  });
  return true;
}

}  // namespace copper::backend::cpu
