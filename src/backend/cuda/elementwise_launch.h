// The shared machinery of elementwise kernels (cuda_elementwise.cpp uses it for
// ufuncs, copies, fills and where): operand classification, layout class choice,
// source generation, parameter blocks and the launch.
#pragma once
#include <functional>
#include <string>

#include "backend/backend.h"

namespace copper::backend::cuda {

// Ids from kernel_families.h.
enum class EwFamily : unsigned { ufunc = 1, cast = 2, fill = 3, where = 4 };

struct EwJob {
  EwFamily family;
  unsigned op = 0;  // UfuncId for ufuncs
  const char* name = "";
  int nin = 0;
  const ArrayView* in[3] = {};
  const ArrayView* out = nullptr;
  // The output expression in terms of inputs x0.. (their storage types T0..) and
  // the output storage type R; only called when the kernel is not cached yet.
  std::function<std::string()> expression;
  // The second output of a two-output ufunc (nin <= 2): it travels in the last input
  // slot of the parameter block and the layout, and `expression` gets `y1`, an R2&.
  const ArrayView* out2 = nullptr;
  // errstate (cuda_fp_errors.h): a ufunc kernel that also classifies each result and
  // records the flags in fp_mask (FpFlag bits) for the next synchronization to report.
  bool fp_check = false;
  unsigned fp_mask = 0;
};

// Enqueues out[...] = expression(in[0][...], ...) on the device's current stream.
void run_elementwise(int device, const EwJob& job);

// A ufunc's loop over `in` into `out` (one or two outputs), the checked variant when
// `fp_mask` (errstate's watched FpFlag bits) is set and the results can carry those flags
// (CudaBackend::elementwise_multi with the thread's mask; a fused chain's fallback with
// each step's own).
void run_ufunc(int device, ops::UfuncId op, DType loop, std::span<const ArrayView> in, std::span<const ArrayView> out,
               unsigned fp_mask);
// Whether op over `loop` with results of `out` can raise errstate's flags: inexact results,
// or integer division (by zero).
bool ufunc_reports_fp(ops::UfuncId op, DType loop, DType out);

// The source run_elementwise would compile for `job` (for compile checks without a GPU).
std::string elementwise_source(const EwJob& job);
// The expression of a ufunc's loop, for EwJob::expression (two-output ops store their
// second result through `y1`).
std::string ufunc_expression(unsigned op, int nin);

bool is_c_contiguous_view(const ArrayView& v);
// A fill of n contiguous elements by cuMemsetD8/16/32 when the value's bytes repeat
// with that period (zeros, most integers); false when a kernel is needed.
bool try_memset(int device, void* dst, const unsigned char* value, std::size_t itemsize, std::size_t n);

}  // namespace copper::backend::cuda
