// Element text for array prints: NumPy's BoolFormat, IntegerFormat, FloatingFormat and
// ComplexFloatingFormat, each sizing its columns from all the elements shown.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/format_float.h"
#include "core/format_internal.h"
#include "ops/scalar_types.h"

namespace copper::format {

namespace {

FloatWidth width_of(DType real) {
  return real == DType::float16 ? FloatWidth::half : real == DType::float32 ? FloatWidth::single : FloatWidth::double_;
}

// Rounds a double to the element type, as NumPy converts a Python float meeting an array value.
double round_to(double v, FloatWidth w) {
  if (w == FloatWidth::single) return static_cast<float>(v);
  if (w == FloatWidth::half) return ops::half_to_float(ops::float_to_half(static_cast<float>(v)));
  return v;
}

// NumPy 2.4 picks scientific notation from the shown values, computing in the element type:
// the large cutoff is 10**min(8, finfo.precision), so 1e3 for float16 and 1e6 for float32.
bool needs_exponent(double max_val, double min_val, FloatWidth w, bool suppress) {
  const double cutoff = w == FloatWidth::half ? 1e3 : w == FloatWidth::single ? 1e6 : 1e8;
  if (max_val >= cutoff) return true;
  if (suppress) return false;
  const double ratio = round_to(w == FloatWidth::double_ ? max_val / min_val
                                                         : static_cast<double>(static_cast<float>(max_val) /
                                                                               static_cast<float>(min_val)),
                                w);
  return min_val < round_to(1e-4, w) || ratio > 1000.0;
}

int max_width(const std::vector<std::string>& parts) {
  int m = 0;
  for (const auto& p : parts) m = std::max(m, text_width(p));
  return m;
}

class FloatFormat {
 public:
  FloatFormat(const std::vector<double>& data, FloatWidth width, const PrintOptions& o, char sign)
      : width_(width), sign_(sign), nanstr_(o.nanstr), infstr_(o.infstr) {
    precision_ = o.floatmode == FloatMode::unique ? -1 : o.precision;
    if (o.floatmode != FloatMode::unique && precision_ < 0) throw ValueError("precision must be >= 0");
    std::vector<double> finite;
    bool any_negative_inf = false;
    for (double x : data) {
      if (std::isfinite(x)) finite.push_back(x);
      else if (std::isinf(x) && x < 0) any_negative_inf = true;
    }
    double max_val = 0, min_val = INFINITY;
    bool any_nonzero = false;
    for (double x : finite) {
      if (x == 0) continue;
      any_nonzero = true;
      max_val = std::max(max_val, std::fabs(x));
      min_val = std::min(min_val, std::fabs(x));
    }
    exp_format_ = any_nonzero && needs_exponent(max_val, min_val, width, o.suppress);
    const bool fixed = o.floatmode == FloatMode::fixed;
    DigitOptions first{precision_, -1, !fixed, fixed ? Trim::keep : Trim::dot, sign == '+'};
    if (finite.empty()) {
      pad_left_ = pad_right_ = 0;
    } else if (exp_format_) {
      std::vector<std::string> ints, fracs, exps;
      for (double x : finite) {
        std::string s = format_scientific(x, width, first);
        auto e = s.find('e'), dot = s.find('.');
        ints.push_back(s.substr(0, dot));
        fracs.push_back(s.substr(dot + 1, e - dot - 1));
        exps.push_back(s.substr(e + 1));
      }
      exp_size_ = max_width(exps) - 1;
      trim_ = Trim::keep;
      precision_ = min_digits_ = max_width(fracs);
      unique_ = first.unique;
      pad_left_ = max_width(ints);
      pad_right_ = exp_size_ + 2 + precision_;
    } else {
      std::vector<std::string> ints, fracs;
      for (double x : finite) {
        std::string s = format_positional(x, width, first);
        auto dot = s.find('.');
        ints.push_back(s.substr(0, dot));
        fracs.push_back(s.substr(dot + 1));
      }
      pad_left_ = max_width(ints);
      pad_right_ = max_width(fracs);
      unique_ = first.unique;
      if (fixed || o.floatmode == FloatMode::maxprec_equal) {
        precision_ = min_digits_ = pad_right_;
        trim_ = Trim::keep;
      } else {
        trim_ = Trim::dot;
        min_digits_ = 0;
      }
    }
    if (sign == ' ' && std::none_of(finite.begin(), finite.end(), [](double x) { return std::signbit(x); }))
      ++pad_left_;
    if (finite.size() != data.size()) {
      const int neginf = sign != '-' || any_negative_inf;
      const int offset = pad_right_ + 1;  // the decimal point
      pad_left_ = std::max({pad_left_, text_width(nanstr_) - offset, text_width(infstr_) + neginf - offset});
    }
  }

  std::string operator()(double x) const {
    if (!std::isfinite(x)) {
      std::string text = std::isnan(x) ? "" : x < 0 ? "-" : "";
      if (text.empty() && sign_ == '+') text.assign(1, '+');
      text += std::isnan(x) ? nanstr_ : infstr_;
      const int pad = pad_left_ + pad_right_ + 1 - text_width(text);
      if (pad > 0) text.insert(0, pad, ' ');
      return text;
    }
    DigitOptions o{precision_, min_digits_, unique_, trim_, sign_ == '+', pad_left_};
    if (exp_format_) {
      o.exp_digits = exp_size_;
      return format_scientific(x, width_, o);
    }
    o.pad_right = pad_right_;
    return format_positional(x, width_, o);
  }

 private:
  FloatWidth width_;
  char sign_;
  std::string nanstr_, infstr_;
  bool exp_format_ = false;
  int precision_ = -1, min_digits_ = -1, pad_left_ = 0, pad_right_ = 0, exp_size_ = -1;
  bool unique_ = true;
  Trim trim_ = Trim::dot;
};

template <class T>
std::vector<T> elements_as(const PrintedData& data) {
  std::vector<T> out(data.bytes.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), data.bytes.data(), data.bytes.size());
  return out;
}

// Values of a real or complex float array as doubles (exact), real and imaginary parts apart.
void float_parts(const PrintedData& data, std::vector<double>& re, std::vector<double>* im) {
  switch (data.dtype) {
    case DType::float16:
      for (auto h : elements_as<std::uint16_t>(data)) re.push_back(ops::half_to_float(ops::half{h}));
      return;
    case DType::float32:
      for (float v : elements_as<float>(data)) re.push_back(v);
      return;
    case DType::float64:
      re = elements_as<double>(data);
      return;
    case DType::complex64: {
      auto v = elements_as<float>(data);
      for (std::size_t i = 0; i + 1 < v.size(); i += 2) re.push_back(v[i]), im->push_back(v[i + 1]);
      return;
    }
    case DType::complex128: {
      auto v = elements_as<double>(data);
      for (std::size_t i = 0; i + 1 < v.size(); i += 2) re.push_back(v[i]), im->push_back(v[i + 1]);
      return;
    }
    default: throw TypeError("not a floating-point dtype");
  }
}

// Python's '{:{sign}{width}d}'.format(x) for the integer formatter.
template <class T>
std::vector<std::string> format_integers(const PrintedData& data, char sign) {
  auto values = elements_as<T>(data);
  std::vector<std::string> out;
  if (values.empty()) return out;
  auto [mn, mx] = std::minmax_element(values.begin(), values.end());
  if (sign == ' ' && *mn < 0) sign = '-';
  int width = static_cast<int>(std::to_string(*mx).size());
  if (*mx >= 0 && (sign == '+' || sign == ' ')) ++width;
  width = std::max(width, static_cast<int>(std::to_string(*mn).size()));
  out.reserve(values.size());
  for (T v : values) {
    std::string s = std::to_string(v);
    if (v >= 0 && sign != '-') s.insert(s.begin(), sign);
    if (static_cast<int>(s.size()) < width) s.insert(0, width - s.size(), ' ');
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

std::vector<std::string> format_elements(const PrintedData& data, const PrintOptions& o, bool zero_dim) {
  std::vector<std::string> out;
  switch (data.dtype) {
    case DType::bool_: {
      const std::string true_text = zero_dim ? "True" : " True";
      for (unsigned char b : data.bytes) out.push_back(b ? true_text : "False");
      return out;
    }
    case DType::int8: return format_integers<std::int8_t>(data, o.sign);
    case DType::uint8: return format_integers<std::uint8_t>(data, o.sign);
    case DType::int16: return format_integers<std::int16_t>(data, o.sign);
    case DType::uint16: return format_integers<std::uint16_t>(data, o.sign);
    case DType::int32: return format_integers<std::int32_t>(data, o.sign);
    case DType::uint32: return format_integers<std::uint32_t>(data, o.sign);
    case DType::int64: return format_integers<std::int64_t>(data, o.sign);
    case DType::uint64: return format_integers<std::uint64_t>(data, o.sign);
    default: break;
  }
  std::vector<double> re, im;
  float_parts(data, re, &im);
  const FloatWidth width = width_of(real_dtype(data.dtype));
  FloatFormat real_format(re, width, o, o.sign);
  out.reserve(re.size());
  if (!is_complex(data.dtype)) {
    for (double x : re) out.push_back(real_format(x));
    return out;
  }
  FloatFormat imag_format(im, width, o, '+');
  for (std::size_t i = 0; i < re.size(); ++i) {
    std::string imag = imag_format(im[i]);
    // The 'j' goes before the imaginary part's trailing padding.
    const auto end = imag.find_last_not_of(' ');
    imag.insert(end == std::string::npos ? 0 : end + 1, 1, 'j');
    std::string both = real_format(re[i]);
    both += imag;
    out.push_back(std::move(both));
  }
  return out;
}

}  // namespace copper::format
