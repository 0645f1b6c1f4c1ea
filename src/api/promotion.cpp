// numpy.result_type over arrays and scalars, with NEP 50's weak Python scalars.
#include "api/promotion.h"

#include <algorithm>
#include <vector>

#include "copper/ufuncs.hpp"

namespace copper::api {

DType weak_scalar_dtype(const Scalar& s, DType array_dtype) {
  Kind ak = kind(array_dtype);
  switch (s.kind()) {
    case Kind::bool_: return array_dtype;
    case Kind::int_:
    case Kind::uint_:
      // bool arrays meet Python ints as the default int; every other kind absorbs them.
      return ak == Kind::bool_ ? (s.kind() == Kind::uint_ ? DType::uint64 : default_int) : array_dtype;
    case Kind::float_:
      return ak == Kind::float_ || ak == Kind::complex_ ? array_dtype : default_float;
    case Kind::complex_:
      return ak == Kind::complex_ ? array_dtype : complex_dtype(ak == Kind::float_ ? array_dtype : default_float);
  }
  return array_dtype;
}

namespace {

// Kinds in promotion order, signed and unsigned integers alike.
int kind_rank(DType t) {
  switch (kind(t)) {
    case Kind::bool_: return 0;
    case Kind::uint_:
    case Kind::int_: return 1;
    case Kind::float_: return 2;
    case Kind::complex_: return 3;
  }
  return 0;
}

}  // namespace

DType result_type(const std::vector<operand>& args, bool check_overflow) {
  // promote_types is not associative across kinds (int8, uint8 -> int16, then float16 ->
  // float32; NumPy's result_type(int8, uint8, float16) is float16): as NumPy, the dtypes of
  // the highest kind are promoted first and the others folded into them one by one (checked
  // against NumPy's result_type for every 2-, 3- and 4-tuple of its numeric dtypes).
  std::vector<DType> strong_types;
  for (const auto& a : args) {
    if (a.is_array()) strong_types.push_back(a.array().dtype());
    else if (!a.scalar().weak()) strong_types.push_back(a.scalar().dtype());
  }
  std::stable_sort(strong_types.begin(), strong_types.end(),
                   [](DType x, DType y) { return kind_rank(x) > kind_rank(y); });
  std::optional<DType> strong;
  for (DType t : strong_types) strong = strong ? promote_types(*strong, t) : t;
  DType result;
  if (!strong) {
    // Only weak scalars: the highest kind's default dtype (bool stays bool).
    Kind k = Kind::bool_;
    for (const auto& a : args) k = std::max(k, a.scalar().kind() == Kind::uint_ ? Kind::int_ : a.scalar().kind());
    result = k == Kind::bool_ ? bool_ : k == Kind::int_ ? default_int : k == Kind::float_ ? default_float : default_complex;
    for (const auto& a : args)
      if (a.scalar().kind() == Kind::uint_ && k == Kind::int_) result = DType::uint64;
    return result;
  }
  result = *strong;
  for (const auto& a : args) {
    if (a.is_array() || !a.scalar().weak()) continue;
    result = weak_scalar_dtype(a.scalar(), result);
  }
  if (check_overflow) {
    for (const auto& a : args) {
      if (a.is_array() || !a.scalar().weak() || !is_integer(result)) continue;
      const Scalar& s = a.scalar();
      if ((s.kind() == Kind::int_ || s.kind() == Kind::uint_) && !s.fits_in(result)) {
        std::string v = s.kind() == Kind::uint_ ? std::to_string(s.to_uint64()) : std::to_string(s.to_int64());
        throw OverflowError("Python integer " + v + " out of bounds for " + std::string(name(result)));
      }
    }
  }
  return result;
}

}  // namespace copper::api

namespace copper {
DType result_type(const std::vector<operand>& args) { return api::result_type(args, false); }
}  // namespace copper
