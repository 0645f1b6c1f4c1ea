// numpy.fft's transforms: each call becomes NumPy's sequence of 1-d steps, checked in
// NumPy's order (default n, n < 1, norm, axis) so the same mistake raises the same
// error, then runs through run_steps (fft_transform.cpp).
#include <algorithm>

#include "api/fft_internal.h"
#include "copper/errors.hpp"
#include "copper/manipulation.hpp"
#include "copper/ufuncs.hpp"

namespace copper::fft {
namespace {

using api::fft_detail::Step;
using backend::FftKind;
namespace detail = api::fft_detail;

// One 1-d step on an array of `shape` and `dtype` (both updated to the step's output).
// n nullopt: NumPy's default (the length along axis; 2 * (length - 1) for c2r).
Step make_step(Shape& shape, DType& dtype, FftKind kind, bool forward, int axis, std::optional<std::int64_t> n,
               const std::string& norm) {
  const int nd = static_cast<int>(shape.size());
  std::int64_t len;
  if (n) {
    len = *n;
  } else {
    if (axis < -nd || axis >= nd) throw IndexError("tuple index out of range");
    const std::int64_t m = shape[axis < 0 ? axis + nd : axis];
    len = kind == FftKind::c2r ? (m - 1) * 2 : m;
  }
  detail::check_n(len);
  const bool forward_transform = kind == FftKind::c2c ? forward : kind == FftKind::r2c;
  double scale;
  if (forward_transform) {
    detail::check_forward_norm(norm);
    scale = detail::norm_factor(norm, len, dtype);
  } else {
    scale = detail::norm_factor(detail::swap_direction(norm), len, dtype);
  }
  const int ax = normalize_axis(axis, nd);
  shape[ax] = kind == FftKind::r2c ? len / 2 + 1 : len;
  const bool single = detail::single_precision(dtype);
  dtype = kind == FftKind::c2r ? detail::real_dtype(single) : detail::complex_dtype(single);
  return Step{kind, forward, ax, len, scale};
}

DType complex_result(DType t) { return detail::complex_dtype(detail::single_precision(t)); }
// NumPy's result_type(a.real.dtype, 1.0): float16 stays float16.
DType real_result(DType t) {
  return t == DType::float16 ? DType::float16 : detail::real_dtype(detail::single_precision(t));
}

// NumPy's real-input ufuncs refuse complex input after every other check.
void check_real_input(const ndarray& a, std::int64_t n) {
  if (is_complex(a.dtype()))
    throw TypeError(std::string("ufunc '") + (n % 2 == 0 ? "rfft_n_even" : "rfft_n_odd") +
                    "' not supported for the input types, and the inputs could not be safely coerced to any "
                    "supported types according to the casting rule ''safe''");
}

ndarray one_step(const ndarray& a, FftKind kind, bool forward, std::optional<std::int64_t> n, int axis,
                 const std::string& norm, const std::optional<ndarray>& out, const char* ufunc) {
  Shape shape = a.shape();
  DType dtype = a.dtype();
  const Step step = make_step(shape, dtype, kind, forward, axis, n, norm);
  if (kind == FftKind::r2c) check_real_input(a, step.n);
  const DType result = kind == FftKind::c2r ? real_result(a.dtype()) : complex_result(a.dtype());
  return detail::run_steps(a, {step}, result, out, ufunc);
}

// numpy's _cook_nd_args: sizes per axis (nullopt: the step's default) and the axes.
struct NdArgs {
  std::vector<std::optional<std::int64_t>> s;
  std::vector<int> axes;
};

NdArgs cook(const ndarray& a, const std::optional<Sizes>& s, const Axes& axes, bool invreal) {
  const int nd = a.ndim();
  NdArgs r;
  std::vector<std::int64_t> sizes;
  if (s) {
    sizes = *s;
  } else if (!axes) {
    sizes.assign(a.shape().begin(), a.shape().end());
  } else {
    for (int ax : *axes) {  // numpy.take(a.shape, axes)
      if (ax < -nd || ax >= nd)
        throw IndexError("index " + std::to_string(ax) + " is out of bounds for axis 0 with size " +
                         std::to_string(nd));
      sizes.push_back(a.shape()[ax < 0 ? ax + nd : ax]);
    }
  }
  if (axes) {
    r.axes = *axes;
  } else {
    for (int i = -static_cast<int>(sizes.size()); i < 0; ++i) r.axes.push_back(i);
  }
  if (sizes.size() != r.axes.size()) throw ValueError("Shape and axes have different lengths.");
  if (invreal && !s) {
    if (sizes.empty()) throw IndexError("tuple index out of range");  // NumPy reads axes[-1] first
    const int last = r.axes.back();
    sizes.back() = (a.shape()[last < 0 ? last + nd : last] - 1) * 2;
  }
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == none) {
      r.s.push_back(std::nullopt);
    } else if (sizes[i] == -1) {  // the whole input along that axis
      const int ax = r.axes[i];
      if (ax < -nd || ax >= nd) throw IndexError("tuple index out of range");
      r.s.push_back(a.shape()[ax < 0 ? ax + nd : ax]);
    } else {
      r.s.push_back(sizes[i]);
    }
  }
  return r;
}

ndarray c2c_nd(const ndarray& a, const std::optional<Sizes>& s, const Axes& axes, const std::string& norm,
               const std::optional<ndarray>& out, bool forward) {
  const NdArgs c = cook(a, s, axes, false);
  if (c.axes.empty()) return a;
  Shape shape = a.shape();
  DType dtype = a.dtype();
  std::vector<Step> steps;
  for (std::size_t i = c.axes.size(); i-- > 0;)
    steps.push_back(make_step(shape, dtype, FftKind::c2c, forward, c.axes[i], c.s[i], norm));
  return detail::run_steps(a, steps, complex_result(a.dtype()), out, forward ? "fft" : "ifft");
}

}  // namespace

ndarray fft(const ndarray& a, std::optional<std::int64_t> n, int axis, const std::string& norm,
            std::optional<ndarray> out) {
  return one_step(a, FftKind::c2c, true, n, axis, norm, out, "fft");
}

ndarray ifft(const ndarray& a, std::optional<std::int64_t> n, int axis, const std::string& norm,
             std::optional<ndarray> out) {
  return one_step(a, FftKind::c2c, false, n, axis, norm, out, "ifft");
}

ndarray rfft(const ndarray& a, std::optional<std::int64_t> n, int axis, const std::string& norm,
             std::optional<ndarray> out) {
  return one_step(a, FftKind::r2c, true, n, axis, norm, out, "rfft");
}

ndarray irfft(const ndarray& a, std::optional<std::int64_t> n, int axis, const std::string& norm,
              std::optional<ndarray> out) {
  return one_step(a, FftKind::c2r, false, n, axis, norm, out, "irfft");
}

// hfft(a) = irfft(conj(a)) with the norm's direction swapped (NumPy swaps before irfft
// checks n, so a bad norm is reported first).
ndarray hfft(const ndarray& a, std::optional<std::int64_t> n, int axis, const std::string& norm,
             std::optional<ndarray> out) {
  Shape shape = a.shape();
  if (!n) {
    const int nd = a.ndim();
    if (axis < -nd || axis >= nd) throw IndexError("tuple index out of range");
    n = (shape[axis < 0 ? axis + nd : axis] - 1) * 2;
  }
  const std::string swapped = api::fft_detail::swap_direction(norm);
  DType dtype = a.dtype();
  const Step step = make_step(shape, dtype, FftKind::c2r, false, axis, n, swapped);
  const bool complex_input = is_complex(a.dtype());
  const ndarray x = complex_input ? conjugate(a) : a;  // the copy c2r needs anyway
  return detail::run_steps(x, {step}, real_result(a.dtype()), out, "irfft", complex_input);
}

// ihfft(a) = conj(rfft(a)) with the norm's direction swapped.
ndarray ihfft(const ndarray& a, std::optional<std::int64_t> n, int axis, const std::string& norm,
              std::optional<ndarray> out) {
  Shape shape = a.shape();
  if (!n) {
    const int nd = a.ndim();
    if (axis < -nd || axis >= nd) throw IndexError("tuple index out of range");
    n = shape[axis < 0 ? axis + nd : axis];
  }
  const std::string swapped = api::fft_detail::swap_direction(norm);
  DType dtype = a.dtype();
  const Step step = make_step(shape, dtype, FftKind::r2c, true, axis, n, swapped);
  check_real_input(a, step.n);
  ndarray r = detail::run_steps(a, {step}, complex_result(a.dtype()), out, "rfft");
  UfuncOptions in_place;
  in_place.out = r;
  return conjugate(r, in_place);
}

ndarray fftn(const ndarray& a, std::optional<Sizes> s, Axes axes, const std::string& norm,
             std::optional<ndarray> out) {
  return c2c_nd(a, s, axes, norm, out, true);
}

ndarray ifftn(const ndarray& a, std::optional<Sizes> s, Axes axes, const std::string& norm,
              std::optional<ndarray> out) {
  return c2c_nd(a, s, axes, norm, out, false);
}

ndarray fft2(const ndarray& a, std::optional<Sizes> s, Axes axes, const std::string& norm,
             std::optional<ndarray> out) {
  return c2c_nd(a, s, axes, norm, out, true);
}

ndarray ifft2(const ndarray& a, std::optional<Sizes> s, Axes axes, const std::string& norm,
              std::optional<ndarray> out) {
  return c2c_nd(a, s, axes, norm, out, false);
}

// rfft over the last axis given, then fft over the others (last first).
ndarray rfftn(const ndarray& a, std::optional<Sizes> s, Axes axes, const std::string& norm,
              std::optional<ndarray> out) {
  const NdArgs c = cook(a, s, axes, false);
  if (c.axes.empty()) throw IndexError("list index out of range");
  Shape shape = a.shape();
  DType dtype = a.dtype();
  std::vector<Step> steps{make_step(shape, dtype, FftKind::r2c, true, c.axes.back(), c.s.back(), norm)};
  check_real_input(a, steps[0].n);
  for (std::size_t i = c.axes.size() - 1; i-- > 0;)
    steps.push_back(make_step(shape, dtype, FftKind::c2c, true, c.axes[i], c.s[i], norm));
  return detail::run_steps(a, steps, complex_result(a.dtype()), out, steps.size() > 1 ? "fft" : "rfft");
}

ndarray rfft2(const ndarray& a, std::optional<Sizes> s, Axes axes, const std::string& norm,
              std::optional<ndarray> out) {
  return rfftn(a, s, axes, norm, out);
}

// ifft over every axis but the last given (in order), then irfft over the last.
ndarray irfftn(const ndarray& a, std::optional<Sizes> s, Axes axes, const std::string& norm,
               std::optional<ndarray> out) {
  const NdArgs c = cook(a, s, axes, true);
  if (c.axes.empty()) throw IndexError("list index out of range");
  Shape shape = a.shape();
  DType dtype = a.dtype();
  std::vector<Step> steps;
  for (std::size_t i = 0; i + 1 < c.axes.size(); ++i)
    steps.push_back(make_step(shape, dtype, FftKind::c2c, false, c.axes[i], c.s[i], norm));
  const DType result = real_result(dtype);  // float16 only when irfft sees float16 input
  steps.push_back(make_step(shape, dtype, FftKind::c2r, false, c.axes.back(), c.s.back(), norm));
  return detail::run_steps(a, steps, result, out, "irfft");
}

ndarray irfft2(const ndarray& a, std::optional<Sizes> s, Axes axes, const std::string& norm,
               std::optional<ndarray> out) {
  return irfftn(a, s, axes, norm, out);
}

}  // namespace copper::fft
