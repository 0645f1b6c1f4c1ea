// Generator: seeding, and the distributions the backends generate directly.
#include <limits>
#include <random>

#include "api/array_factory.h"
#include "api/random_internal.h"
#include "backend/cpu/thread_pool.h"

namespace copper::random {

using RKind = ops::philox::Kind;

namespace {

// splitmix64: spreads a small seed over the 64 key bits.
std::uint64_t mix_seed(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::uint64_t entropy_seed() {
  std::random_device rd;
  return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
}

bool is_float_dtype(DType t) { return t == float32 || t == float64; }

}  // namespace

std::string dtype_repr(DType t) { return "dtype('" + std::string(name(t)) + "')"; }

void check_size(const Shape& size) { api::check_shape(size); }

Generator::Generator(std::uint64_t seed) : state_(std::make_shared<State>(State{mix_seed(seed), 0})) {}
Generator::Generator() : Generator(entropy_seed()) {}

Generator Generator::from_words(const std::vector<std::uint64_t>& words, std::uint64_t salt) {
  if (words.size() == 1 && salt == 0) return Generator(words[0]);
  std::uint64_t z = mix_seed(salt ^ 0x5DEECE66Dull);
  for (std::uint64_t w : words) z = mix_seed(z ^ w);
  z ^= words.size();
  return Generator(z);
}

Generator default_rng(std::optional<std::uint64_t> seed) { return seed ? Generator(*seed) : Generator(); }

ndarray draw(Generator& g, RKind kind, const Shape& size, DType dtype, double a, double b, const ndarray* out,
             const char* method, std::uint64_t low, std::uint64_t range) {
  ndarray target;
  if (out) {
    if (out->dtype() != dtype)
      throw TypeError("Supplied output array has the wrong type. Expected " + std::string(name(dtype)) + ", got " +
                      std::string(name(out->dtype())));
    if (!out->is_c_contiguous())
      throw ValueError("Supplied output array must be contiguous, writable, aligned, and in machine byte-order.");
    if (!size.empty() && size != out->shape()) throw ValueError("size must match out.shape when used together");
    target = *out;
  } else {
    check_size(size);
    target = api::allocate(size, dtype, default_device());
  }
  const auto n = static_cast<std::uint64_t>(target.size());
  ops::philox::RandomParams p =
      GeneratorAccess::take(g, ops::philox::blocks_for(kind, static_cast<int>(itemsize(dtype)), range, n));
  p.a = a, p.b = b, p.low = low, p.range = range;
  if (n) api::backend_of(target).random(kind, p, backend::view_of(target));
  return target;
}

ndarray Generator::random_raw(const Shape& size) {
  return draw(*this, RKind::raw, size, uint64, 0.0, 1.0, nullptr, "random_raw");
}

ndarray Generator::random(const Shape& size, DType dtype, const ndarray* out) {
  if (!is_float_dtype(dtype)) throw TypeError("Unsupported dtype " + dtype_repr(dtype) + " for random");
  return draw(*this, RKind::uniform, size, dtype, 0.0, 1.0, out, "random");
}

ndarray Generator::uniform(double low, double high, const Shape& size) {
  const double range = high - low;
  if (!(range >= 0) && !std::isnan(low) && !std::isnan(high)) throw ValueError("high - low < 0");
  if (std::isinf(range)) throw OverflowError("high - low range exceeds valid bounds");
  return draw(*this, RKind::uniform, size, float64, low, range, nullptr, "uniform");
}

ndarray Generator::standard_normal(const Shape& size, DType dtype, const ndarray* out) {
  if (!is_float_dtype(dtype)) throw TypeError("Unsupported dtype " + dtype_repr(dtype) + " for standard_normal");
  return draw(*this, RKind::normal, size, dtype, 0.0, 1.0, out, "standard_normal");
}

ndarray Generator::normal(double loc, double scale, const Shape& size) {
  if (std::signbit(scale) && !std::isnan(scale)) throw ValueError("scale < 0");
  return draw(*this, RKind::normal, size, float64, loc, scale, nullptr, "normal");
}

ndarray Generator::standard_exponential(const Shape& size, DType dtype, const ndarray* out) {
  if (!is_float_dtype(dtype))
    throw TypeError("Unsupported dtype " + dtype_repr(dtype) + " for standard_exponential");
  return draw(*this, RKind::exponential, size, dtype, 0.0, 1.0, out, "standard_exponential");
}

ndarray Generator::exponential(double scale, const Shape& size) {
  if (std::signbit(scale) && !std::isnan(scale)) throw ValueError("scale < 0");
  return draw(*this, RKind::exponential, size, float64, 0.0, scale, nullptr, "exponential");
}

ndarray Generator::uniform(const Param& low, const Param& high, const OptShape& size) {
  return uniform_params(*this, low, high, size, false);
}

ndarray Generator::normal(const Param& loc, const Param& scale, const OptShape& size) {
  return param_draw(*this, RKind::normal, {{loc, "loc", Constraint::none}, {scale, "scale", Constraint::non_negative}},
                    size, float64);
}

ndarray Generator::exponential(const Param& scale, const OptShape& size) {
  const Param zero(0.0);
  return param_draw(*this, RKind::exponential,
                    {{zero, "loc", Constraint::none}, {scale, "scale", Constraint::non_negative}}, size, float64);
}

ndarray Generator::integers(const ndarray& low, const std::optional<ndarray>& high, const OptShape& size, DType dtype,
                            bool endpoint) {
  return integers_params(*this, low, high, size, dtype, endpoint);
}

std::pair<__int128, __int128> integer_range(DType dtype) {
  const copper::Kind k = kind(dtype);
  if (k == copper::Kind::int_) {
    const int bits = static_cast<int>(itemsize(dtype)) * 8;
    return {-(static_cast<__int128>(1) << (bits - 1)), (static_cast<__int128>(1) << (bits - 1)) - 1};
  }
  if (k == copper::Kind::uint_) return {0, (static_cast<__int128>(1) << (itemsize(dtype) * 8)) - 1};
  return {0, 1};  // bool
}

ndarray integers_wide(Generator& g, __int128 low, __int128 high, bool endpoint, const Shape& size, DType dtype) {
  const copper::Kind k = kind(dtype);
  if (dtype != bool_ && k != copper::Kind::int_ && k != copper::Kind::uint_)
    throw TypeError("Unsupported dtype " + dtype_repr(dtype) + " for integers");
  const auto [lo_bound, hi_bound] = integer_range(dtype);
  const std::string tname(name(dtype));
  const __int128 high_incl = endpoint ? high : high - 1;
  if (low < lo_bound) throw ValueError("low is out of bounds for " + tname);
  if (high_incl > hi_bound) throw ValueError("high is out of bounds for " + tname);
  if (low > high_incl) throw ValueError(endpoint ? "low > high" : "low >= high");
  const auto range = static_cast<std::uint64_t>(high_incl - low);
  return draw(g, RKind::integers, size, dtype, 0.0, 1.0, nullptr, "integers", static_cast<std::uint64_t>(low),
              range);
}

ndarray Generator::integers(std::int64_t low, std::optional<std::int64_t> high, const Shape& size, DType dtype,
                            bool endpoint) {
  if (!high) {
    if (endpoint ? low < 0 : low <= 0) throw ValueError(endpoint ? "high < 0" : "high <= 0");
    return integers_wide(*this, 0, low, endpoint, size, dtype);
  }
  return integers_wide(*this, low, *high, endpoint, size, dtype);
}

}  // namespace copper::random
