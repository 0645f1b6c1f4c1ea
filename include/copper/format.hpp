// Text forms of arrays, as NumPy prints them (repr, str, summarization of large arrays).
#pragma once
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

#include "copper/ndarray.hpp"

namespace copper {

// How many fraction digits floats get (NumPy's floatmode option).
enum class FloatMode : std::uint8_t {
  fixed,          // always `precision` digits
  unique,         // shortest round-trip digits, precision ignored
  maxprec,        // shortest digits, at most `precision`; columns padded with spaces
  maxprec_equal,  // as maxprec, but every element gets the widest element's digit count
};
FloatMode floatmode_from_name(std::string_view name);  // ValueError for unknown names
std::string_view name(FloatMode mode);

struct PrintOptions {
  int precision = 8;
  std::int64_t threshold = 1000;  // summarize above this many elements
  int edgeitems = 3;
  int linewidth = 75;
  bool suppress = false;
  FloatMode floatmode = FloatMode::maxprec;
  char sign = '-';  // '-', '+' or ' ' (space in place of '+')
  std::string nanstr = "nan";
  std::string infstr = "inf";
};
PrintOptions get_printoptions();
void set_printoptions(const PrintOptions& options);  // ValueError for a bad sign

std::string array_repr(const ndarray& a);  // "array([1, 2, 3], dtype=int32)"
std::string array_str(const ndarray& a);   // "[1 2 3]"
// The same with explicit options (NumPy's max_line_width/precision/suppress_small overrides).
std::string array_repr(const ndarray& a, const PrintOptions& options);
std::string array_str(const ndarray& a, const PrintOptions& options);
// numpy.array2string: the bracketed body only; `prefix` sets the hanging indent and
// `suffix` shortens the last line, as for the "array(" ... ")" of repr.
std::string array2string(const ndarray& a, const PrintOptions& options, std::string_view separator = " ",
                         std::string_view prefix = "", std::string_view suffix = "");
std::ostream& operator<<(std::ostream& os, const ndarray& a);  // str form

}  // namespace copper
