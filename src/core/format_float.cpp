// Positional and scientific text of one float: shortest round-trip digits (std::to_chars
// for float32/float64, an exact search for float16), capped by a precision with exact
// rounding, then NumPy's trimming and padding rules.
#include "core/format_float.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <system_error>

namespace copper::format {

namespace {

// |x| = d1.d2d3... * 10^exponent; digits has no trailing zeros unless it is "0".
struct Decimal {
  std::string digits;
  int exponent = 0;
};

// Parses to_chars' scientific form "d[.ddd]e[+-]XX".
Decimal parse_scientific(const char* first, const char* last) {
  Decimal d;
  const char* p = first;
  for (; p != last && *p != 'e'; ++p)
    if (*p != '.') d.digits.push_back(*p);
  if (p != last) d.exponent = std::atoi(std::string(p + 1, last).c_str());
  return d;
}

void strip_trailing_zeros(std::string& digits) {
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
}

template <class F>
Decimal shortest_with_to_chars(F ax) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, ax, std::chars_format::scientific);
  Decimal d = parse_scientific(buf, r.ptr);
  strip_trailing_zeros(d.digits);
  return d;
}

using u128 = unsigned __int128;

u128 pow10_u128(int n) {
  u128 r = 1;
  while (n-- > 0) r *= 10;
  return r;
}

// Shortest digits that identify a float16 among float16s: the first digit count at
// which rounding down or up lands inside the value's rounding interval (margins
// unequal at a power of two, ends included for even mantissas), then the closer one.
Decimal shortest_half(double ax) {
  if (ax == 0) return {"0", 0};
  int e2 = 0;
  double fraction = std::frexp(ax, &e2);  // ax = fraction * 2^e2, fraction in [0.5, 1)
  const bool normal = ax >= 0x1p-14;
  std::uint64_t m = normal ? static_cast<std::uint64_t>(std::ldexp(fraction, 11)) : static_cast<std::uint64_t>(std::ldexp(ax, 24));
  int e = normal ? e2 - 11 : -24;  // ax = m * 2^e
  const bool unequal_margins = normal && m == 1024 && ax > 0x1p-14;
  // Work in units of 2^(e-2) so that both margins are whole numbers.
  const std::uint64_t value_units = m * 4, margin_high_units = 2, margin_low_units = unequal_margins ? 1 : 2;
  const int s2 = e - 2;
  int k = static_cast<int>(std::floor(std::log10(ax)));
  for (int digits = 1; digits < 40; ++digits) {
    const int q = k - digits + 1;  // weight of the last digit: 10^q
    // Express value, margins and 10^q as integers over the common unit 2^min(s2,0) * 10^min(q,0).
    const u128 two_up = u128(1) << (s2 > 0 ? s2 : 0), two_down = u128(1) << (s2 < 0 ? -s2 : 0);
    const u128 ten_up = pow10_u128(q > 0 ? q : 0), ten_down = pow10_u128(q < 0 ? -q : 0);
    const u128 value = u128(value_units) * two_up * ten_down;
    const u128 unit = ten_up * two_down;
    const u128 margin_high = u128(margin_high_units) * two_up * ten_down;
    const u128 margin_low = u128(margin_low_units) * two_up * ten_down;
    u128 f = value / unit, rem = value % unit;
    if (digits == 1 && f >= 10) {  // log10 estimate one too small
      ++k;
      --digits;
      continue;
    }
    if (digits == 1 && f == 0) {  // estimate one too large
      --k;
      --digits;
      continue;
    }
    // Boundaries count when the mantissa is even: round-half-even maps them back to this value.
    const bool inclusive = m % 2 == 0;
    const bool low = rem < margin_low || (inclusive && rem == margin_low);
    const bool high = rem + margin_high > unit || (inclusive && rem + margin_high == unit);
    if (!low && !high) continue;
    bool round_down = low;
    if (low == high) {
      const u128 twice = rem * 2;
      round_down = twice < unit || (twice == unit && f % 2 == 0);
    }
    if (!round_down) ++f;
    Decimal d;
    std::uint64_t n = static_cast<std::uint64_t>(f);
    d.digits = std::to_string(n);
    d.exponent = q + static_cast<int>(d.digits.size()) - 1;
    strip_trailing_zeros(d.digits);
    return d;
  }
  throw std::logic_error("float16 digit search did not terminate");
}

Decimal shortest(double ax, FloatWidth width) {
  switch (width) {
    case FloatWidth::half: return shortest_half(ax);
    case FloatWidth::single: return shortest_with_to_chars(static_cast<float>(ax));
    case FloatWidth::double_: break;
  }
  return shortest_with_to_chars(ax);
}

// Exactly rounded (half to even on the exact binary value, as Dragon4's cutoff does).
std::string to_chars_string(double ax, std::chars_format fmt, int precision) {
  std::string buf(static_cast<std::size_t>(precision) + 400, '\0');
  auto r = std::to_chars(buf.data(), buf.data() + buf.size(), ax, fmt, precision);
  if (r.ec != std::errc()) throw std::runtime_error("float formatting buffer too small");
  buf.resize(static_cast<std::size_t>(r.ptr - buf.data()));
  return buf;
}

void rounded_positional(double ax, int precision, std::string& int_part, std::string& frac_part) {
  std::string s = to_chars_string(ax, std::chars_format::fixed, precision);
  auto dot = s.find('.');
  int_part = s.substr(0, dot);
  frac_part = dot == std::string::npos ? "" : s.substr(dot + 1);
}

Decimal rounded_scientific(double ax, int precision) {
  std::string s = to_chars_string(ax, std::chars_format::scientific, precision);
  return parse_scientific(s.data(), s.data() + s.size());
}

// Applies min_digits, trimming, and the decimal point; returns whether a '.' is printed.
bool finish_fraction(std::string& frac, const DigitOptions& o) {
  if (o.min_digits > 0 && static_cast<int>(frac.size()) < o.min_digits) frac.append(o.min_digits - frac.size(), '0');
  if (o.trim != Trim::keep)
    while (!frac.empty() && frac.back() == '0') frac.pop_back();
  if (frac.empty()) {
    if (o.trim == Trim::zero) frac.assign(1, '0');
    if (o.trim == Trim::dot_and_zeros) return false;
  }
  return true;
}

std::string sign_prefix(bool negative, const DigitOptions& o) { return negative ? "-" : o.plus_sign ? "+" : ""; }

void pad_left_to(std::string& s, int width) {
  if (width > 0 && static_cast<int>(s.size()) < width) s.insert(0, width - s.size(), ' ');
}

}  // namespace

std::string format_positional(double x, FloatWidth width, const DigitOptions& o) {
  const bool negative = std::signbit(x);
  const double ax = std::fabs(x);
  std::string int_part, frac_part;
  if (!o.unique) {
    rounded_positional(ax, o.precision < 0 ? 0 : o.precision, int_part, frac_part);
  } else {
    Decimal d = shortest(ax, width);
    const int n = static_cast<int>(d.digits.size());
    const int frac_needed = std::max(0, n - 1 - d.exponent);
    if (o.precision >= 0 && frac_needed > o.precision) {
      rounded_positional(ax, o.precision, int_part, frac_part);
    } else if (o.min_digits > frac_needed) {
      // Dragon4 keeps generating exact digits up to min_digits (float16 0.1 -> 0.0999755...).
      rounded_positional(ax, o.min_digits, int_part, frac_part);
    } else if (d.exponent >= 0) {
      const int whole = d.exponent + 1;
      int_part = d.digits.substr(0, std::min(n, whole));
      if (n < whole) int_part.append(whole - n, '0');
      if (n > whole) frac_part = d.digits.substr(whole);
    } else {
      int_part.assign(1, '0');
      frac_part.assign(-d.exponent - 1, '0');
      frac_part += d.digits;
    }
  }
  const bool dot = finish_fraction(frac_part, o);
  std::string out = sign_prefix(negative, o);
  out += int_part;
  pad_left_to(out, o.pad_left);
  if (dot) out += '.';
  out += frac_part;
  if (o.pad_right > static_cast<int>(frac_part.size())) out.append(o.pad_right - frac_part.size(), ' ');
  return out;
}

std::string format_scientific(double x, FloatWidth width, const DigitOptions& o) {
  const bool negative = std::signbit(x);
  const double ax = std::fabs(x);
  Decimal d;
  if (!o.unique) {
    d = rounded_scientific(ax, o.precision < 0 ? 0 : o.precision);
  } else {
    d = shortest(ax, width);
    const int after_first = static_cast<int>(d.digits.size()) - 1;
    if (o.precision >= 0 && after_first > o.precision) d = rounded_scientific(ax, o.precision);
    else if (o.min_digits > after_first) d = rounded_scientific(ax, o.min_digits);
  }
  std::string frac_part = d.digits.substr(1);
  const bool dot = finish_fraction(frac_part, o);
  std::string out = sign_prefix(negative, o);
  out += d.digits[0];
  pad_left_to(out, o.pad_left);
  if (dot) out += '.';
  out += frac_part;
  out += 'e';
  out += d.exponent < 0 ? '-' : '+';
  std::string exp_digits = std::to_string(std::abs(d.exponent));
  const int min_exp = std::max(2, o.exp_digits);
  if (static_cast<int>(exp_digits.size()) < min_exp) exp_digits.insert(0, min_exp - exp_digits.size(), '0');
  out += exp_digits;
  return out;
}

int text_width(const std::string& s) {
  int n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

}  // namespace copper::format
