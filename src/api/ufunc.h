// The front end of every elementwise op: dtype resolution (NEP 50), broadcasting,
// out= checks, input casting, then one call into the backend.
#pragma once
#include <array>
#include <memory>
#include <span>

#include "backend/backend.h"
#include "copper/ufuncs.hpp"
#include "ops/catalogue.h"

namespace copper::api {

// Runs ufunc `op` over its inputs (1 to 3) as numpy.<op>(*inputs, out=, where=, dtype=,
// casting=, order=, signature=) does; returns the first output.
ndarray apply_ufunc(ops::UfuncId op, std::span<const operand* const> inputs, const UfuncOptions& opts);
// The same for any number of outputs: results[0..nout) receive them.
void apply_ufunc(ops::UfuncId op, std::span<const operand* const> inputs, const UfuncOptions& opts, ndarray* results);
// apply_ufunc's where= path: the op on the inputs alone, then a masked copy into out=.
void apply_masked(ops::UfuncId op, std::span<const operand* const> inputs, const UfuncOptions& opts, ndarray* results);

// The loop dtype numpy picks for `op` given each input's dtype (weak scalars already
// adapted), honouring dtype= and casting=. Throws NumPy's TypeErrors.
std::string dtype_class_name(DType t);  // "<class 'numpy.dtypes.Float64DType'>"
DType resolve_loop(ops::UfuncId op, std::span<const DType> in, std::span<const bool> weak, const UfuncOptions& opts);

// The dtypes the inputs bring to the loop search: arrays and strong scalars their own,
// weak scalars the dtype NEP 50 gives them next to the strong ones.
std::array<DType, 3> operand_dtypes(std::span<const operand* const> inputs);

// The name NumPy's messages give the op (numpy.true_divide calls itself 'divide').
std::string ufunc_name(ops::UfuncId op);
// "dtype('float64')", as NumPy writes dtypes in messages.
std::string dtype_repr(DType t);

// An input ready for a kernel: `view` is laid out over the output shape (zero strides
// along broadcast dimensions); `keep` holds whatever memory the view points into.
struct KernelInput {
  backend::ArrayView view;
  ndarray keep;
  alignas(16) unsigned char inline_value[16];  // a scalar's value (the view's host_value)
};
// An array input broadcast to `shape`, cast to `dtype` (a copy when the dtype differs or
// when it overlaps `dst` without being exactly dst's own view). With `backend_casts` (a
// backend whose elementwise loops convert as they read: Backend::casts_inputs) an input
// of another dtype that does not overlap `dst` keeps its own dtype and memory.
KernelInput array_input(const ndarray& a, const Shape& shape, DType dtype, const ndarray* dst,
                        bool backend_casts = false);
// A scalar input stored in k itself (the view points into k): one host element of
// `dtype`, read with zero strides; GPU backends pass it to kernels by value.
void scalar_input(KernelInput& k, const Scalar& s, const Shape& shape, DType dtype, Device device);

// The shape the op iterates over: the inputs broadcast together (scalars count as 0-d)
// and with out= when given, which must already have that shape. NumPy's messages.
Shape broadcast_inputs(std::span<const operand* const> inputs, const ndarray* out = nullptr);
// The same, without a copy when an operand already has that shape (`storage` otherwise).
const Shape& broadcast_inputs(std::span<const operand* const> inputs, const ndarray* out, Shape& storage);
// With several outputs (null entries ignored) and where= (broadcast like an input).
const Shape& broadcast_operands(std::span<const operand* const> inputs, std::span<const ndarray* const> outs,
                                const ndarray* where, Shape& storage);

}  // namespace copper::api
