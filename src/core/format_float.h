// Decimal text of one floating-point value, as NumPy's Dragon4 printers
// (format_float_positional / format_float_scientific) produce it.
#pragma once
#include <string>

namespace copper::format {

// The storage width decides which digits are "shortest": 0.1f prints as 0.1, not 0.100000001.
enum class FloatWidth { half, single, double_ };

// NumPy's trim modes: 'k' keep zeros, '.' trim zeros keep the point, '0' leave one zero, '-' trim both.
enum class Trim { keep, dot, zero, dot_and_zeros };

struct DigitOptions {
  int precision = -1;   // fraction digits (positional) or digits after the first (scientific); -1: no cap
  int min_digits = -1;  // pad fraction digits with zeros up to this many
  bool unique = true;   // shortest round-trip digits (capped by precision) rather than exactly `precision`
  Trim trim = Trim::keep;
  bool plus_sign = false;
  int pad_left = -1;    // width of sign and integer part, padded with spaces on the left
  int pad_right = -1;   // width of the fraction part, padded with spaces on the right (positional only)
  int exp_digits = -1;  // minimum exponent digits (scientific only; at least 2)
};

// Text of a finite value x (x holds the value of a float of `width` exactly).
std::string format_positional(double x, FloatWidth width, const DigitOptions& options);
std::string format_scientific(double x, FloatWidth width, const DigitOptions& options);

// Number of characters of a UTF-8 string, as Python's len() counts them.
int text_width(const std::string& s);

}  // namespace copper::format
