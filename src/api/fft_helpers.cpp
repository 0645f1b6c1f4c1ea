// numpy.fft's helper routines: sample frequencies and the shifts that centre them.
#include <vector>

#include "copper/creation.hpp"
#include "copper/errors.hpp"
#include "copper/fft.hpp"
#include "copper/manipulation.hpp"

namespace copper::fft {
namespace {

// The values are made on the host in float64 as NumPy makes them (integer * 1/(n d)),
// then copied to the device once.
ndarray frequencies(const std::vector<double>& values, Device device, std::optional<DType> dtype) {
  if (dtype && kind(*dtype) != Kind::float_)
    throw ValueError("fftfreq and rfftfreq make real floating arrays, not " + std::string(name(*dtype)));
  ndarray r = array(values.data(), Shape{static_cast<std::int64_t>(values.size())}, DType::float64, device);
  return dtype && *dtype != DType::float64 ? r.astype(*dtype) : r;
}

std::int64_t floor_div(std::int64_t a, std::int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

ndarray shift(const ndarray& x, const Axes& axes, bool inverse) {
  const int nd = x.ndim();
  std::vector<int> ax;
  if (axes) {
    ax = *axes;
  } else {
    for (int i = 0; i < nd; ++i) ax.push_back(i);
  }
  std::vector<std::int64_t> amount;
  for (int a : ax) {
    if (a < -nd || a >= nd) throw IndexError("tuple index out of range");  // NumPy reads x.shape[ax] first
    const std::int64_t half = x.shape()[a < 0 ? a + nd : a] / 2;
    amount.push_back(inverse ? -half : half);
  }
  return roll(x, amount, ax);
}

}  // namespace

ndarray fftfreq(std::int64_t n, double d, Device device, std::optional<DType> dtype) {
  if (n < 0) throw ValueError("negative dimensions are not allowed");
  if (n * d == 0) throw ValueError("fftfreq: n * d must not be zero");
  const double val = 1.0 / (static_cast<double>(n) * d);
  const std::int64_t positive = floor_div(n - 1, 2) + 1;
  std::vector<double> values(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) values[i] = static_cast<double>(i < positive ? i : i - n) * val;
  return frequencies(values, device, dtype);
}

ndarray rfftfreq(std::int64_t n, double d, Device device, std::optional<DType> dtype) {
  if (n * d == 0) throw ValueError("rfftfreq: n * d must not be zero");
  const double val = 1.0 / (static_cast<double>(n) * d);
  const std::int64_t count = std::max<std::int64_t>(floor_div(n, 2) + 1, 0);  // NumPy: arange(0, n//2 + 1)
  std::vector<double> values(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) values[i] = static_cast<double>(i) * val;
  return frequencies(values, device, dtype);
}

ndarray fftshift(const ndarray& x, Axes axes) { return shift(x, axes, false); }
ndarray ifftshift(const ndarray& x, Axes axes) { return shift(x, axes, true); }

}  // namespace copper::fft
