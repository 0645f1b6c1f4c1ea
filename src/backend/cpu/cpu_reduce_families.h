// The reduction families of the CPU backend, one file each. A family returns false
// when it has no native loop for the (input, output) dtype pair; the caller then
// casts the input to the output dtype first and asks again.
#pragma once
#include "backend/backend.h"
#include "ops/dtype_traits.h"

namespace copper::backend::cpu {

// Input and output dtypes the sum-like loops convert between while loading, so the
// common widenings (int8 -> int64, int -> float64 for mean, float16 -> float32) need
// no separate cast pass.
template <class In, class Out>
constexpr bool is_native_accumulation() {
  using namespace ops;
  if constexpr (is_same_v<In, Out>) return true;
  else if constexpr (is_same_v<Out, int64_t>) return is_same_v<In, bool> || is_signed_int_v<In>;
  else if constexpr (is_same_v<Out, uint64_t>) return is_unsigned_int_v<In>;
  else if constexpr (is_same_v<Out, double>) return is_same_v<In, bool> || is_int_v<In> || is_same_v<In, float>;
  else if constexpr (is_same_v<Out, float>) return is_same_v<In, half>;
  else return false;
}

bool reduce_sum_family(ops::ReduceOp op, const ArrayView& in, int nreduce, const ArrayView& out);      // sum, nansum
bool reduce_prod_family(ops::ReduceOp op, const ArrayView& in, int nreduce, const ArrayView& out);     // prod, nanprod
bool reduce_extremum_family(ops::ReduceOp op, const ArrayView& in, int nreduce, const ArrayView& out); // (nan)min/max
bool reduce_logical_family(ops::ReduceOp op, const ArrayView& in, int nreduce, const ArrayView& out);  // all, any
bool reduce_arg_family(ops::ReduceOp op, const ArrayView& in, int nreduce, const ArrayView& out);      // argmin/argmax

}  // namespace copper::backend::cpu
