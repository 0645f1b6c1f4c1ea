// Automatic fusion's recording side (copper/fusion.hpp): apply_ufunc hands an op here
// after every check; it is recorded into the pending chain, or refused and run at once.
#pragma once
#include <span>

#include "copper/ndarray.hpp"
#include "ops/catalogue.h"

namespace copper::api {

// One input of the op: an array already of the loop's input dtype, or a scalar.
struct DeferredInput {
  const ndarray* array = nullptr;
  const Scalar* scalar = nullptr;
};

// Records out = op(inputs) over `shape` (result: `out` itself, or a new C-ordered array of
// `result_dtype` with `out_strides` chosen by the caller) when fusion is on and every
// operand fits a chain (fused_chain.h); returns false, having recorded nothing, otherwise.
bool defer_elementwise(ops::UfuncId op, DType loop, std::span<const DeferredInput> inputs, const ndarray* out,
                       DType result_dtype, const Shape& shape, const Strides& out_strides, ndarray& result);

// where(inputs[0], inputs[1], inputs[2]) into a new C-ordered array of `dtype` over `shape`:
// the condition an array of bool or a scalar, the others arrays of `dtype` or scalars
// (stored as `dtype`, unchecked, as the eager where does).
bool defer_where(std::span<const DeferredInput, 3> inputs, DType dtype, const Shape& shape, ndarray& result);

// src converted to `dtype` into a new array with `strides` (astype, copy): recorded when
// those are src's shape in C order.
bool defer_cast(const ndarray& src, DType dtype, const Strides& strides, ndarray& result);

// Backend::reduce(op, in, nreduce, out) recorded as the end of the pending chain, when fusion
// is on and `in` is all of a buffer the chain writes (in C order up to the order of its
// axes, as the front end's reduced-axes-last view of a chain result is) and out is memory
// the chain does not touch; the backend may then compute the reduction's input inside the
// reduction, never storing it. Returns false, having recorded nothing, otherwise.
bool defer_reduce(ops::ReduceOp op, const ndarray& in, int nreduce, const ndarray& out);

}  // namespace copper::api
