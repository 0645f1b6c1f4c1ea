// apply_ufunc: the one path every elementwise op takes from arguments to a kernel call.
// Every check runs before the first byte is written, so errors leave arrays untouched.
#include <algorithm>
#include <limits>

#include "api/array_factory.h"
#include "api/ufunc.h"
#include "api/fusion_deferred.h"
#include "api/ufunc_exact_compare.h"
#include "copper/creation.hpp"
#include "copper/fusion.hpp"
#include "copper/manipulation.hpp"
#include "copper/warnings.hpp"
#include "ops/dtype_traits.h"

namespace copper::api {

using ops::UfuncId;

namespace {

bool is_comparison(UfuncId op) {
  return op == UfuncId::greater || op == UfuncId::greater_equal || op == UfuncId::less ||
         op == UfuncId::less_equal || op == UfuncId::equal || op == UfuncId::not_equal;
}

bool is_weak_int(const operand& x) {
  return !x.is_array() && x.scalar().weak() && (x.scalar().kind() == Kind::int_ || x.scalar().kind() == Kind::uint_);
}

[[noreturn]] void throw_int_overflow(const Scalar& s, DType t) {
  std::string v = s.kind() == Kind::uint_ ? std::to_string(s.to_uint64()) : std::to_string(s.to_int64());
  throw OverflowError("Python integer " + v + " out of bounds for " + std::string(name(t)));
}

// The smallest and largest value of integer dtype t, as scalars.
std::pair<Scalar, Scalar> int_range(DType t) {
  return ops::visit_dtype(t, [&]<class T>() -> std::pair<Scalar, Scalar> {
    if constexpr (ops::is_int_v<T>) return {Scalar(std::numeric_limits<T>::min()), Scalar(std::numeric_limits<T>::max())};
    else return {Scalar(0), Scalar(0)};
  });
}

// out= must accept the result dtype under the casting rule.
void check_out(UfuncId op, const ndarray& out, DType result, Casting casting) {
  if (!can_cast(result, out.dtype(), casting)) {
    throw TypeError("Cannot cast ufunc '" + ufunc_name(op) + "' output from " + dtype_repr(result) +
                    " to " + dtype_repr(out.dtype()) + " with casting rule '" + std::string(name(casting)) + "'");
  }
  warn_if_discarding_imaginary(result, out.dtype());
}

// NumPy 2 compares integer arrays with Python ints outside their range by value: the
// answer is the same for every element, so no loop runs.
std::optional<bool> out_of_range_comparison(UfuncId op, std::span<const operand* const> inputs,
                                            const std::array<DType, 3>& dtypes) {
  if (!is_comparison(op)) return std::nullopt;
  for (int k = 0; k < 2; ++k) {
    const operand& s = *inputs[k];
    const DType other = dtypes[1 - k];
    const operand& x = *inputs[1 - k];
    if (!is_weak_int(s) || (!x.is_array() && x.scalar().weak())) continue;
    if (!is_integer(other) || s.scalar().fits_in(other)) continue;
    const bool above = s.scalar().kind() == Kind::uint_ || s.scalar().to_int64() > 0;
    const bool x1_less = k == 1 ? above : !above;  // whether x1 < x2 holds for every element
    switch (op) {
      case UfuncId::less:
      case UfuncId::less_equal: return x1_less;
      case UfuncId::greater:
      case UfuncId::greater_equal: return !x1_less;
      case UfuncId::equal: return false;
      default: return true;  // not_equal
    }
  }
  return std::nullopt;
}

// Whether any element of an integer exponent is negative (NumPy refuses those powers).
bool has_negative(const operand& x) {
  if (!x.is_array()) return x.scalar().kind() == Kind::int_ && x.scalar().to_int64() < 0;
  const ndarray& a = x.array();
  if (kind(a.dtype()) != Kind::int_ || a.size() == 0) return false;
  auto flags = less(a, 0).to_vector<std::uint8_t>();
  return std::any_of(flags.begin(), flags.end(), [](std::uint8_t f) { return f != 0; });
}

// NumPy allocates outputs in the memory order of the inputs ('K'): a transposed input
// gives a transposed (F-ordered) result, so both are walked sequentially. order= 'C'
// and 'F' fix the layout; 'A' is F when every array input is F- but not C-contiguous.
Strides output_strides(std::span<const operand* const> inputs, const Shape& shape, std::int64_t isz, char order) {
  if (order == 'C') return c_strides(shape, isz);
  if (order == 'F') return f_strides(shape, isz);
  if (order == 'A') {
    bool fortran = false;
    for (const operand* x : inputs) {
      if (!x->is_array()) continue;
      if (!x->array().is_f_contiguous()) return c_strides(shape, isz);
      fortran = fortran || !x->array().is_c_contiguous();
    }
    return fortran ? f_strides(shape, isz) : c_strides(shape, isz);
  }
  // Only a layout every full-size input agrees on is kept; any disagreement means C order.
  const int nd = static_cast<int>(shape.size());
  auto axis_order = [&](const ndarray& a) {
    std::vector<int> axes(nd);
    for (int d = 0; d < nd; ++d) axes[d] = d;
    std::stable_sort(axes.begin(), axes.end(),
                     [&](int x, int y) { return std::abs(a.strides()[x]) > std::abs(a.strides()[y]); });
    return axes;
  };
  std::vector<int> axes_order;
  for (const operand* x : inputs) {
    if (!x->is_array() || x->array().shape() != shape) continue;
    if (x->array().is_c_contiguous()) return c_strides(shape, isz);
    std::vector<int> o = axis_order(x->array());
    if (axes_order.empty()) axes_order = std::move(o);
    else if (o != axes_order) return c_strides(shape, isz);
  }
  if (axes_order.empty()) return c_strides(shape, isz);
  Strides strides(nd);
  std::int64_t step = isz;
  for (int i = nd - 1; i >= 0; --i) {
    strides[axes_order[i]] = step;
    step *= std::max<std::int64_t>(shape[axes_order[i]], 1);
  }
  return strides;
}

}  // namespace

Shape broadcast_inputs(std::span<const operand* const> inputs, const ndarray* out) {
  Shape storage;
  return broadcast_inputs(inputs, out, storage);
}

const Shape& broadcast_inputs(std::span<const operand* const> inputs, const ndarray* out, Shape& storage) {
  const ndarray* outs[] = {out};
  return broadcast_operands(inputs, outs, nullptr, storage);
}

const Shape& broadcast_operands(std::span<const operand* const> inputs, std::span<const ndarray* const> outs,
                                const ndarray* where, Shape& storage) {
  const Shape* first = nullptr;
  bool same = true;
  auto see = [&](const Shape& s) {
    if (!first) first = &s;
    else same = same && s == *first;
  };
  for (const ndarray* o : outs)
    if (o) see(o->shape());
  for (const operand* x : inputs) {
    if (!x->is_array()) {
      same = same && first && first->empty();
      continue;
    }
    see(x->array().shape());
  }
  if (where) see(where->shape());
  if (same && first) return *first;
  // Scalars take part as 0-d arrays, then out= and where=, as in NumPy's message.
  std::vector<Shape> shapes;
  for (const operand* x : inputs) shapes.push_back(x->is_array() ? x->array().shape() : Shape{});
  for (const ndarray* o : outs)
    if (o) shapes.push_back(o->shape());
  if (where) shapes.push_back(where->shape());
  storage = broadcast_shapes(shapes);
  for (const ndarray* o : outs) {
    if (o && storage != o->shape()) {
      throw ValueError("non-broadcastable output operand with shape " + shape_str(o->shape()) +
                       " doesn't match the broadcast shape " + shape_str(storage));
    }
  }
  return storage;
}

KernelInput array_input(const ndarray& a, const Shape& shape, DType dtype, const ndarray* dst, bool backend_casts) {
  KernelInput k;
  DType view_dtype = dtype;
  if (a.dtype() != dtype) {
    warn_if_discarding_imaginary(a.dtype(), dtype);  // dtype= with casting='unsafe'
    // A loop that converts block by block reads the input in place, unless the output it
    // writes shares memory with it (a later block's input could be overwritten first).
    if (backend_casts && !(dst && overlaps(a, *dst))) view_dtype = a.dtype();
    else k.keep = astype(a, dtype);
  } else if (dst && overlaps(a, *dst)) {
    // Reading exactly the elements being written (x += 1) is safe; any other overlap is not.
    bool same_view = a.offset() == dst->offset() && a.shape() == dst->shape() && a.strides() == dst->strides();
    if (!same_view) k.keep = copy(a);
  }
  const ndarray& src = k.keep.valid() ? k.keep : a;  // the caller keeps `a` alive
  const int nd = static_cast<int>(shape.size());
  Strides strides(nd, 0);
  for (int i = 0; i < src.ndim(); ++i) {
    int j = nd - src.ndim() + i;
    if (src.shape()[i] != 1) strides[j] = src.strides()[i];
  }
  k.view = backend::ArrayView{src.size() ? src.data() : nullptr, view_dtype, shape, std::move(strides)};
  return k;
}

void scalar_input(KernelInput& k, const Scalar& s, const Shape& shape, DType dtype, Device device) {
  // Host memory: CPU kernels read it in place, GPU kernels get the value as a parameter.
  s.store(dtype, k.inline_value);
  k.view = backend::ArrayView{k.inline_value, dtype, shape, Strides(shape.size(), 0), device.type != DeviceType::cpu};
}

ndarray apply_ufunc(UfuncId op, std::span<const operand* const> inputs, const UfuncOptions& opts) {
  ndarray results[2];
  apply_ufunc(op, inputs, opts, results);
  return std::move(results[0]);
}

void apply_ufunc(UfuncId op, std::span<const operand* const> inputs, const UfuncOptions& opts, ndarray* results) {
  const ops::UfuncInfo& info = ops::info(op);
  const int nin = static_cast<int>(inputs.size());
  const int nout = info.nout;
  if (nin != info.nin) {
    throw TypeError(ufunc_name(op) + "() takes from " + std::to_string(info.nin) + " to " +
                    std::to_string(info.nin + info.nout) + " positional arguments but " + std::to_string(nin) +
                    " were given");
  }
  if (opts.where) return apply_masked(op, inputs, opts, results);
  const ndarray* outs[2] = {opts.out ? &*opts.out : nullptr, nout == 2 && opts.out2 ? &*opts.out2 : nullptr};
  const ndarray* arrays[5] = {};
  for (int k = 0; k < nin; ++k)
    if (inputs[k]->is_array()) arrays[k] = &inputs[k]->array();
  arrays[3] = outs[0];
  arrays[4] = outs[1];
  // Most calls have one device: only a mismatch needs the shared check and its message.
  const ndarray* first = nullptr;
  bool mixed = false;
  for (const ndarray* a : arrays) {
    if (!a) continue;
    if (!first) first = a;
    else mixed = mixed || a->device() != first->device();
  }
  const Device device = mixed ? common_device({arrays[0], arrays[1], arrays[2], arrays[3], arrays[4]}, default_device())
                        : first ? first->device()
                                : default_device();
  Shape shape_storage;
  auto broadcast = [&]() -> const Shape& {
    return broadcast_operands(inputs, std::span<const ndarray* const>(outs, nout), nullptr, shape_storage);
  };

  std::array<DType, 3> dtypes = operand_dtypes(inputs);
  // A Python int (or bool) for an input of fixed integer type (ldexp's exponent) does not
  // adapt to the other operands' float dtype: NumPy takes the first such loop, whose exponent
  // is int32 (so 2**40 is its OverflowError, checked below), and a bool casts to it.
  std::array<bool, 3> fixed_type{};
  for (int k = 0; k < nin; ++k) {
    if (!inputs[k]->is_array() && inputs[k]->scalar().weak() &&
        (is_integer(inputs[k]->scalar().dtype()) || inputs[k]->scalar().dtype() == DType::bool_) &&
        is_integer(ops::input_dtype(op, DType::float64, k))) {
      const Scalar& s = inputs[k]->scalar();
      if (s.dtype() != DType::bool_ && !s.fits_in(DType::int32)) throw_int_overflow(s, DType::int32);
      fixed_type[k] = true;
      dtypes[k] = DType::int32;
    }
  }
  if (exact_signed_unsigned_comparison(op, inputs, dtypes, opts, results)) return;
  if (auto constant = out_of_range_comparison(op, inputs, dtypes)) {
    const Shape& shape = broadcast();
    const ndarray* out = outs[0];
    if (out) {
      check_out(op, *out, bool_, opts.casting);
      if (out->size()) backend::backend_for(device).fill(backend::view_of(*out), Scalar(*constant));
      results[0] = *out;
    } else {
      results[0] = full(shape, Scalar(*constant), bool_, device);
    }
    return;
  }

  // clip(x, lo, hi) with Python ints past x's range clamps to the range (NumPy >= 2.1).
  std::array<Scalar, 3> scalars;
  for (int k = 0; k < nin; ++k)
    if (!inputs[k]->is_array()) scalars[k] = inputs[k]->scalar();
  if (op == UfuncId::clip && is_integer(dtypes[0])) {
    auto [lo, hi] = int_range(dtypes[0]);
    if (is_weak_int(*inputs[1]) && !scalars[1].fits_in(dtypes[0]) && scalars[1].kind() == Kind::int_ &&
        scalars[1].to_int64() < 0) {
      scalars[1] = lo;
      dtypes[1] = dtypes[0];
    }
    if (is_weak_int(*inputs[2]) && !scalars[2].fits_in(dtypes[0]) &&
        (scalars[2].kind() == Kind::uint_ || scalars[2].to_int64() > 0)) {
      scalars[2] = hi;
      dtypes[2] = dtypes[0];
    }
  }

  bool weak[3] = {};
  for (int k = 0; k < nin; ++k) weak[k] = !inputs[k]->is_array() && inputs[k]->scalar().weak() && !fixed_type[k];
  // A weak Python int must fit the loop's input type (int8_array + 300 raises), as NumPy
  // converts it to the loop: uint8_array / -2 runs the float loop and is fine.
  const DType loop = resolve_loop(op, std::span<const DType>(dtypes.data(), nin), std::span<const bool>(weak, nin), opts);
  for (int k = 0; k < nin; ++k) {
    if (!is_weak_int(*inputs[k])) continue;
    const DType target = ops::input_dtype(op, loop, k);
    if (is_integer(target) && !scalars[k].fits_in(target)) throw_int_overflow(scalars[k], target);
  }
  const DType result_dtypes[2] = {*info.out[static_cast<int>(loop)],
                                  nout == 2 ? *info.out2[static_cast<int>(loop)] : DType::bool_};
  for (int j = 0; j < nout; ++j)
    if (outs[j]) check_out(op, *outs[j], result_dtypes[j], opts.casting);
  // Shapes after types, as in NumPy: int8_array += float_array of a wrong shape is a
  // casting TypeError, not a broadcast ValueError.
  const Shape& shape = broadcast();
  const std::int64_t size = shape_size(shape);
  if (op == UfuncId::power && is_integer(loop) && size > 0 && has_negative(*inputs[1])) {
    throw ValueError("Integers to negative integer powers are not allowed.");
  }

  // Automatic fusion: recorded instead of run when the op fits the pending chain.
  if (nout == 1 && size > 0 && fusion_enabled()) {
    std::array<DeferredInput, 3> deferred;
    for (int k = 0; k < nin; ++k) {
      if (inputs[k]->is_array()) deferred[k].array = &inputs[k]->array();
      else deferred[k].scalar = &scalars[k];
    }
    const Strides strides = outs[0] ? Strides{} : output_strides(inputs, shape, itemsize(result_dtypes[0]), opts.order);
    if (defer_elementwise(op, loop, std::span<const DeferredInput>(deferred.data(), nin), outs[0], result_dtypes[0],
                          shape, strides, results[0]))
      return;
  }

  // Compute straight into out= when its dtype is the loop's; otherwise into a temporary.
  // The output view's vectors move into the new array afterwards: no copies on the hot path.
  auto& be = backend::backend_for(device);
  std::shared_ptr<Buffer> buffers[2];
  backend::ArrayView out_views[2];
  bool direct[2] = {};
  for (int j = 0; j < nout; ++j) {
    direct[j] = outs[j] && outs[j]->dtype() == result_dtypes[j];
    if (direct[j]) {
      out_views[j] = backend::view_of(*outs[j]);
    } else {
      buffers[j] = be.allocate(static_cast<std::size_t>(size * itemsize(result_dtypes[j])));
      out_views[j] = backend::ArrayView{buffers[j]->data(), result_dtypes[j], shape,
                                        output_strides(inputs, shape, itemsize(result_dtypes[j]), opts.order)};
    }
  }
  if (size > 0) {
    // An input overlapping a directly written output is copied first (unless it is exactly
    // the first output's view: x += 1 reads each element before writing it).
    std::array<KernelInput, 3> prepared;
    std::array<backend::ArrayView, 3> views;
    for (int k = 0; k < nin; ++k) {
      const DType in_dtype = ops::input_dtype(op, loop, k);
      if (inputs[k]->is_array() && direct[1] && overlaps(inputs[k]->array(), *outs[1])) {
        ndarray c = copy(inputs[k]->array());
        prepared[k] = array_input(c, shape, in_dtype, nullptr);
        if (!prepared[k].keep.valid()) prepared[k].keep = std::move(c);
      } else if (inputs[k]->is_array()) {
        prepared[k] = array_input(inputs[k]->array(), shape, in_dtype, direct[0] ? outs[0] : nullptr,
                                  be.casts_inputs());
      } else {
        scalar_input(prepared[k], scalars[k], shape, in_dtype, device);
      }
      views[k] = std::move(prepared[k].view);
    }
    const std::span<const backend::ArrayView> in_span(views.data(), nin);
    if (nout == 1) be.elementwise(op, loop, in_span, out_views[0]);
    else be.elementwise_multi(op, loop, in_span, std::span<const backend::ArrayView>(out_views, 2));
    for (int j = 0; j < nout; ++j)
      if (outs[j] && !direct[j]) be.copy(out_views[j], backend::view_of(*outs[j]));
  }
  for (int j = 0; j < nout; ++j) {
    if (outs[j]) results[j] = *outs[j];
    else results[j] = ndarray(std::move(buffers[j]), result_dtypes[j], std::move(out_views[j].shape),
                              std::move(out_views[j].strides), 0);
  }
}

// where=: the op runs on the inputs alone, then only the selected elements reach out=.
// (Without out=, NumPy leaves the other elements uninitialized; here they hold the result.)
void apply_masked(UfuncId op, std::span<const operand* const> inputs, const UfuncOptions& opts, ndarray* results) {
  const int nout = ops::info(op).nout;
  ndarray mask = *opts.where;
  if (!can_cast(mask.dtype(), bool_, Casting::safe)) {
    throw TypeError("Cannot cast array data from " + dtype_repr(mask.dtype()) +
                    " to dtype('bool') according to the rule 'safe'");
  }
  const ndarray* outs[2] = {opts.out ? &*opts.out : nullptr, nout == 2 && opts.out2 ? &*opts.out2 : nullptr};
  Shape shape_storage;
  const Shape shape = broadcast_operands(inputs, std::span<const ndarray* const>(outs, nout), &mask, shape_storage);
  UfuncOptions inner = opts;
  inner.where.reset();
  inner.out.reset();
  inner.out2.reset();
  ndarray raw[2];
  apply_ufunc(op, inputs, inner, raw);
  for (int j = 0; j < nout; ++j)
    if (outs[j]) check_out(op, *outs[j], raw[j].dtype(), opts.casting);
  common_device({&raw[0], &mask, outs[0], outs[1]}, raw[0].device());
  if (mask.dtype() != bool_) mask = mask.astype(bool_);
  for (int j = 0; j < nout; ++j) {
    const ndarray value = broadcast_to(raw[j], shape);
    if (!outs[j]) {
      results[j] = raw[j].shape() == shape ? raw[j] : ascontiguousarray(value);
      continue;
    }
    results[j] = *outs[j];
    if (shape_size(shape) == 0) continue;
    const ndarray cast = value.dtype() == outs[j]->dtype() ? value : value.astype(outs[j]->dtype());
    const ndarray cond = broadcast_to(mask, shape);
    backend_of(*outs[j]).where(backend::view_of(cond), backend::view_of(cast), backend::view_of(*outs[j]),
                               backend::view_of(*outs[j]));
  }
}

}  // namespace copper::api
