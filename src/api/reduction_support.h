// Shared front-end steps of every reduction: axis parsing, result shapes, out=
// checks with NumPy's messages, and the one call into the backend.
#pragma once
#include <optional>
#include <string_view>
#include <vector>

#include "api/array_factory.h"
#include "copper/reductions.hpp"

namespace copper::api {

struct ReducePlan {
  std::vector<bool> reduced;  // per input axis
  Shape kept_shape;           // the result's shape without keepdims
  Shape result_shape;         // with keepdims applied when asked
  int nreduce = 0;
  std::int64_t count = 1;     // elements reduced into each output
  bool keepdims = false;
};

// NumPy's axis rules: None reduces all; negative axes count from the end; AxisError
// when out of range, ValueError on repeats; a 0-d array accepts axis 0 or -1 alone.
ReducePlan plan_reduction(const ndarray& a, const Axes& axes, bool keepdims);
// A view of `a` with the kept axes first and the reduced axes last (both in order).
ndarray reduced_axes_last(const ndarray& a, const ReducePlan& plan);

// The dtype sum, prod, cumsum and cumprod accumulate in by default (NumPy 2):
// small signed ints and bool -> int64, small unsigned -> uint64.
DType default_sum_dtype(DType t);

// ValueError as NumPy words it when out= has the wrong rank or shape; `ufunc` names
// the reduction's ufunc ("add", "maximum").
void check_reduce_out(const ndarray& out, const ndarray& a, const ReducePlan& plan, std::string_view ufunc);
// ValueError "zero-size array to reduction operation maximum which has no identity".
void check_nonempty(const ReducePlan& plan, std::string_view ufunc);

// Reduces `a` with `op`, accumulating in `acc` (the backend's output dtype), and
// returns the result with the plan's shape; or, with out, writes it there (cast
// 'unsafe', as NumPy's reductions do) and returns out. Checks out first.
ndarray run_reduce(ops::ReduceOp op, const ndarray& a, const ReducePlan& plan, DType acc,
                   const std::optional<ndarray>& out, std::string_view ufunc);

// where= of a reduction of `a`: a bool array broadcast to a's shape. TypeError as NumPy's
// when its dtype does not cast safely to bool; ValueError when it does not broadcast.
ndarray where_mask(const ndarray& where, const ndarray& a);

// Writes `result` (the plan's result shape) into out, cast 'unsafe'.
void deliver(const ndarray& result, const ndarray& out);
// Whether two arrays may share memory (same buffer).
inline bool may_share_memory(const ndarray& a, const ndarray& b) { return a.buffer() == b.buffer(); }

}  // namespace copper::api
