// Runtime element types and NumPy 2 type promotion (NEP 50).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace copper {

// Order matters: it is NumPy's loop-search order (bool, signed/unsigned by size,
// floats, complex), which type resolution walks to find the first loop that fits.
enum class DType : std::uint8_t {
  bool_, int8, uint8, int16, uint16, int32, uint32, int64, uint64,
  float16, float32, float64, complex64, complex128,
};
inline constexpr int num_dtypes = 14;

inline constexpr DType bool_ = DType::bool_;
inline constexpr DType int8 = DType::int8;
inline constexpr DType uint8 = DType::uint8;
inline constexpr DType int16 = DType::int16;
inline constexpr DType uint16 = DType::uint16;
inline constexpr DType int32 = DType::int32;
inline constexpr DType uint32 = DType::uint32;
inline constexpr DType int64 = DType::int64;
inline constexpr DType uint64 = DType::uint64;
inline constexpr DType float16 = DType::float16;
inline constexpr DType float32 = DType::float32;
inline constexpr DType float64 = DType::float64;
inline constexpr DType complex64 = DType::complex64;
inline constexpr DType complex128 = DType::complex128;

// NumPy's kind letters: b (bool), i (signed), u (unsigned), f (float), c (complex).
enum class Kind : std::uint8_t { bool_, uint_, int_, float_, complex_ };

Kind kind(DType t);
char kind_char(DType t);
int itemsize(DType t);
std::string_view name(DType t);        // "float32", "bool", ...
char char_code(DType t);               // NumPy's dtype.char: '?', 'b', 'B', ..., 'D'
DType dtype_from_name(std::string_view name);  // throws TypeError for unknown names
DType dtype_from_char(char code);
inline bool is_integer(DType t) { Kind k = kind(t); return k == Kind::int_ || k == Kind::uint_; }
inline bool is_floating(DType t) { return kind(t) == Kind::float_; }
inline bool is_complex(DType t) { return kind(t) == Kind::complex_; }
inline bool is_inexact(DType t) { return is_floating(t) || is_complex(t); }
DType real_dtype(DType t);             // complex64 -> float32; others unchanged
DType complex_dtype(DType t);          // float32 -> complex64, float64 -> complex128, float16 -> complex64

enum class Casting : std::uint8_t { no, equiv, safe, same_kind, unsafe };
Casting casting_from_name(std::string_view name);  // "same_kind" -> Casting::same_kind
std::string_view name(Casting c);

DType promote_types(DType a, DType b);
bool can_cast(DType from, DType to, Casting casting = Casting::safe);

// The default dtypes NumPy gives Python scalars with no array to attach to.
inline constexpr DType default_int = DType::int64;
inline constexpr DType default_float = DType::float64;
inline constexpr DType default_complex = DType::complex128;

}  // namespace copper
