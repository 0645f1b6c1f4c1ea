// The legacy API (NumPy's RandomState and module functions) on the Philox engine:
// seed(s) then rand(...) gives the same numbers as default_rng(s).random(...).
#include <cmath>

#include "api/random_internal.h"

namespace copper::random {

namespace {

Generator seeded(std::optional<std::int64_t> seed) {
  if (!seed) return Generator();
  if (*seed < 0 || *seed > 0xffffffffLL) throw ValueError("Seed must be between 0 and 2**32 - 1");
  return Generator(static_cast<std::uint64_t>(*seed));
}

}  // namespace

RandomState::RandomState(std::optional<std::int64_t> seed) : gen_(seeded(seed)) {}
void RandomState::seed(std::optional<std::int64_t> seed) { gen_ = seeded(seed); }
ndarray RandomState::rand(const Shape& size) { return gen_.random(size); }
ndarray RandomState::randn(const Shape& size) { return gen_.standard_normal(size); }
ndarray RandomState::randint(std::int64_t low, std::optional<std::int64_t> high, const Shape& size, DType dtype) {
  return gen_.integers(low, high, size, dtype);
}
ndarray RandomState::random_sample(const Shape& size) { return gen_.random(size); }
ndarray RandomState::uniform(double low, double high, const Shape& size) {
  // RandomState accepts high < low (low + (high - low) * U then lies in (high, low]).
  if (!std::isfinite(high - low)) throw OverflowError("Range exceeds valid bounds");
  return draw(gen_, ops::philox::Kind::uniform, size, float64, low, high - low, nullptr, "uniform");
}
ndarray RandomState::normal(double loc, double scale, const Shape& size) { return gen_.normal(loc, scale, size); }
ndarray RandomState::standard_normal(const Shape& size) { return gen_.standard_normal(size); }
ndarray RandomState::uniform(const Param& low, const Param& high, const OptShape& size) {
  return uniform_params(gen_, low, high, size, true);
}
ndarray RandomState::normal(const Param& loc, const Param& scale, const OptShape& size) {
  return gen_.normal(loc, scale, size);
}
ndarray RandomState::randint(const ndarray& low, const std::optional<ndarray>& high, const OptShape& size, DType dtype) {
  return integers_params(gen_, low, high, size, dtype, false);
}

RandomState& global_state() {
  static RandomState state;
  return state;
}
void seed(std::optional<std::int64_t> s) { global_state().seed(s); }
ndarray rand(const Shape& size) { return global_state().rand(size); }
ndarray randn(const Shape& size) { return global_state().randn(size); }
ndarray randint(std::int64_t low, std::optional<std::int64_t> high, const Shape& size, DType dtype) {
  return global_state().randint(low, high, size, dtype);
}
ndarray random_sample(const Shape& size) { return global_state().random_sample(size); }
ndarray random(const Shape& size) { return global_state().random_sample(size); }
ndarray uniform(double low, double high, const Shape& size) { return global_state().uniform(low, high, size); }
ndarray normal(double loc, double scale, const Shape& size) { return global_state().normal(loc, scale, size); }

}  // namespace copper::random
