// DType <-> C++ storage type, and dispatch from a runtime DType to a template.
#pragma once
#include <utility>

#include "copper/dtype.hpp"
#include "copper/errors.hpp"
#include "ops/scalar_types.h"

namespace copper::ops {

template <DType D> struct storage;
template <> struct storage<DType::bool_> { using type = bool; };
template <> struct storage<DType::int8> { using type = int8_t; };
template <> struct storage<DType::uint8> { using type = uint8_t; };
template <> struct storage<DType::int16> { using type = int16_t; };
template <> struct storage<DType::uint16> { using type = uint16_t; };
template <> struct storage<DType::int32> { using type = int32_t; };
template <> struct storage<DType::uint32> { using type = uint32_t; };
template <> struct storage<DType::int64> { using type = int64_t; };
template <> struct storage<DType::uint64> { using type = uint64_t; };
template <> struct storage<DType::float16> { using type = half; };
template <> struct storage<DType::float32> { using type = float; };
template <> struct storage<DType::float64> { using type = double; };
template <> struct storage<DType::complex64> { using type = complex<float>; };
template <> struct storage<DType::complex128> { using type = complex<double>; };
template <DType D> using storage_t = typename storage<D>::type;

template <class T> constexpr DType dtype_v = DType::bool_;  // specialized below
#define COPPER_DTYPE_V(D) template <> inline constexpr DType dtype_v<storage_t<D>> = D;
COPPER_DTYPE_V(DType::int8) COPPER_DTYPE_V(DType::uint8) COPPER_DTYPE_V(DType::int16)
COPPER_DTYPE_V(DType::uint16) COPPER_DTYPE_V(DType::int32) COPPER_DTYPE_V(DType::uint32)
COPPER_DTYPE_V(DType::int64) COPPER_DTYPE_V(DType::uint64) COPPER_DTYPE_V(DType::float16)
COPPER_DTYPE_V(DType::float32) COPPER_DTYPE_V(DType::float64) COPPER_DTYPE_V(DType::complex64)
COPPER_DTYPE_V(DType::complex128)
#undef COPPER_DTYPE_V

// Calls f.template operator()<T>() with T the storage type of `t`:
//   visit_dtype(t, [&]<class T>() { ... });
template <class F>
decltype(auto) visit_dtype(DType t, F&& f) {
  switch (t) {
    case DType::bool_: return f.template operator()<bool>();
    case DType::int8: return f.template operator()<int8_t>();
    case DType::uint8: return f.template operator()<uint8_t>();
    case DType::int16: return f.template operator()<int16_t>();
    case DType::uint16: return f.template operator()<uint16_t>();
    case DType::int32: return f.template operator()<int32_t>();
    case DType::uint32: return f.template operator()<uint32_t>();
    case DType::int64: return f.template operator()<int64_t>();
    case DType::uint64: return f.template operator()<uint64_t>();
    case DType::float16: return f.template operator()<half>();
    case DType::float32: return f.template operator()<float>();
    case DType::float64: return f.template operator()<double>();
    case DType::complex64: return f.template operator()<complex<float>>();
    case DType::complex128: return f.template operator()<complex<double>>();
  }
  throw TypeError("unknown dtype");
}

// All 14 storage types, for building tables at compile time.
template <class... T> struct type_list {};
using all_types = type_list<bool, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t,
                            half, float, double, complex<float>, complex<double>>;

}  // namespace copper::ops
