// apply_ufunc: the one path every elementwise op takes from arguments to a kernel call.
// Every check runs before the first byte is written, so errors leave arrays untouched.
#include <algorithm>
#include <limits>

#include "api/array_factory.h"
#include "api/ufunc.h"
#include "copper/creation.hpp"
#include "copper/manipulation.hpp"
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
// gives a transposed (F-ordered) result, so both are walked sequentially.
Strides output_strides(std::span<const operand* const> inputs, const Shape& shape, std::int64_t isz) {
  // Only a layout every full-size input agrees on is kept; any disagreement means C order.
  const int nd = static_cast<int>(shape.size());
  auto axis_order = [&](const ndarray& a) {
    std::vector<int> order(nd);
    for (int d = 0; d < nd; ++d) order[d] = d;
    std::stable_sort(order.begin(), order.end(),
                     [&](int x, int y) { return std::abs(a.strides()[x]) > std::abs(a.strides()[y]); });
    return order;
  };
  std::vector<int> order;
  for (const operand* x : inputs) {
    if (!x->is_array() || x->array().shape() != shape) continue;
    if (x->array().is_c_contiguous()) return c_strides(shape, isz);
    std::vector<int> o = axis_order(x->array());
    if (order.empty()) order = std::move(o);
    else if (o != order) return c_strides(shape, isz);
  }
  if (order.empty()) return c_strides(shape, isz);
  Strides strides(nd);
  std::int64_t step = isz;
  for (int i = nd - 1; i >= 0; --i) {
    strides[order[i]] = step;
    step *= std::max<std::int64_t>(shape[order[i]], 1);
  }
  return strides;
}

}  // namespace

Shape broadcast_inputs(std::span<const operand* const> inputs, const ndarray* out) {
  Shape storage;
  return broadcast_inputs(inputs, out, storage);
}

const Shape& broadcast_inputs(std::span<const operand* const> inputs, const ndarray* out, Shape& storage) {
  const Shape* first = out ? &out->shape() : nullptr;
  bool same = true;
  for (const operand* x : inputs) {
    if (!x->is_array()) {
      same = same && first && first->empty();
      continue;
    }
    if (!first) first = &x->array().shape();
    else same = same && x->array().shape() == *first;
  }
  if (same && first) return *first;
  // Scalars take part as 0-d arrays and out= as the last operand, as in NumPy's message.
  std::vector<Shape> shapes;
  for (const operand* x : inputs) shapes.push_back(x->is_array() ? x->array().shape() : Shape{});
  if (out) shapes.push_back(out->shape());
  storage = broadcast_shapes(shapes);
  if (out && storage != out->shape()) {
    throw ValueError("non-broadcastable output operand with shape " + shape_str(out->shape()) +
                     " doesn't match the broadcast shape " + shape_str(storage));
  }
  return storage;
}

KernelInput array_input(const ndarray& a, const Shape& shape, DType dtype, const ndarray* dst) {
  KernelInput k;
  if (a.dtype() != dtype) {
    k.keep = astype(a, dtype);
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
  k.view = backend::ArrayView{src.size() ? src.data() : nullptr, dtype, shape, std::move(strides)};
  return k;
}

void scalar_input(KernelInput& k, const Scalar& s, const Shape& shape, DType dtype, Device device) {
  // Host memory: CPU kernels read it in place, GPU kernels get the value as a parameter.
  s.store(dtype, k.inline_value);
  k.view = backend::ArrayView{k.inline_value, dtype, shape, Strides(shape.size(), 0), device.type != DeviceType::cpu};
}

ndarray apply_ufunc(UfuncId op, std::span<const operand* const> inputs, const UfuncOptions& opts) {
  const int nin = static_cast<int>(inputs.size());
  const ndarray* out = opts.out ? &*opts.out : nullptr;
  const ndarray* arrays[4] = {};
  for (int k = 0; k < nin; ++k)
    if (inputs[k]->is_array()) arrays[k] = &inputs[k]->array();
  arrays[3] = out;
  // Most calls have one device: only a mismatch needs the shared check and its message.
  const ndarray* first = nullptr;
  bool mixed = false;
  for (const ndarray* a : arrays) {
    if (!a) continue;
    if (!first) first = a;
    else mixed = mixed || a->device() != first->device();
  }
  const Device device = mixed ? common_device({arrays[0], arrays[1], arrays[2], arrays[3]}, default_device())
                        : first ? first->device()
                                : default_device();
  Shape shape_storage;
  const Shape& shape = broadcast_inputs(inputs, out, shape_storage);

  std::array<DType, 3> dtypes = operand_dtypes(inputs);
  if (auto constant = out_of_range_comparison(op, inputs, dtypes)) {
    if (out) {
      check_out(op, *out, bool_, opts.casting);
      if (out->size()) backend::backend_for(device).fill(backend::view_of(*out), Scalar(*constant));
      return *out;
    }
    return full(shape, Scalar(*constant), bool_, device);
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
  for (int k = 0; k < nin; ++k) weak[k] = !inputs[k]->is_array() && inputs[k]->scalar().weak();
  // A weak Python int must fit the integer dtype it adapts to (int8_array + 300 raises).
  auto check_weak_ints = [&](DType loop, bool forced) {
    for (int k = 0; k < nin; ++k) {
      if (!is_weak_int(*inputs[k])) continue;
      DType target = forced ? loop : dtypes[k];
      if (is_integer(target) && !scalars[k].fits_in(target)) throw_int_overflow(scalars[k], target);
    }
  };
  if (!opts.dtype) check_weak_ints(dtypes[0], false);
  const DType loop = resolve_loop(op, std::span<const DType>(dtypes.data(), nin), std::span<const bool>(weak, nin), opts);
  if (opts.dtype) check_weak_ints(loop, true);
  const DType result_dtype = *ops::out_dtype(op, loop);
  if (out) check_out(op, *out, result_dtype, opts.casting);
  const std::int64_t size = shape_size(shape);
  if (op == UfuncId::power && is_integer(loop) && size > 0 && has_negative(*inputs[1])) {
    throw ValueError("Integers to negative integer powers are not allowed.");
  }

  // Compute straight into out= when its dtype is the loop's; otherwise into a temporary.
  // The output view's vectors move into the new array afterwards: no copies on the hot path.
  const bool direct = out && out->dtype() == result_dtype;
  auto& be = backend::backend_for(device);
  std::shared_ptr<Buffer> buffer;
  backend::ArrayView out_view;
  if (direct) {
    out_view = backend::view_of(*out);
  } else {
    buffer = be.allocate(static_cast<std::size_t>(size * itemsize(result_dtype)));
    out_view = backend::ArrayView{buffer->data(), result_dtype, shape,
                                  output_strides(inputs, shape, itemsize(result_dtype))};
  }
  if (size > 0) {
    std::array<KernelInput, 3> prepared;
    std::array<backend::ArrayView, 3> views;
    for (int k = 0; k < nin; ++k) {
      if (inputs[k]->is_array()) prepared[k] = array_input(inputs[k]->array(), shape, loop, direct ? out : nullptr);
      else scalar_input(prepared[k], scalars[k], shape, loop, device);
      views[k] = std::move(prepared[k].view);
    }
    be.elementwise(op, loop, std::span<const backend::ArrayView>(views.data(), nin), out_view);
    if (out && !direct) be.copy(out_view, backend::view_of(*out));
  }
  if (out) return *out;
  return ndarray(std::move(buffer), result_dtype, std::move(out_view.shape), std::move(out_view.strides), 0);
}

}  // namespace copper::api
