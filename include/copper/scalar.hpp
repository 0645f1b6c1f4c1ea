// A single value crossing the API: a C++/Python scalar ("weak" in NEP 50 terms:
// it adapts to the array it meets) or a typed value such as numpy.float32(3) (strong).
#pragma once
#include <complex>
#include <cstdint>
#include <type_traits>

#include "copper/dtype.hpp"

namespace copper {

class Scalar {
 public:
  Scalar() : Scalar(std::int64_t{0}) {}
  Scalar(bool v) : kind_(Kind::bool_), dtype_(DType::bool_) { i_ = v; }
  template <class T>
    requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
  Scalar(T v) {
    if constexpr (std::is_unsigned_v<T>) {
      if (v > static_cast<std::uint64_t>(INT64_MAX)) {
        kind_ = Kind::uint_;
        u_ = v;
        dtype_ = DType::uint64;
        return;
      }
    }
    kind_ = Kind::int_;
    i_ = static_cast<std::int64_t>(v);
    dtype_ = DType::int64;
  }
  Scalar(double v) : kind_(Kind::float_), dtype_(DType::float64) { f_ = v; }
  Scalar(float v) : Scalar(static_cast<double>(v)) {}
  Scalar(std::complex<double> v) : kind_(Kind::complex_), dtype_(DType::complex128) { c_ = v; }
  Scalar(std::complex<float> v) : Scalar(std::complex<double>(v)) {}

  // A strong scalar of dtype t holding `value` converted to t (as astype would).
  static Scalar typed(const Scalar& value, DType t);

  bool weak() const { return weak_; }
  // Value category; Kind::uint_ only for integers above INT64_MAX.
  Kind kind() const { return kind_; }
  // For a strong scalar its dtype; for a weak one the dtype NumPy would give it alone.
  DType dtype() const { return dtype_; }

  bool to_bool() const;
  std::int64_t to_int64() const;   // truncates like a C cast
  std::uint64_t to_uint64() const;
  double to_double() const;        // real part for complex
  std::complex<double> to_complex() const;

  // Whether an integer value is representable in integer dtype t (NEP 50 overflow check).
  bool fits_in(DType t) const;
  // Writes the value converted to dtype t at dst (same conversion as astype(t, unsafe)).
  void store(DType t, void* dst) const;
  // Reads one element of dtype t from src as a strong scalar.
  static Scalar load(DType t, const void* src);

 private:
  Kind kind_ = Kind::int_;
  DType dtype_ = DType::int64;
  bool weak_ = true;
  union {
    std::int64_t i_;
    std::uint64_t u_;
    double f_;
  };
  std::complex<double> c_{};
};

}  // namespace copper
