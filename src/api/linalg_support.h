// Shared pieces of copper::linalg: NumPy's type rules and shape checks, and the plumbing
// around the backend's DenseSolver (backend/dense_solver.h): packed working copies in
// the compute dtype, info arrays read back once per call, LinAlgError. Everything stays
// on the array's device; both backends take exactly the same path through here.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "backend/dense_solver.h"
#include "copper/ndarray.hpp"

namespace copper::api::linalg_detail {

// NumPy's _commonType: the result dtype (float32/float64/complex64/complex128); integer
// and bool input gives float64; float16 raises TypeError.
DType result_type(std::initializer_list<const ndarray*> arrays);
// The dtype the factorization runs in. NumPy runs float32/complex64 input through
// double-precision LAPACK and casts the results back, and the CPU does the same; GPUs
// run single precision as CuPy does (cuSOLVER's s/c routines: faster, half the memory,
// results within float32 rounding of the double-precision ones for well-conditioned input).
DType compute_type(DType result, Device device);

// `axis` made non-negative; AxisError naming the argument ("axisa: axis 3 is out of
// bounds ...", NumPy's wording for cross, diagonal, trace) when out of range.
int named_axis(const char* name, int axis, int ndim);
void check_stacked_2d(const ndarray& a);      // LinAlgError below 2-d
void check_stacked_square(const ndarray& a);  // LinAlgError unless the last two dims are equal
inline Shape batch_of(const ndarray& a) { return Shape(a.shape().begin(), a.shape().end() - 2); }
inline Shape with_core(Shape batch, std::initializer_list<std::int64_t> core) {
  batch.insert(batch.end(), core);
  return batch;
}

// The device's solver; RuntimeError where the backend has none.
backend::DenseSolver& solver_for(Device device);

// A fresh C-contiguous copy of the stack `a` (..., r, c) cast to t, shaped (count, r, c):
// each matrix, read column-major, is a's transpose (c x r). With `transposed`, the copy
// holds swapaxes(a, -1, -2) instead, so the column-major matrices are a's own (r x c).
ndarray packed_copy(const ndarray& a, DType t, bool transposed = false);
// The column-major stack a packed (count, R, C) C-contiguous array holds: count matrices
// of C rows and R columns.
backend::MatrixStack column_major(const ndarray& packed);

// info arrays: int32 (rows, count) on `device`, one row per routine called.
ndarray new_info(std::int64_t count, Device device, std::int64_t rows = 1);
// The info values on the host: one small device-to-host copy (synchronizes).
std::vector<int> read_info(const ndarray& info);
// LinAlgError(message) when any of `info` is positive (LAPACK's numerical failure), unless
// the thread's linalg error mode (copper/linalg_errstate.hpp) is ignore.
void raise_if_failed(const std::vector<int>& info, const char* message);
// The same for an info array, read back (synchronizing) only when the mode is raise.
void raise_if_failed(const ndarray& info, const char* message);

// inv of every matrix of a stack; singular ones raise LinAlgError or, for cond, give NaNs.
ndarray inverse(const ndarray& a, bool raise_if_singular);

}  // namespace copper::api::linalg_detail
