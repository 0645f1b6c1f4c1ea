// convolve, correlate, interp, matvec and vecmat. The sliding products of convolve and
// correlate are matmuls of overlapping-window views of the zero-padded long input with the
// short one, in row blocks so the windows never need more than ~16M elements at once.
#include <string>

#include "copper/creation.hpp"
#include "copper/indexing.hpp"
#include "copper/linalg.hpp"
#include "copper/manipulation.hpp"
#include "copper/numerical.hpp"
#include "copper/sorting.hpp"
#include "copper/ufuncs.hpp"

namespace copper {
namespace {

constexpr std::int64_t kWindowElements = std::int64_t{1} << 24;

// out[j] = sum_i ap[j + i] * w[i] for j < length (ap: contiguous 1-d, w: 1-d, same dtype).
ndarray sliding_dot(const ndarray& ap, const ndarray& w, std::int64_t length) {
  const std::int64_t m = w.shape()[0], s = ap.itemsize();
  const ndarray windows = ap.view_as(ap.dtype(), {length, m}, {s, s}, ap.offset());
  const std::int64_t rows = std::max<std::int64_t>(1, kWindowElements / std::max<std::int64_t>(m, 1));
  if (length <= rows) return matmul(windows, w);
  ndarray out = empty({length}, ap.dtype(), ap.device());
  for (std::int64_t r = 0; r < length; r += rows) {
    const std::int64_t e = std::min(length, r + rows);
    out.assign({Slice(r, e)}, matmul(windows[{Slice(r, e)}], w));
  }
  return out;
}

// NumPy's correlate core for len(a) >= len(v) >= 1: the padding each mode asks for.
ndarray correlate_core(const ndarray& a, const ndarray& v, const std::string& mode) {
  const std::int64_t n = a.shape()[0], m = v.shape()[0];
  std::int64_t left = 0, right = 0, length = n - m + 1;
  if (mode == "full") {
    left = right = m - 1;
    length = n + m - 1;
  } else if (mode == "same") {
    left = m / 2;
    right = m - left - 1;
    length = n;
  }
  std::vector<ndarray> parts;
  if (left) parts.push_back(zeros({left}, a.dtype(), a.device()));
  parts.push_back(a);
  if (right) parts.push_back(zeros({right}, a.dtype(), a.device()));
  const ndarray ap = parts.size() == 1 ? ascontiguousarray(a) : concatenate(parts, 0);
  return sliding_dot(ap, ascontiguousarray(v), length);
}

void check_mode(const std::string& mode) {
  if (mode != "valid" && mode != "same" && mode != "full")
    throw ValueError("mode must be one of 'valid', 'same', or 'full' (got '" + mode + "')");
}

std::pair<ndarray, ndarray> same_dtype(const ndarray& a, const ndarray& v) {
  const DType t = promote_types(a.dtype(), v.dtype());
  return {a.astype(t, Casting::unsafe, false), asarray(v.astype(t, Casting::unsafe, false), std::nullopt, a.device())};
}

std::string gufunc_dims_error(const char* name, const char* sig, int operand, int has, int needs) {
  return std::string(name) + ": Input operand " + std::to_string(operand) + " does not have enough dimensions (has " +
         std::to_string(has) + ", gufunc core with signature " + sig + " requires " + std::to_string(needs) + ")";
}

std::string gufunc_core_error(const char* name, const char* sig, int operand, int dim, std::int64_t got,
                              std::int64_t want) {
  return std::string(name) + ": Input operand " + std::to_string(operand) + " has a mismatch in its core dimension " +
         std::to_string(dim) + ", with gufunc signature " + sig + " (size " + std::to_string(got) +
         " is different from " + std::to_string(want) + ")";
}

}  // namespace

ndarray correlate(const ndarray& a_in, const ndarray& v_in, const std::string& mode) {
  check_mode(mode);
  if (a_in.ndim() == 0 || v_in.ndim() == 0) throw ValueError("object of too small depth for desired array");
  if (a_in.ndim() > 1 || v_in.ndim() > 1) throw ValueError("object too deep for desired array");
  if (a_in.size() == 0) throw ValueError("first array argument cannot be empty");
  if (v_in.size() == 0) throw ValueError("second array argument cannot be empty");
  auto [a, v] = same_dtype(a_in, v_in);
  if (is_complex(v.dtype())) v = conjugate(v);
  if (a.shape()[0] >= v.shape()[0]) return correlate_core(a, v, mode);
  // NumPy swaps the operands and reverses the result.
  return ascontiguousarray(flip(correlate_core(v, a, mode)));
}

ndarray convolve(const ndarray& a_in, const ndarray& v_in, const std::string& mode) {
  const ndarray a0 = atleast_1d(a_in), v0 = atleast_1d(v_in);
  if (a0.ndim() > 1 || v0.ndim() > 1) throw ValueError("object too deep for desired array");
  if (a0.size() == 0) throw ValueError("a cannot be empty");
  if (v0.size() == 0) throw ValueError("v cannot be empty");
  check_mode(mode);
  auto [a, v] = same_dtype(a0, v0);
  if (v.shape()[0] > a.shape()[0]) std::swap(a, v);
  return correlate_core(a, flip(v), mode);
}

ndarray interp(const ndarray& x_in, const ndarray& xp_in, const ndarray& fp_in, std::optional<Scalar> left,
               std::optional<Scalar> right, std::optional<double> period) {
  if (is_complex(fp_in.dtype())) {
    // NumPy interpolates the real and imaginary parts separately (each with its own NaN fallbacks).
    auto part = [](const std::optional<Scalar>& v, bool imaginary) -> std::optional<Scalar> {
      if (!v) return std::nullopt;
      const std::complex<double> c = v->to_complex();
      return Scalar(imaginary ? c.imag() : c.real());
    };
    const ndarray re = interp(x_in, xp_in, real(fp_in), part(left, false), part(right, false), period);
    const ndarray im = interp(x_in, xp_in, imag(fp_in), part(left, true), part(right, true), period);
    ndarray out = empty(re.shape(), complex128, re.device());
    real(out).assign(re);
    imag(out).assign(im);
    return out;
  }
  const DType ft = float64;
  if (xp_in.ndim() > 1 || fp_in.ndim() > 1)
    throw ValueError("setting an array element with a sequence. The requested array would exceed the maximum "
                     "number of dimension of 1.");
  const Device dev = x_in.device();
  ndarray x = x_in.astype(float64), xp = asarray(atleast_1d(xp_in).astype(float64), std::nullopt, dev);
  ndarray fp = asarray(atleast_1d(fp_in).astype(ft), std::nullopt, dev);
  if (xp.shape()[0] == 0) throw ValueError("array of sample points is empty");
  if (fp.shape()[0] != xp.shape()[0]) throw ValueError("fp and xp are not of the same length.");
  if (period) {
    if (*period == 0) throw ValueError("period must be a non-zero value");
    const double per = std::abs(*period);
    left = right = std::nullopt;
    x = remainder(x, per);
    xp = remainder(xp, per);
    const ndarray order = argsort(xp);
    xp = take(xp, order);
    fp = take(fp, order);
    const std::int64_t n = xp.shape()[0];
    xp = concatenate({subtract(xp[{Slice(n - 1, n)}], per), xp, add(xp[{Slice(0, 1)}], per)}, 0);
    fp = concatenate({fp[{Slice(n - 1, n)}], fp, fp[{Slice(0, 1)}]}, 0);
  }
  const std::int64_t n = xp.shape()[0];
  const ndarray x0 = xp[{std::int64_t{0}}], xl = xp[{n - 1}];
  const ndarray f0 = fp[{std::int64_t{0}}], fl = fp[{n - 1}];
  const operand lo = left ? operand(*left) : operand(f0), hi = right ? operand(*right) : operand(fl);
  ndarray res;
  if (n == 1) {
    res = broadcast_to(f0, x.shape()).astype(ft);
  } else {
    // j: the interval [xp[j], xp[j+1]] holding x (clipped; the ends are replaced below).
    const ndarray j = clip(subtract(searchsorted(xp, x, "right"), 1), 0, n - 2);
    const ndarray j1 = add(j, 1);
    const ndarray xj = take(xp, j), xj1 = take(xp, j1), fj = take(fp, j), fj1 = take(fp, j1);
    const ndarray slope = divide(subtract(fj1, fj), subtract(xj1, xj));
    res = add(multiply(slope, subtract(x, xj)), fj);
    // A NaN from an infinite slope: try from the other end, then the flat value (NumPy's order).
    res = where(isnan(res), add(multiply(slope, subtract(x, xj1)), fj1), res);
    res = where(logical_and(isnan(res), equal(fj, fj1)), fj, res);
    res = where(equal(x, xj), fj, res);
  }
  res = where(equal(x, xl), fl, res);
  res = where(less(x, x0), lo, res);
  res = where(greater(x, xl), hi, res);
  return res.astype(ft, Casting::unsafe, false);
}

ndarray matvec(const ndarray& x1, const ndarray& x2) {
  const char* sig = "(m,n),(n)->(m)";
  if (x1.ndim() < 2) throw ValueError(gufunc_dims_error("matvec", sig, 0, x1.ndim(), 2));
  if (x2.ndim() < 1) throw ValueError(gufunc_dims_error("matvec", sig, 1, x2.ndim(), 1));
  if (x2.shape().back() != x1.shape().back())
    throw ValueError(gufunc_core_error("matvec", sig, 1, 0, x2.shape().back(), x1.shape().back()));
  return squeeze(matmul(x1, expand_dims(x2, {-1})), std::vector<int>{-1});
}

ndarray vecmat(const ndarray& x1, const ndarray& x2) {
  const char* sig = "(n),(n,m)->(m)";
  if (x1.ndim() < 1) throw ValueError(gufunc_dims_error("vecmat", sig, 0, x1.ndim(), 1));
  if (x2.ndim() < 2) throw ValueError(gufunc_dims_error("vecmat", sig, 1, x2.ndim(), 2));
  const std::int64_t n = x2.shape()[x2.ndim() - 2];
  if (n != x1.shape().back()) throw ValueError(gufunc_core_error("vecmat", sig, 1, 0, n, x1.shape().back()));
  const ndarray v = is_complex(x1.dtype()) ? conjugate(x1) : x1;
  return squeeze(matmul(expand_dims(v, {-2}), x2), std::vector<int>{-2});
}

}  // namespace copper
