// Window functions, evaluated on the device with NumPy's formulas (n runs over
// 1-M, 3-M, ..., M-1, so the windows are exactly symmetric).
#include <numbers>

#include "copper/creation.hpp"
#include "copper/elementwise.hpp"
#include "copper/ufuncs.hpp"
#include "copper/windows.hpp"

namespace copper {
namespace {

// nullopt-free shortcut for the degenerate sizes NumPy special-cases.
std::optional<ndarray> degenerate(std::int64_t M, Device device) {
  if (M < 1) return empty({0}, float64, device);
  if (M == 1) return ones({1}, float64, device);
  return std::nullopt;
}

ndarray symmetric_n(std::int64_t M, Device device) {
  return arange(Scalar(1 - M), Scalar(M), Scalar(2), float64, device);
}

// a + b cos(pi n / (M-1)) + c cos(2 pi n / (M-1)).
ndarray cosine_window(std::int64_t M, double a, double b, double c, Device device) {
  if (auto d = degenerate(M, device)) return *d;
  const ndarray n = symmetric_n(M, device);
  const double m1 = static_cast<double>(M - 1);
  ndarray w = add(a, multiply(b, cos(divide(multiply(std::numbers::pi, n), m1))));
  if (c != 0) w = add(w, multiply(c, cos(divide(multiply(2.0 * std::numbers::pi, n), m1))));
  return w;
}

}  // namespace

ndarray bartlett(std::int64_t M, Device device) {
  if (auto d = degenerate(M, device)) return *d;
  const ndarray n = symmetric_n(M, device);
  const double m1 = static_cast<double>(M - 1);
  return where(less_equal(n, 0), add(1.0, divide(n, m1)), subtract(1.0, divide(n, m1)));
}

ndarray blackman(std::int64_t M, Device device) { return cosine_window(M, 0.42, 0.5, 0.08, device); }
ndarray hamming(std::int64_t M, Device device) { return cosine_window(M, 0.54, 0.46, 0.0, device); }
ndarray hanning(std::int64_t M, Device device) { return cosine_window(M, 0.5, 0.5, 0.0, device); }

ndarray kaiser(std::int64_t M, double beta, Device device) {
  if (auto d = degenerate(M, device)) return *d;
  const ndarray n = arange(Scalar(0), Scalar(M), Scalar(1), float64, device);
  const double alpha = static_cast<double>(M - 1) / 2.0;
  const ndarray r = divide(subtract(n, alpha), alpha);
  const ndarray arg = multiply(beta, sqrt(subtract(1.0, power(r, 2.0))));
  return divide(i0(arg), i0(full({}, beta, float64, device)));
}

}  // namespace copper
