// str() of NumPy scalars, which is what str() of a 0-d array prints: shortest digits,
// positional for 1e-4 <= |x| < a cutoff ("1.0"), else scientific ("1e+16"), no print options.
#include <cmath>
#include <cstring>

#include "core/format_float.h"
#include "core/format_internal.h"
#include "ops/scalar_types.h"

namespace copper::format {

namespace {

// NumPy's float scalar str; `positional_trim` differs for complex parts ("1" vs "1.0").
std::string float_scalar_str(double x, FloatWidth w, Trim positional_trim, bool plus_sign) {
  if (std::isnan(x)) return plus_sign ? "+nan" : "nan";
  if (std::isinf(x)) return x < 0 ? "-inf" : plus_sign ? "+inf" : "inf";
  const long double ax = std::fabs(static_cast<long double>(x));
  DigitOptions o;
  o.plus_sign = plus_sign;
  // NumPy 2.4 switches to scientific at 1e3 for float16 and 1e6 for float32 (1e16 for float64).
  const long double large = w == FloatWidth::half ? 1e3L : w == FloatWidth::single ? 1e6L : 1e16L;
  if (ax == 0 || (ax < large && ax >= 1.e-4L)) {
    o.trim = positional_trim;
    return format_positional(x, w, o);
  }
  o.trim = Trim::dot_and_zeros;
  return format_scientific(x, w, o);
}

std::string complex_scalar_str(double re, double im, FloatWidth w) {
  if (re == 0 && !std::signbit(re)) return float_scalar_str(im, w, Trim::dot_and_zeros, false) + "j";
  std::string real = float_scalar_str(re, w, Trim::dot_and_zeros, false);
  std::string imag = std::isnan(im) ? "+nan" : float_scalar_str(im, w, Trim::dot_and_zeros, true);
  return "(" + real + imag + "j)";
}

template <class T>
T load(const void* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

}  // namespace

std::string scalar_str(DType dtype, const void* p) {
  switch (dtype) {
    case DType::bool_: return load<unsigned char>(p) ? "True" : "False";
    case DType::int8: return std::to_string(load<std::int8_t>(p));
    case DType::uint8: return std::to_string(load<std::uint8_t>(p));
    case DType::int16: return std::to_string(load<std::int16_t>(p));
    case DType::uint16: return std::to_string(load<std::uint16_t>(p));
    case DType::int32: return std::to_string(load<std::int32_t>(p));
    case DType::uint32: return std::to_string(load<std::uint32_t>(p));
    case DType::int64: return std::to_string(load<std::int64_t>(p));
    case DType::uint64: return std::to_string(load<std::uint64_t>(p));
    case DType::float16:
      return float_scalar_str(ops::half_to_float(ops::half{load<std::uint16_t>(p)}), FloatWidth::half, Trim::zero, false);
    case DType::float32: return float_scalar_str(load<float>(p), FloatWidth::single, Trim::zero, false);
    case DType::float64: return float_scalar_str(load<double>(p), FloatWidth::double_, Trim::zero, false);
    case DType::complex64: {
      auto v = load<ops::complex<float>>(p);
      return complex_scalar_str(v.re, v.im, FloatWidth::single);
    }
    case DType::complex128: {
      auto v = load<ops::complex<double>>(p);
      return complex_scalar_str(v.re, v.im, FloatWidth::double_);
    }
  }
  throw TypeError("unknown dtype");
}

}  // namespace copper::format
