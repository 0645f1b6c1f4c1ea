// Ranges: arange, linspace, logspace, eye, identity. Values are computed as NumPy
// computes them (same operations in the same precision), so results match bit for bit.
#include <cmath>
#include <complex>
#include <limits>

#include "api/array_factory.h"
#include "api/creation_ranges.h"
#include "api/promotion.h"
#include "copper/creation.hpp"
#include "copper/manipulation.hpp"

namespace copper {

namespace {

bool is_complex_scalar(const Scalar& s) { return s.kind() == Kind::complex_; }
bool is_integral_scalar(const Scalar& s) {
  return s.kind() == Kind::int_ || s.kind() == Kind::uint_ || s.kind() == Kind::bool_;
}

// A value rounded to dtype t as NumPy stores a Python number (float16 goes through float32).
Scalar stored(const Scalar& v, DType t) {
  if (t == float16 && !is_integral_scalar(v)) return Scalar::typed(Scalar::typed(v, float32), float16);
  return Scalar::typed(v, t);
}

// a - b computed in dtype t's precision (double arithmetic rounds correctly to float).
Scalar difference_in(const Scalar& a, const Scalar& b, DType t) {
  if (is_complex(t)) return stored(Scalar(a.to_complex() - b.to_complex()), t);
  return stored(Scalar(a.to_double() - b.to_double()), t);
}

Scalar quotient_in(const Scalar& a, std::int64_t div, DType t) {
  if (is_complex(t)) {
    // NumPy's complex division (Smith's method) by a real divisor multiplies by its reciprocal.
    if (t == complex64) {
      float scale = 1.0f / static_cast<float>(div);
      auto z = std::complex<float>(a.to_complex());
      return Scalar::typed(Scalar(std::complex<float>(z.real() * scale, z.imag() * scale)), t);
    }
    double scale = 1.0 / static_cast<double>(div);
    auto z = a.to_complex();
    return Scalar::typed(Scalar(std::complex<double>(z.real() * scale, z.imag() * scale)), t);
  }
  return stored(Scalar(a.to_double() / static_cast<double>(div)), t);
}

// out = op(x, y) through the backend, y being a scalar broadcast over x's shape.
void binary_with_scalar(ops::UfuncId op, const ndarray& x, const Scalar& y, const ndarray& out) {
  ndarray y_array = full(Shape{}, y, x.dtype(), x.device());
  backend::ArrayView in[2] = {backend::view_of(x), backend::view_of(broadcast_to(y_array, x.shape()))};
  api::backend_of(out).elementwise(op, x.dtype(), in, backend::view_of(out));
}

// start + i * delta for i in [0, n), computed in dtype t with t's own arithmetic.
ndarray ramp(std::int64_t n, DType t, const Scalar& start, const Scalar& delta, Device device) {
  ndarray out = api::allocate(Shape{n}, t, device);
  if (n == 0) return out;
  if (t == float64 || t == complex128) {
    api::backend_of(out).iota(backend::view_of(out), start, delta);  // double arithmetic already
    return out;
  }
  // Narrower floats: i converted to t, then multiply and add rounded in t, as NumPy's loops do.
  ndarray index = api::allocate(Shape{n}, int64, device);
  api::backend_of(out).iota(backend::view_of(index), Scalar(0), Scalar(1));
  api::backend_of(out).copy(backend::view_of(index), backend::view_of(out));
  binary_with_scalar(ops::UfuncId::multiply, out, delta, out);
  binary_with_scalar(ops::UfuncId::add, out, start, out);
  return out;
}

void set_element(const ndarray& a, std::int64_t i, const Scalar& v) {
  api::backend_of(a).fill(backend::view_of(a[i]), v);
}

std::int64_t checked_length(double len) {
  if (std::isnan(len)) throw ValueError("arange: cannot compute length");
  if (len <= 0) return 0;
  if (len > static_cast<double>(std::numeric_limits<std::int64_t>::max() / 16))
    throw ValueError("Maximum allowed size exceeded");
  return static_cast<std::int64_t>(std::ceil(len));
}

std::int64_t arange_length(const Scalar& start, const Scalar& stop, const Scalar& step) {
  if (is_integral_scalar(start) && is_integral_scalar(stop) && is_integral_scalar(step)) {
    __int128 a = start.kind() == Kind::uint_ ? static_cast<__int128>(start.to_uint64()) : start.to_int64();
    __int128 b = stop.kind() == Kind::uint_ ? static_cast<__int128>(stop.to_uint64()) : stop.to_int64();
    __int128 s = step.kind() == Kind::uint_ ? static_cast<__int128>(step.to_uint64()) : step.to_int64();
    if (s == 0) throw ValueError("arange: step must not be zero (division by zero)");
    __int128 span = b - a;
    __int128 len = span / s + ((span % s != 0) && ((span % s > 0) == (s > 0)) ? 1 : 0);
    return checked_length(static_cast<double>(len));
  }
  if (is_complex_scalar(start) || is_complex_scalar(stop) || is_complex_scalar(step)) {
    if (step.to_complex() == std::complex<double>(0)) throw ValueError("arange: step must not be zero (division by zero)");
    std::complex<double> q = (stop.to_complex() - start.to_complex()) / step.to_complex();
    // NumPy takes the shorter of the real and imaginary extents.
    return std::min(checked_length(q.real()), checked_length(q.imag()));
  }
  if (step.to_double() == 0) throw ValueError("arange: step must not be zero (division by zero)");
  double delta = stop.to_double() - start.to_double();
  double q = delta / step.to_double();
  // A nonzero span too small to register still yields one element in the step's direction.
  if (q == 0 && delta != 0) return std::signbit(q) ? 0 : 1;
  return checked_length(q);
}

DType linspace_dtype(const Scalar& start, const Scalar& stop) {
  DType dt = api::result_type({operand(start), operand(stop)}, false);
  return is_inexact(dt) ? dt : default_float;
}

std::int64_t linspace_div(std::int64_t num, bool endpoint) {
  if (num < 0) throw ValueError("Number of samples, " + std::to_string(num) + ", must be non-negative.");
  return endpoint ? num - 1 : num;
}

}  // namespace

ndarray arange(const Scalar& stop, std::optional<DType> dtype, Device device) {
  return arange(Scalar(0), stop, Scalar(1), dtype, device);
}

ndarray arange(const Scalar& start, const Scalar& stop, const Scalar& step, std::optional<DType> dtype,
               Device device) {
  // NumPy picks the dtype from the kinds of the arguments only (np.int32 bounds still give int64).
  DType natural = is_complex_scalar(start) || is_complex_scalar(stop) || is_complex_scalar(step) ? complex128
                  : is_integral_scalar(start) && is_integral_scalar(stop) && is_integral_scalar(step)
                      ? int64
                      : float64;
  DType t = dtype.value_or(natural);
  std::int64_t n = arange_length(start, stop, step);
  if (t == bool_ && n > 2) throw TypeError("arange() is only supported for booleans when the result has at most length 2.");

  // NumPy stores start and start + step, then fills i >= 2 with first + i * (second - first).
  Scalar next = is_integral_scalar(start) && is_integral_scalar(step) ? Scalar(start.to_int64() + step.to_int64())
                : is_complex_scalar(start) || is_complex_scalar(step) ? Scalar(start.to_complex() + step.to_complex())
                                                                       : Scalar(start.to_double() + step.to_double());
  Scalar first = stored(start, t), second = stored(next, t);
  if (t == bool_ || is_integer(t)) {
    ndarray out = api::allocate(Shape{n}, t, device);
    if (n) api::backend_of(out).iota(backend::view_of(out), Scalar(first.to_int64()),
                                     Scalar(second.to_int64() - first.to_int64()));
    return out;
  }
  // float16 fills are computed in float32 by NumPy, then rounded.
  DType compute = t == float16 ? float32 : t;
  Scalar first_c = Scalar::typed(first, compute), second_c = Scalar::typed(second, compute);
  ndarray values = ramp(n, compute, first_c, difference_in(second_c, first_c, compute), device);
  if (n >= 2) set_element(values, 1, second_c);
  return compute == t ? values : values.astype(t);
}

std::optional<Scalar> api::linspace_step(const Scalar& start, const Scalar& stop, std::int64_t num, bool endpoint) {
  std::int64_t div = linspace_div(num, endpoint);
  if (div <= 0) return std::nullopt;
  DType dt = linspace_dtype(start, stop);
  return quotient_in(difference_in(stored(stop, dt), stored(start, dt), dt), div, dt);
}

ndarray linspace(const Scalar& start, const Scalar& stop, std::int64_t num, bool endpoint,
                 std::optional<DType> dtype, Device device) {
  std::int64_t div = linspace_div(num, endpoint);
  DType dt = linspace_dtype(start, stop);
  Scalar lo = stored(start, dt), hi = stored(stop, dt);
  Scalar delta = difference_in(hi, lo, dt);
  // NumPy: y = i * step + start; with fewer than two intervals only start (and stop) appear.
  Scalar step = div > 0 ? quotient_in(delta, div, dt) : Scalar::typed(Scalar(0), dt);
  // A step that underflows to zero (a span of a few subnormals): NumPy divides i first and
  // then scales, as the array-bound form does.
  if (div > 0 && step.to_complex() == std::complex<double>(0) && delta.to_complex() != std::complex<double>(0))
    return linspace(operand(start), operand(stop), num, endpoint, dtype, 0, device);
  ndarray y = ramp(num, dt, lo, step, device);
  if (endpoint && num > 1) set_element(y, num - 1, hi);
  DType t = dtype.value_or(dt);
  if (is_integer(t) && num > 0 && !is_complex(dt)) {
    // NumPy 2 rounds toward -inf before the integer cast.
    backend::ArrayView in[1] = {backend::view_of(y)};
    api::backend_of(y).elementwise(ops::UfuncId::floor, dt, in, backend::view_of(y));
  }
  return t == dt ? y : y.astype(t);
}

ndarray logspace(const Scalar& start, const Scalar& stop, std::int64_t num, bool endpoint, double base,
                 std::optional<DType> dtype, Device device) {
  ndarray y = linspace(start, stop, num, endpoint, std::nullopt, device);
  // power(base, y) with base a weak Python float: the result keeps y's dtype.
  if (num > 0) {
    ndarray b = full(Shape{}, Scalar(base), y.dtype(), device);
    backend::ArrayView in[2] = {backend::view_of(broadcast_to(b, y.shape())), backend::view_of(y)};
    api::backend_of(y).elementwise(ops::UfuncId::power, y.dtype(), in, backend::view_of(y));
  }
  return dtype && *dtype != y.dtype() ? y.astype(*dtype) : y;
}

ndarray eye(std::int64_t n, std::optional<std::int64_t> m, std::int64_t k, DType dtype, Order order, Device device) {
  std::int64_t cols = m.value_or(n);
  ndarray out = zeros(Shape{n, cols}, dtype, order, device);
  // The k-th diagonal is a 1-d view whose stride steps one row and one column.
  std::int64_t length = k >= 0 ? std::min(n, cols - k) : std::min(n + k, cols);
  if (length <= 0) return out;
  std::int64_t offset = k >= 0 ? k * out.strides()[1] : -k * out.strides()[0];
  ndarray diagonal = out.view_as(dtype, Shape{length}, Strides{out.strides()[0] + out.strides()[1]}, offset);
  api::backend_of(out).fill(backend::view_of(diagonal), Scalar(1));
  return out;
}

ndarray eye(std::int64_t n, std::optional<std::int64_t> m, std::int64_t k, DType dtype, Device device) {
  return eye(n, m, k, dtype, Order::C, device);
}

ndarray identity(std::int64_t n, DType dtype, Device device) { return eye(n, std::nullopt, 0, dtype, device); }

}  // namespace copper
