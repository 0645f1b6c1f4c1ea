// dtype facts and NumPy 2's promotion and casting rules.
#include "copper/dtype.hpp"

#include <algorithm>
#include <string>

#include "copper/errors.hpp"

namespace copper {
namespace {

struct DTypeFacts {
  std::string_view name;
  char code;
  Kind kind;
  int itemsize;
};
constexpr DTypeFacts facts[num_dtypes] = {
    {"bool", '?', Kind::bool_, 1},       {"int8", 'b', Kind::int_, 1},       {"uint8", 'B', Kind::uint_, 1},
    {"int16", 'h', Kind::int_, 2},       {"uint16", 'H', Kind::uint_, 2},    {"int32", 'i', Kind::int_, 4},
    {"uint32", 'I', Kind::uint_, 4},     {"int64", 'l', Kind::int_, 8},      {"uint64", 'L', Kind::uint_, 8},
    {"float16", 'e', Kind::float_, 2},   {"float32", 'f', Kind::float_, 4},  {"float64", 'd', Kind::float_, 8},
    {"complex64", 'F', Kind::complex_, 8}, {"complex128", 'D', Kind::complex_, 16},
};
const DTypeFacts& f(DType t) { return facts[static_cast<int>(t)]; }

DType int_of_size(int size, bool is_signed) {
  switch (size) {
    case 1: return is_signed ? DType::int8 : DType::uint8;
    case 2: return is_signed ? DType::int16 : DType::uint16;
    case 4: return is_signed ? DType::int32 : DType::uint32;
    default: return is_signed ? DType::int64 : DType::uint64;
  }
}
DType float_of_size(int size) {
  return size <= 2 ? DType::float16 : size == 4 ? DType::float32 : DType::float64;
}
// The smallest float that holds every value of integer type t exactly enough for NumPy:
// 8-bit -> float16, 16-bit -> float32, wider -> float64.
int float_size_for_int(DType t) { return itemsize(t) == 1 ? 2 : itemsize(t) == 2 ? 4 : 8; }
// Size of a float able to hold the real part of t (for complex: half the item size).
int real_size(DType t) {
  switch (kind(t)) {
    case Kind::complex_: return itemsize(t) / 2;
    case Kind::float_: return itemsize(t);
    default: return float_size_for_int(t);
  }
}

}  // namespace

Kind kind(DType t) { return f(t).kind; }
int itemsize(DType t) { return f(t).itemsize; }
std::string_view name(DType t) { return f(t).name; }
char char_code(DType t) { return f(t).code; }
char kind_char(DType t) {
  switch (kind(t)) {
    case Kind::bool_: return 'b';
    case Kind::int_: return 'i';
    case Kind::uint_: return 'u';
    case Kind::float_: return 'f';
    case Kind::complex_: return 'c';
  }
  return '?';
}

DType dtype_from_name(std::string_view n) {
  for (int i = 0; i < num_dtypes; ++i)
    if (facts[i].name == n) return static_cast<DType>(i);
  if (n == "bool_") return DType::bool_;
  if (n == "half") return DType::float16;
  if (n == "single") return DType::float32;
  if (n == "double" || n == "float") return DType::float64;
  if (n == "int") return DType::int64;
  if (n == "complex") return DType::complex128;
  throw TypeError("data type '" + std::string(n) + "' not understood");
}

DType dtype_from_char(char c) {
  for (int i = 0; i < num_dtypes; ++i)
    if (facts[i].code == c) return static_cast<DType>(i);
  if (c == 'q') return DType::int64;
  if (c == 'Q') return DType::uint64;
  throw TypeError(std::string("data type '") + c + "' not understood");
}

DType real_dtype(DType t) {
  if (t == DType::complex64) return DType::float32;
  if (t == DType::complex128) return DType::float64;
  return t;
}
DType complex_dtype(DType t) {
  if (is_complex(t)) return t;
  return real_size(t) <= 4 ? DType::complex64 : DType::complex128;
}

Casting casting_from_name(std::string_view n) {
  if (n == "no") return Casting::no;
  if (n == "equiv") return Casting::equiv;
  if (n == "safe") return Casting::safe;
  if (n == "same_kind") return Casting::same_kind;
  if (n == "unsafe") return Casting::unsafe;
  throw ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe'");
}
std::string_view name(Casting c) {
  static constexpr std::string_view names[] = {"no", "equiv", "safe", "same_kind", "unsafe"};
  return names[static_cast<int>(c)];
}

DType promote_types(DType a, DType b) {
  if (a == b) return a;
  Kind ka = kind(a), kb = kind(b);
  if (ka == Kind::bool_) return b;
  if (kb == Kind::bool_) return a;
  if (ka == Kind::complex_ || kb == Kind::complex_) {
    int size = std::max(real_size(a), real_size(b));
    return size <= 4 ? DType::complex64 : DType::complex128;
  }
  if (ka == Kind::float_ || kb == Kind::float_) return float_of_size(std::max(real_size(a), real_size(b)));
  // Both integers.
  if (ka == kb) return itemsize(a) >= itemsize(b) ? a : b;
  DType s = ka == Kind::int_ ? a : b;  // the signed one
  DType u = ka == Kind::int_ ? b : a;
  if (itemsize(s) > itemsize(u)) return s;
  if (itemsize(u) == 8) return DType::float64;  // no integer holds both int64 and uint64
  return int_of_size(itemsize(u) * 2, true);
}

bool can_cast(DType from, DType to, Casting casting) {
  switch (casting) {
    case Casting::unsafe: return true;
    case Casting::no:
    case Casting::equiv: return from == to;
    case Casting::safe: return promote_types(from, to) == to;
    case Casting::same_kind: {
      if (promote_types(from, to) == to) return true;
      // Kinds ordered b < u < i < f < c: casting down in size within or to a higher kind is allowed.
      return static_cast<int>(kind(from)) <= static_cast<int>(kind(to));
    }
  }
  return false;
}

}  // namespace copper
