// sum, nansum and the 2-norm's loops: pairwise summation over every layout (see cpu_reduce_kernels.h).
#include "backend/cpu/cpu_reduce_families.h"
#include "backend/cpu/cpu_reduce_kernels.h"
#include "backend/cpu/cpu_reduce_reducers.h"

namespace copper::backend::cpu {

bool reduce_sum_family(ops::ReduceOp op, const ArrayView& in, int nreduce, const ArrayView& out) {
  return ops::visit_dtype(out.dtype, [&]<class Out>() {
    return ops::visit_dtype(in.dtype, [&]<class In>() {
      if (op == ops::ReduceOp::l2norm) {  // In itself, or complex In into its real type
        constexpr bool real_same = ops::is_same_v<In, Out> && (ops::is_float_v<In> || ops::is_same_v<In, ops::half>);
        constexpr bool complex_real = [] {
          if constexpr (ops::is_complex_v<In>) return ops::is_same_v<decltype(In{}.re), Out>;
          else return false;
        }();
        if constexpr (real_same || complex_real) {
          reduce_kernels::reduce<reducers::TwoNorm<In, Out>, In, Out>(in, nreduce, out);
          return true;
        }
        return false;
      }
      if constexpr (is_native_accumulation<In, Out>()) {
        constexpr bool has_nan = ops::is_float_v<In> || ops::is_complex_v<In> || ops::is_same_v<In, ops::half>;
        if constexpr (has_nan) {
          if (op == ops::ReduceOp::nansum) {
            reduce_kernels::reduce<reducers::NanSum<In, Out>, In, Out>(in, nreduce, out);
            return true;
          }
        }
        reduce_kernels::reduce<reducers::Sum<In, Out>, In, Out>(in, nreduce, out);
        return true;
      } else {
        return false;
      }
    });
  });
}

}  // namespace copper::backend::cpu
