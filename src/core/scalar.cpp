// Scalar values: conversions, NEP 50 range checks, loads and stores of one element.
#include "copper/scalar.hpp"

#include <limits>

#include "ops/casting.h"
#include "ops/dtype_traits.h"

namespace copper {

bool Scalar::to_bool() const {
  switch (kind_) {
    case Kind::bool_:
    case Kind::int_: return i_ != 0;
    case Kind::uint_: return u_ != 0;
    case Kind::float_: return f_ != 0;
    case Kind::complex_: return c_ != std::complex<double>(0, 0);
  }
  return false;
}
std::int64_t Scalar::to_int64() const {
  switch (kind_) {
    case Kind::bool_:
    case Kind::int_: return i_;
    case Kind::uint_: return static_cast<std::int64_t>(u_);
    case Kind::float_: return ops::float_to_int64(f_);
    case Kind::complex_: return ops::float_to_int64(c_.real());
  }
  return 0;
}
std::uint64_t Scalar::to_uint64() const {
  switch (kind_) {
    case Kind::uint_: return u_;
    case Kind::float_: return ops::float_to_uint64(f_);
    case Kind::complex_: return ops::float_to_uint64(c_.real());
    default: return static_cast<std::uint64_t>(i_);
  }
}
double Scalar::to_double() const {
  switch (kind_) {
    case Kind::bool_:
    case Kind::int_: return static_cast<double>(i_);
    case Kind::uint_: return static_cast<double>(u_);
    case Kind::float_: return f_;
    case Kind::complex_: return c_.real();
  }
  return 0;
}
std::complex<double> Scalar::to_complex() const {
  return kind_ == Kind::complex_ ? c_ : std::complex<double>(to_double(), 0);
}

bool Scalar::fits_in(DType t) const {
  if (kind_ != Kind::int_ && kind_ != Kind::uint_) return true;
  if (!is_integer(t)) return true;
  if (kind_ == Kind::uint_) return t == DType::uint64;
  return ops::visit_dtype(t, [&]<class T>() -> bool {
    if constexpr (ops::is_int_v<T>) {
      return i_ >= static_cast<std::int64_t>(std::numeric_limits<T>::min()) &&
             (i_ < 0 || static_cast<std::uint64_t>(i_) <= static_cast<std::uint64_t>(std::numeric_limits<T>::max()));
    } else {
      return true;
    }
  });
}

void Scalar::store(DType t, void* dst) const {
  ops::visit_dtype(t, [&]<class T>() {
    T v{};
    switch (kind_) {
      case Kind::bool_: v = ops::cast<T>(i_ != 0); break;
      case Kind::int_: v = ops::cast<T>(i_); break;
      case Kind::uint_: v = ops::cast<T>(u_); break;
      case Kind::float_: v = ops::cast<T>(f_); break;
      case Kind::complex_: v = ops::cast<T>(ops::complex<double>(c_.real(), c_.imag())); break;
    }
    std::memcpy(dst, &v, sizeof(T));
  });
}

Scalar Scalar::load(DType t, const void* src) {
  Scalar s = ops::visit_dtype(t, [&]<class T>() -> Scalar {
    // A bool's byte may be any value (a bool view of other data): nonzero is true.
    if constexpr (ops::is_same_v<T, bool>) return Scalar(*static_cast<const unsigned char*>(src) != 0);
    T v;
    std::memcpy(&v, src, sizeof(T));
    if constexpr (ops::is_int_v<T>) return Scalar(v);
    else if constexpr (ops::is_same_v<T, ops::half>) return Scalar(static_cast<double>(ops::half_to_float(v)));
    else if constexpr (ops::is_complex_v<T>) return Scalar(std::complex<double>(v.re, v.im));
    else return Scalar(static_cast<double>(v));
  });
  s.dtype_ = t;
  s.weak_ = false;
  return s;
}

Scalar Scalar::typed(const Scalar& value, DType t) {
  unsigned char buf[16];
  value.store(t, buf);
  return load(t, buf);
}

}  // namespace copper
