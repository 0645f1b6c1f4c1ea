// The legacy API (NumPy's RandomState and module functions) on the Philox engine:
// seed(s) then rand(...) gives the same numbers as default_rng(s).random(...). `dtype`
// is CuPy's argument: the values are drawn as NumPy draws them and stored as dtype.
#include <cmath>

#include "api/random_internal.h"

namespace copper::random {

namespace {

Generator seeded(std::optional<std::int64_t> seed) {
  if (!seed) return Generator();
  if (*seed < 0 || *seed > 0xffffffffLL) throw ValueError("Seed must be between 0 and 2**32 - 1");
  return Generator(static_cast<std::uint64_t>(*seed));
}

// Float results: float32 and float64 are drawn as such; others converted from float64.
ndarray as_dtype(const ndarray& a, DType dtype) { return a.dtype() == dtype ? a : a.astype(dtype); }
DType draw_float(DType dtype) { return dtype == float32 ? float32 : float64; }

}  // namespace

RandomState::RandomState(std::optional<std::int64_t> seed) : gen_(seeded(seed)) {}
void RandomState::seed(std::optional<std::int64_t> seed) {
  const Generator fresh = seeded(seed);
  gen_.set_state(fresh.key(), fresh.counter());  // in place: handles on gen_ follow
}
void RandomState::seed_words(const std::vector<std::uint64_t>& words) {
  for (std::uint64_t w : words)
    if (w > 0xffffffffull) throw ValueError("Seed must be between 0 and 2**32 - 1");
  const Generator fresh = Generator::from_words(words, 1);
  gen_.set_state(fresh.key(), fresh.counter());
}
ndarray RandomState::rand(const Shape& size, DType dtype) { return random_sample(size, dtype); }
ndarray RandomState::randn(const Shape& size, DType dtype) { return standard_normal(size, dtype); }
ndarray RandomState::randint(std::int64_t low, std::optional<std::int64_t> high, const Shape& size, DType dtype) {
  return gen_.integers(low, high, size, dtype);
}
ndarray RandomState::random_integers(std::int64_t low, std::optional<std::int64_t> high, const Shape& size) {
  if (!high) return integers_wide(gen_, 1, low, true, size, int64);
  return integers_wide(gen_, low, *high, true, size, int64);
}
ndarray RandomState::tomaxint(const Shape& size) { return integers_wide(gen_, 0, INT64_MAX, true, size, int64); }
ndarray RandomState::random_sample(const Shape& size, DType dtype) {
  return as_dtype(gen_.random(size, draw_float(dtype)), dtype);
}
ndarray RandomState::uniform(double low, double high, const Shape& size, DType dtype) {
  // RandomState accepts high < low (low + (high - low) * U then lies in (high, low]).
  if (!std::isfinite(high - low)) throw OverflowError("Range exceeds valid bounds");
  return as_dtype(draw(gen_, ops::philox::Kind::uniform, size, draw_float(dtype), low, high - low, nullptr, "uniform"),
                  dtype);
}
ndarray RandomState::normal(double loc, double scale, const Shape& size, DType dtype) {
  if (std::signbit(scale) && !std::isnan(scale)) throw ValueError("scale < 0");
  return as_dtype(draw(gen_, ops::philox::Kind::normal, size, draw_float(dtype), loc, scale, nullptr, "normal"),
                  dtype);
}
ndarray RandomState::standard_normal(const Shape& size, DType dtype) {
  return as_dtype(gen_.standard_normal(size, draw_float(dtype)), dtype);
}
ndarray RandomState::uniform(const Param& low, const Param& high, const OptShape& size, DType dtype) {
  return as_dtype(uniform_params(gen_, low, high, size, true), dtype);
}
ndarray RandomState::normal(const Param& loc, const Param& scale, const OptShape& size, DType dtype) {
  return as_dtype(gen_.normal(loc, scale, size), dtype);
}
ndarray RandomState::randint(const ndarray& low, const std::optional<ndarray>& high, const OptShape& size, DType dtype) {
  return integers_params(gen_, low, high, size, dtype, false);
}
ndarray RandomState::exponential(const Param& scale, const OptShape& size, DType dtype) {
  return as_dtype(gen_.exponential(scale, size), dtype);
}
ndarray RandomState::standard_exponential(const OptShape& size, DType dtype) {
  return as_dtype(gen_.standard_exponential(size ? *size : Shape{}, draw_float(dtype)), dtype);
}
ndarray RandomState::gamma(const Param& shape, const Param& scale, const OptShape& size, DType dtype) {
  return as_dtype(gen_.gamma(shape, scale, size), dtype);
}
ndarray RandomState::standard_gamma(const Param& shape, const OptShape& size, DType dtype) {
  return as_dtype(gen_.standard_gamma(shape, size, draw_float(dtype)), dtype);
}
ndarray RandomState::beta(const Param& a, const Param& b, const OptShape& size, DType dtype) {
  return as_dtype(gen_.beta(a, b, size), dtype);
}
ndarray RandomState::binomial(const Param& n, const Param& p, const OptShape& size, DType dtype) {
  return as_dtype(gen_.binomial(n, p, size), dtype);
}
ndarray RandomState::poisson(const Param& lam, const OptShape& size, DType dtype) {
  return as_dtype(gen_.poisson(lam, size), dtype);
}
ndarray RandomState::negative_binomial(const Param& n, const Param& p, const OptShape& size, DType dtype) {
  return negative_binomial_draw(gen_, n, p, size, dtype, true);
}
ndarray RandomState::hypergeometric(const Param& ngood, const Param& nbad, const Param& nsample,
                                    const OptShape& size, DType dtype) {
  return hypergeometric_draw(gen_, ngood, nbad, nsample, size, dtype, true);
}
ndarray RandomState::dirichlet(const ndarray& alpha, const OptShape& size, DType dtype) {
  return dirichlet_draw(gen_, alpha, size, dtype, true);
}
ndarray RandomState::multinomial(std::int64_t n, const ndarray& pvals, const OptShape& size) {
  if (pvals.ndim() != 1) throw TypeError("pvals must be a 1-d sequence");
  if (n < 0) throw ValueError("n < 0");
  return multinomial_draw(gen_, full({}, Scalar(n), int64, default_device()), pvals, size ? size : OptShape(Shape{}));
}
ndarray RandomState::multivariate_normal(const ndarray& mean, const ndarray& cov, const OptShape& size,
                                         CovCheck check_valid, double tol, CovFactor method, DType dtype) {
  return multivariate_normal_draw(gen_, mean, cov, size, check_valid, tol, method, dtype);
}

RandomState& global_state() {
  static RandomState state;
  return state;
}
void seed(std::optional<std::int64_t> s) { global_state().seed(s); }
ndarray rand(const Shape& size, DType dtype) { return global_state().rand(size, dtype); }
ndarray randn(const Shape& size, DType dtype) { return global_state().randn(size, dtype); }
ndarray randint(std::int64_t low, std::optional<std::int64_t> high, const Shape& size, DType dtype) {
  return global_state().randint(low, high, size, dtype);
}
ndarray random_sample(const Shape& size, DType dtype) { return global_state().random_sample(size, dtype); }
ndarray random(const Shape& size, DType dtype) { return global_state().random_sample(size, dtype); }
ndarray uniform(double low, double high, const Shape& size, DType dtype) {
  return global_state().uniform(low, high, size, dtype);
}
ndarray normal(double loc, double scale, const Shape& size, DType dtype) {
  return global_state().normal(loc, scale, size, dtype);
}
ndarray standard_normal(const Shape& size, DType dtype) { return global_state().standard_normal(size, dtype); }
ndarray permutation(std::int64_t n) { return global_state().permutation(n); }
ndarray permutation(const ndarray& x) { return global_state().permutation(x); }
void shuffle(ndarray& x) { global_state().shuffle(x); }
std::string bytes(std::int64_t length) { return global_state().bytes(length); }

}  // namespace copper::random
