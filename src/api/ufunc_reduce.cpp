// ufunc.reduce, accumulate and reduceat for every binary ufunc. Ops with a parallel
// ReduceOp / ScanOp (add, multiply, maximum, minimum, fmax, fmin, logical_and,
// logical_or) go through the reductions' own paths; every other op folds sequentially
// along the axis (Backend::fold), which is NumPy's order of operations.
#include <algorithm>
#include <cmath>
#include <limits>

#include "api/reduction_support.h"
#include "api/ufunc.h"
#include "copper/creation.hpp"
#include "copper/manipulation.hpp"
#include "copper/reductions.hpp"

namespace copper {

namespace {

using ops::UfuncId;

void check_binary(UfuncId op, const char* method) {
  const auto& info = ops::info(op);
  if (info.nin != 2) throw ValueError(std::string(method) + " only supported for binary functions");
  if (info.nout != 1) throw ValueError(std::string(method) + " only supported for functions returning a single value");
}

// The ReduceOp of the ops that have one.
std::optional<ops::ReduceOp> reduce_op_of(UfuncId op) {
  switch (op) {
    case UfuncId::add: return ops::ReduceOp::sum;
    case UfuncId::multiply: return ops::ReduceOp::prod;
    case UfuncId::maximum: return ops::ReduceOp::max;
    case UfuncId::minimum: return ops::ReduceOp::min;
    case UfuncId::fmax: return ops::ReduceOp::nanmax;
    case UfuncId::fmin: return ops::ReduceOp::nanmin;
    case UfuncId::logical_and: return ops::ReduceOp::all;
    case UfuncId::logical_or: return ops::ReduceOp::any;
    default: return std::nullopt;
  }
}

bool is_logical(UfuncId op) {
  return op == UfuncId::logical_and || op == UfuncId::logical_or || op == UfuncId::logical_xor;
}

// The dtype a reduction accumulates in: dtype=, else NumPy's defaults (add and multiply
// widen small integers; the logical ops work in bool; others keep the input's dtype),
// then the first loop reached by a safe cast whose output dtype is its input dtype.
DType accumulation_dtype(UfuncId op, DType a, std::optional<DType> dtype) {
  DType want = dtype ? *dtype
               : is_logical(op) ? bool_
               : (op == UfuncId::add || op == UfuncId::multiply) ? api::default_sum_dtype(a)
                                                                  : a;
  if (ops::out_dtype(op, want) == want && ops::input_dtype(op, want, 1) == want) return want;
  for (int d = 0; d < num_dtypes; ++d) {
    const DType t = static_cast<DType>(d);
    if (ops::out_dtype(op, t) == t && ops::input_dtype(op, t, 1) == t && can_cast(want, t, Casting::safe)) return t;
  }
  if (!dtype && ops::out_dtype(op, want) == bool_)  // comparisons: bool out, want in
    throw TypeError("ufunc '" + api::ufunc_name(op) + "' did not contain a loop with signature matching types (" +
                    api::dtype_class_name(bool_) + ", " + api::dtype_class_name(want) + ") -> None");
  throw TypeError("No loop matching the specified signature and casting was found for ufunc " + api::ufunc_name(op));
}

std::optional<Scalar> identity_scalar(UfuncId op) { return ufunc(op).identity(); }

// initial= in the accumulation dtype, converted as NumPy converts it: into an integer
// dtype through Python's int() (a float truncates; a complex is a TypeError), and the
// integer must then fit.
Scalar typed_initial(const Scalar& s, DType acc) {
  if (!is_integer(acc)) return Scalar::typed(s, acc);
  Scalar v = s;
  if (s.kind() == Kind::complex_)
    throw TypeError("int() argument must be a string, a bytes-like object or a real number, not 'complex'");
  if (s.kind() == Kind::float_) {
    const double x = std::trunc(s.to_double());
    if (std::isnan(x)) throw ValueError("cannot convert float NaN to integer");
    if (std::isinf(x)) throw OverflowError("cannot convert float infinity to integer");
    if (x >= 0x1p64 || x < -0x1p63) throw OverflowError("Python int too large to convert to C long");
    v = x >= 0x1p63 ? Scalar(static_cast<std::uint64_t>(x)) : Scalar(static_cast<std::int64_t>(x));
  }
  if (!v.fits_in(acc)) {
    const std::string shown = v.kind() == Kind::uint_ ? std::to_string(v.to_uint64()) : std::to_string(v.to_int64());
    throw OverflowError("Python integer " + shown + " out of bounds for " + std::string(name(acc)));
  }
  return Scalar::typed(v, acc);
}

// A view of `a` with the plan's kept axes first and its reduced axes merged into one
// last axis (a copy when they are not mergeable).
ndarray reduced_axis_last(const ndarray& a, const api::ReducePlan& plan) {
  ndarray v = api::reduced_axes_last(a, plan);
  if (plan.nreduce == 1) return v;
  Shape shape = plan.kept_shape;
  shape.push_back(plan.count);
  return reshape(v, shape);
}

ndarray keepdims_view(const ndarray& r, const api::ReducePlan& plan) {
  if (!plan.keepdims) return r;
  return reshape(r, plan.result_shape);
}

// The fold path: in (kept..., n) of the loop dtype, starting from `start` when given.
ndarray fold_reduce(UfuncId op, DType loop, const ndarray& in, const Shape& kept, const std::optional<Scalar>& start,
                    const ndarray* where) {
  ndarray result = start ? full(kept, *start, loop, in.device()) : api::allocate(kept, loop, in.device());
  backend::FoldOptions fo;
  fo.from_out = start.has_value();
  backend::ArrayView wv;
  if (where) {
    wv = backend::view_of(*where);
    fo.where = &wv;
  }
  if (in.size() > 0 || !start) api::backend_of(in).fold(op, loop, backend::view_of(in), backend::view_of(result), fo);
  return result;
}

// NumPy's add.reduce starts from initial= (with initial=None, from each row's first
// element), so a row of only -0.0 sums to -0.0 when that start is -0.0 or absent. copper's
// sum starts from +0 (NumPy's identity, right for every other case), which makes it +0.0:
// such rows, a zero total whose reduced elements (those where= keeps) all carry the sign
// bit, get the sign back. Only float sums with such a start pay for the extra pass.
ndarray signed_zero_rows(const ndarray& total, const ndarray& x, const Axes& axis, const ndarray* mask) {
  ndarray negative = signbit(x);
  if (mask) negative = logical_or(negative, logical_not(*mask));
  const ndarray all_negative = all(negative, axis);
  return where(logical_and(equal(total, 0), all_negative), full({}, Scalar(-0.0), total.dtype(), total.device()),
               total);
}

bool negative_zero(const Scalar& v) { return v.to_double() == 0 && std::signbit(v.to_double()); }

}  // namespace

ndarray ufunc::reduce(const ndarray& a, const Axes& axis, const UfuncReduceOptions& opts) const {
  const UfuncId op = id_;
  check_binary(op, "reduce");
  const std::string uname = api::ufunc_name(op);
  const auto& info = ops::info(op);
  auto plan = api::plan_reduction(a, axis, opts.keepdims);
  if (!info.reorderable && plan.nreduce > 1) {
    throw ValueError("reduction operation '" + uname + "' is not reorderable, so at most one axis may be specified");
  }
  const DType acc = accumulation_dtype(op, a.dtype(), opts.dtype);
  if (opts.out) api::check_reduce_out(*opts.out, a, plan, uname);
  const std::optional<Scalar> identity = opts.use_identity ? identity_scalar(op) : std::nullopt;
  if (opts.where && !opts.initial && !identity) {
    throw ValueError("reduction operation '" + uname +
                     "' does not have an identity, so to use a where mask one has to specify 'initial'");
  }
  std::optional<Scalar> start = opts.initial ? typed_initial(*opts.initial, acc)
                                : identity   ? std::optional<Scalar>(Scalar::typed(*identity, acc))
                                             : std::nullopt;
  if (plan.count == 0 && !start)
    throw ValueError("zero-size array to reduction operation " + uname + " which has no identity");

  ndarray mask;
  if (opts.where) mask = api::where_mask(*opts.where, a);
  ndarray result;
  auto rop = reduce_op_of(op);
  if (rop && !is_inexact(acc) && (*rop == ops::ReduceOp::nanmax || *rop == ops::ReduceOp::nanmin))
    rop = *rop == ops::ReduceOp::nanmax ? ops::ReduceOp::max : ops::ReduceOp::min;
  if (plan.nreduce == 0) {
    // Nothing to reduce: each element alone (combined with initial= where given).
    const ndarray x = a.astype(acc, Casting::unsafe, false);
    if (opts.initial) {
      const operand first(full({}, *start, acc, a.device())), second(x);
      const operand* in[] = {&first, &second};
      result = api::apply_ufunc(op, in, {});
    } else {
      result = x.copy();
    }
  } else if (rop) {
    // Parallel reduction; an explicit initial= joins the result once more.
    ndarray x = a.dtype() == acc || *rop == ops::ReduceOp::all || *rop == ops::ReduceOp::any
                    ? a
                    : a.astype(acc, Casting::unsafe, false);
    // Masked-out elements become the identity (the start value for max/min, which have
    // none but absorb a repeated initial=).
    const Scalar fill = identity ? Scalar::typed(*identity, acc) : *start;
    const ndarray unmasked = x;
    if (opts.where) x = copper::where(mask, x, full({}, fill, x.dtype(), x.device()));
    if (plan.count == 0) {
      result = full(plan.kept_shape, *start, acc, a.device());
    } else {
      result = api::run_reduce(*rop, x, plan, acc, std::nullopt, uname);
      if (plan.keepdims) result = reshape(result, plan.kept_shape);
      if (*rop == ops::ReduceOp::sum && is_floating(acc) && (!start || negative_zero(*start)))
        result = signed_zero_rows(result, unmasked, axis, opts.where ? &mask : nullptr);
      if (opts.initial) result = binary_ufunc(op)(result, full({}, *start, acc, a.device()));
    }
  } else {
    ndarray in = reduced_axis_last(a.astype(acc, Casting::unsafe, false), plan);
    ndarray w;
    if (opts.where) w = reduced_axis_last(mask, plan);
    result = fold_reduce(op, acc, in, plan.kept_shape, start, opts.where ? &w : nullptr);
  }
  if (!opts.out) return keepdims_view(result, plan);
  api::deliver(keepdims_view(result, plan), *opts.out);
  return *opts.out;
}

ndarray ufunc::accumulate(const ndarray& a, int axis, std::optional<DType> dtype,
                          const std::optional<ndarray>& out) const {
  const UfuncId op = id_;
  check_binary(op, "accumulate");
  if (a.ndim() == 0) throw TypeError("cannot accumulate on a scalar");
  const int ax = normalize_axis(axis, a.ndim());
  const DType acc = accumulation_dtype(op, a.dtype(), dtype);
  if (out) {
    api::common_device({&a, &*out}, a.device());
    if (out->shape() != a.shape())
      throw ValueError("operands could not be broadcast together with remapped shapes [original->remapped]: " +
                       shape_str(out->shape()) + "->" + shape_str(out->shape()) + " " + shape_str(a.shape()) + "->" +
                       shape_str(a.shape()) + " ");
  }
  if (op == UfuncId::add) return cumsum(a, ax, acc, out);
  if (op == UfuncId::multiply) return cumprod(a, ax, acc, out);
  ndarray result = api::allocate(a.shape(), acc, a.device());
  if (a.size() > 0) {
    ndarray in = moveaxis(a.astype(acc, Casting::unsafe, false), {ax}, {-1});
    ndarray r = moveaxis(result, {ax}, {-1});
    backend::FoldOptions fo;
    fo.scan = true;
    api::backend_of(a).fold(op, acc, backend::view_of(in), backend::view_of(r), fo);
  }
  if (!out) return result;
  api::deliver(result, *out);
  return *out;
}

ndarray ufunc::reduceat(const ndarray& a, const ndarray& indices, int axis, std::optional<DType> dtype,
                        const std::optional<ndarray>& out) const {
  const UfuncId op = id_;
  check_binary(op, "reduceat");
  const std::string uname = api::ufunc_name(op);
  if (a.ndim() == 0) throw TypeError("cannot reduceat on a scalar");
  const int ax = normalize_axis(axis, a.ndim());
  if (indices.ndim() > 1) throw ValueError("object too deep for desired array");
  if (!is_integer(indices.dtype()) && indices.size() > 0)
    throw TypeError("Cannot cast array data from " + api::dtype_repr(indices.dtype()) +
                    " to dtype('int64') according to the rule 'safe'");
  const std::int64_t n = a.shape()[ax];
  const std::vector<std::int64_t> idx = indices.size() ? indices.astype(int64).to_vector<std::int64_t>()
                                                       : std::vector<std::int64_t>{};
  std::vector<std::int64_t> bounds;
  for (std::size_t j = 0; j < idx.size(); ++j) {
    if (idx[j] < 0 || idx[j] >= n)
      throw IndexError("index " + std::to_string(idx[j]) + " out-of-bounds in " + uname + ".reduceat [0, " +
                       std::to_string(n) + ")");
    const std::int64_t stop = j + 1 < idx.size() ? idx[j + 1] : n;
    bounds.push_back(idx[j]);
    bounds.push_back(stop > idx[j] ? stop : idx[j] + 1);
  }
  const DType acc = accumulation_dtype(op, a.dtype(), dtype);
  Shape shape = a.shape();
  shape[ax] = static_cast<std::int64_t>(idx.size());
  if (out) {
    api::common_device({&a, &*out}, a.device());
    if (out->shape() != shape)
      throw ValueError("output operand has the wrong shape " + shape_str(out->shape()) + ", expected " +
                       shape_str(shape));
  }
  ndarray result = api::allocate(shape, acc, a.device());
  if (result.size() > 0) {
    const ndarray segments = array(bounds.data(), {static_cast<std::int64_t>(idx.size()), 2}, int64, a.device());
    ndarray in = moveaxis(a.astype(acc, Casting::unsafe, false), {ax}, {-1});
    ndarray r = moveaxis(result, {ax}, {-1});
    backend::FoldOptions fo;
    const backend::ArrayView sv = backend::view_of(segments);
    fo.segments = &sv;
    api::backend_of(a).fold(op, acc, backend::view_of(in), backend::view_of(r), fo);
  }
  if (!out) return result;
  api::deliver(result, *out);
  return *out;
}

}  // namespace copper
