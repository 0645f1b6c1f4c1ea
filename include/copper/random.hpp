// Random numbers as NumPy's numpy.random has them: a Generator on a counter-based
// Philox4x32-10 bit generator (the same seed gives the same bits on every device),
// and the legacy module functions (rand, randn, randint, ...) on a global RandomState.
// `size` is the output shape ({} for a 0-d array); arrays land on the default device.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "copper/creation.hpp"
#include "copper/ndarray.hpp"

namespace copper::random {

// A distribution parameter: a number, or an array (any device, any real dtype) that
// broadcasts against the other parameters and `size` with NumPy's rules. Methods taking
// Params return shape broadcast(params) for size = nullopt, else exactly `size`.
class Param {
 public:
  Param(double value) : value_(value) {}  // NOLINT: numbers convert implicitly, as in Python
  Param(const ndarray& array) : array_(array), is_array_(true) {}  // NOLINT
  bool is_array() const { return is_array_; }
  double value() const { return value_; }
  const ndarray& array() const { return array_; }

 private:
  double value_ = 0.0;
  ndarray array_;
  bool is_array_ = false;
};
using OptShape = std::optional<Shape>;

// multivariate_normal's options, as NumPy's strings.
enum class CovCheck { warn, raise, ignore };
enum class CovFactor { svd, eigh, cholesky };

// A Generator is a handle on its bit generator's state (key and counter): copies share
// the stream, as NumPy Generators built on one bit generator do.
class Generator {
 public:
  explicit Generator(std::uint64_t seed);
  Generator();  // seeded from the operating system's entropy
  // A stream from a seed of several 64-bit words (NumPy's SeedSequence of a sequence);
  // `salt` tells bit generator families apart (same seed, different streams).
  static Generator from_words(const std::vector<std::uint64_t>& words, std::uint64_t salt = 0);

  // The bit generator's raw output: uint64 words (NumPy's bit_generator.random_raw).
  ndarray random_raw(const Shape& size = {});
  // [0, 1) floats: float64 (53 random bits) or float32 (24 bits).
  ndarray random(const Shape& size = {}, DType dtype = float64, const ndarray* out = nullptr);
  ndarray uniform(double low = 0.0, double high = 1.0, const Shape& size = {});
  // Integers in [low, high) ([low, high] with endpoint) of an integer dtype or bool.
  ndarray integers(std::int64_t low, std::optional<std::int64_t> high = std::nullopt, const Shape& size = {},
                   DType dtype = int64, bool endpoint = false);
  ndarray standard_normal(const Shape& size = {}, DType dtype = float64, const ndarray* out = nullptr);
  ndarray normal(double loc = 0.0, double scale = 1.0, const Shape& size = {});
  ndarray standard_exponential(const Shape& size = {}, DType dtype = float64, const ndarray* out = nullptr);
  ndarray exponential(double scale = 1.0, const Shape& size = {});
  // Rejection samplers: element i from its own counter stream, on the default device.
  ndarray gamma(double shape, double scale = 1.0, const Shape& size = {});
  ndarray standard_gamma(double shape, const Shape& size = {}, DType dtype = float64);
  ndarray beta(double a, double b, const Shape& size = {});
  ndarray binomial(std::int64_t n, double p, const Shape& size = {});
  ndarray poisson(double lam = 1.0, const Shape& size = {});
  // Array-valued parameters (see Param); uniform, normal, exponential write float64.
  ndarray uniform(const Param& low, const Param& high, const OptShape& size);
  ndarray normal(const Param& loc, const Param& scale, const OptShape& size);
  ndarray exponential(const Param& scale, const OptShape& size);
  ndarray gamma(const Param& shape, const Param& scale, const OptShape& size);
  ndarray standard_gamma(const Param& shape, const OptShape& size, DType dtype = float64);
  ndarray beta(const Param& a, const Param& b, const OptShape& size);
  ndarray binomial(const Param& n, const Param& p, const OptShape& size);
  ndarray poisson(const Param& lam, const OptShape& size);
  // Integer bounds as arrays (or 0-d arrays), any integer dtype; high = nullopt: [0, low).
  ndarray integers(const ndarray& low, const std::optional<ndarray>& high, const OptShape& size, DType dtype = int64,
                   bool endpoint = false);
  // choice from arange(n) or along axis 0 of `a`; p: probabilities (host values).
  ndarray choice(std::int64_t n, const Shape& size = {}, bool replace = true,
                 const std::vector<double>* p = nullptr, bool shuffle = true);
  ndarray choice(const ndarray& a, const Shape& size = {}, bool replace = true,
                 const std::vector<double>* p = nullptr, bool shuffle = true);
  ndarray permutation(std::int64_t n);
  ndarray permutation(const ndarray& x, int axis = 0);  // a shuffled copy along axis
  void shuffle(ndarray& x, int axis = 0);              // in place, along axis
  // choice along any axis of `a` (NumPy's Generator.choice(..., axis=)).
  ndarray choice(const ndarray& a, const Shape& size, bool replace, const std::vector<double>* p, bool shuffle,
                 int axis);

  // The distributions below take numbers or arrays (see Param) and return shape
  // broadcast(params) for size = nullopt, else `size`. `dtype` (CuPy's argument) is the
  // result's dtype: values are computed in float64 (continuous) or int64 (discrete) and
  // stored as that dtype. Parameters are checked as NumPy's Generator checks them.
  ndarray chisquare(const Param& df, const OptShape& size = std::nullopt, DType dtype = float64);
  ndarray f(const Param& dfnum, const Param& dfden, const OptShape& size = std::nullopt, DType dtype = float64);
  ndarray standard_t(const Param& df, const OptShape& size = std::nullopt, DType dtype = float64);
  ndarray noncentral_chisquare(const Param& df, const Param& nonc, const OptShape& size = std::nullopt,
                               DType dtype = float64);
  ndarray noncentral_f(const Param& dfnum, const Param& dfden, const Param& nonc, const OptShape& size = std::nullopt,
                       DType dtype = float64);
  ndarray vonmises(const Param& mu, const Param& kappa, const OptShape& size = std::nullopt, DType dtype = float64);
  ndarray wald(const Param& mean, const Param& scale, const OptShape& size = std::nullopt, DType dtype = float64);
  ndarray gumbel(const Param& loc = 0.0, const Param& scale = 1.0, const OptShape& size = std::nullopt,
                 DType dtype = float64);
  ndarray laplace(const Param& loc = 0.0, const Param& scale = 1.0, const OptShape& size = std::nullopt,
                  DType dtype = float64);
  ndarray logistic(const Param& loc = 0.0, const Param& scale = 1.0, const OptShape& size = std::nullopt,
                   DType dtype = float64);
  ndarray lognormal(const Param& mean = 0.0, const Param& sigma = 1.0, const OptShape& size = std::nullopt,
                    DType dtype = float64);
  ndarray pareto(const Param& a, const OptShape& size = std::nullopt, DType dtype = float64);
  ndarray power(const Param& a, const OptShape& size = std::nullopt, DType dtype = float64);
  ndarray weibull(const Param& a, const OptShape& size = std::nullopt, DType dtype = float64);
  ndarray rayleigh(const Param& scale = 1.0, const OptShape& size = std::nullopt, DType dtype = float64);
  ndarray standard_cauchy(const OptShape& size = std::nullopt, DType dtype = float64);
  ndarray triangular(const Param& left, const Param& mode, const Param& right, const OptShape& size = std::nullopt,
                     DType dtype = float64);
  ndarray negative_binomial(const Param& n, const Param& p, const OptShape& size = std::nullopt, DType dtype = int64);
  ndarray geometric(const Param& p, const OptShape& size = std::nullopt, DType dtype = int64);
  ndarray hypergeometric(const Param& ngood, const Param& nbad, const Param& nsample,
                         const OptShape& size = std::nullopt, DType dtype = int64);
  ndarray logseries(const Param& p, const OptShape& size = std::nullopt, DType dtype = int64);
  ndarray zipf(const Param& a, const OptShape& size = std::nullopt, DType dtype = int64);
  // Vectors: the result has shape size + (k,) (size = nullopt: (k,) or broadcast(n)).
  ndarray dirichlet(const ndarray& alpha, const OptShape& size = std::nullopt, DType dtype = float64);
  ndarray multinomial(const Param& n, const ndarray& pvals, const OptShape& size = std::nullopt);
  ndarray multivariate_normal(const ndarray& mean, const ndarray& cov, const OptShape& size = std::nullopt,
                              CovCheck check_valid = CovCheck::warn, double tol = 1e-8,
                              CovFactor method = CovFactor::svd, DType dtype = float64);
  // `length` random bytes.
  std::string bytes(std::int64_t length);

  // Where the stream stands (seed-derived key and next counter block); set_state moves it.
  std::uint64_t key() const { return state_->key; }
  std::uint64_t counter() const { return state_->offset; }
  void set_state(std::uint64_t key, std::uint64_t counter) { *state_ = State{key, counter}; }

 private:
  struct State {
    std::uint64_t key = 0;
    std::uint64_t offset = 0;
  };
  std::shared_ptr<State> state_;
  friend struct GeneratorAccess;
};

Generator default_rng(std::optional<std::uint64_t> seed = std::nullopt);

// The legacy API: the same engine behind NumPy's RandomState method names. Seeds are
// limited to [0, 2**32) as NumPy's are. The distributions follow NumPy's RandomState
// checks where they differ from Generator's (hypergeometric's nsample >= 1, dirichlet's
// alpha > 0, negative_binomial's p in [0, 1], ...) and take CuPy's `dtype`.
class RandomState {
 public:
  explicit RandomState(std::optional<std::int64_t> seed = std::nullopt);
  void seed(std::optional<std::int64_t> seed = std::nullopt);
  // NumPy's seed(array): the words of a 1-d integer sequence.
  void seed_words(const std::vector<std::uint64_t>& words);
  ndarray rand(const Shape& size = {}, DType dtype = float64);
  ndarray randn(const Shape& size = {}, DType dtype = float64);
  // [low, high), or [0, low) without high.
  ndarray randint(std::int64_t low, std::optional<std::int64_t> high = std::nullopt, const Shape& size = {},
                  DType dtype = int64);
  // [low, high], or [1, low] without high (NumPy's deprecated random_integers).
  ndarray random_integers(std::int64_t low, std::optional<std::int64_t> high = std::nullopt, const Shape& size = {});
  // Integers in [0, 2**63 - 1].
  ndarray tomaxint(const Shape& size = {});
  ndarray random_sample(const Shape& size = {}, DType dtype = float64);
  ndarray random(const Shape& size = {}) { return random_sample(size); }
  ndarray uniform(double low = 0.0, double high = 1.0, const Shape& size = {}, DType dtype = float64);
  ndarray normal(double loc = 0.0, double scale = 1.0, const Shape& size = {}, DType dtype = float64);
  ndarray standard_normal(const Shape& size = {}, DType dtype = float64);
  // Array-valued parameters (see Param): uniform accepts high < low as NumPy's does.
  ndarray uniform(const Param& low, const Param& high, const OptShape& size, DType dtype = float64);
  ndarray normal(const Param& loc, const Param& scale, const OptShape& size, DType dtype = float64);
  ndarray randint(const ndarray& low, const std::optional<ndarray>& high, const OptShape& size, DType dtype = int64);
  ndarray exponential(const Param& scale = 1.0, const OptShape& size = std::nullopt, DType dtype = float64);
  ndarray standard_exponential(const OptShape& size = std::nullopt, DType dtype = float64);
  ndarray gamma(const Param& shape, const Param& scale = 1.0, const OptShape& size = std::nullopt,
                DType dtype = float64);
  ndarray standard_gamma(const Param& shape, const OptShape& size = std::nullopt, DType dtype = float64);
  ndarray beta(const Param& a, const Param& b, const OptShape& size = std::nullopt, DType dtype = float64);
  ndarray binomial(const Param& n, const Param& p, const OptShape& size = std::nullopt, DType dtype = int64);
  ndarray poisson(const Param& lam = 1.0, const OptShape& size = std::nullopt, DType dtype = int64);
  ndarray negative_binomial(const Param& n, const Param& p, const OptShape& size = std::nullopt, DType dtype = int64);
  ndarray hypergeometric(const Param& ngood, const Param& nbad, const Param& nsample,
                         const OptShape& size = std::nullopt, DType dtype = int64);
  ndarray dirichlet(const ndarray& alpha, const OptShape& size = std::nullopt, DType dtype = float64);
  ndarray multinomial(std::int64_t n, const ndarray& pvals, const OptShape& size = std::nullopt);
  ndarray multivariate_normal(const ndarray& mean, const ndarray& cov, const OptShape& size = std::nullopt,
                              CovCheck check_valid = CovCheck::warn, double tol = 1e-8,
                              CovFactor method = CovFactor::svd, DType dtype = float64);
  // choice from arange(n) or a 1-d `a` (NumPy's legacy checks).
  ndarray choice(std::int64_t n, const Shape& size = {}, bool replace = true, const std::vector<double>* p = nullptr);
  ndarray choice(const ndarray& a, const Shape& size = {}, bool replace = true,
                 const std::vector<double>* p = nullptr);
  ndarray permutation(std::int64_t n) { return gen_.permutation(n); }
  ndarray permutation(const ndarray& x) { return gen_.permutation(x); }
  void shuffle(ndarray& x) { gen_.shuffle(x); }
  std::string bytes(std::int64_t length) { return gen_.bytes(length); }
  // The distributions whose checks are Generator's (chisquare, f, ..., zipf) are used
  // through generator().
  Generator& generator() { return gen_; }

 private:
  Generator gen_;
};

// Where multivariate_normal's check_valid="warn" message goes (Python: a RuntimeWarning;
// nullptr, the default: nowhere). A handler may throw to turn the warning into an error.
using WarningHandler = void (*)(const char* message);
void set_warning_handler(WarningHandler handler);

// The module-level functions use one process-wide RandomState.
RandomState& global_state();
void seed(std::optional<std::int64_t> seed = std::nullopt);
ndarray rand(const Shape& size = {}, DType dtype = float64);
ndarray randn(const Shape& size = {}, DType dtype = float64);
ndarray randint(std::int64_t low, std::optional<std::int64_t> high = std::nullopt, const Shape& size = {},
                DType dtype = int64);
ndarray random_sample(const Shape& size = {}, DType dtype = float64);
ndarray random(const Shape& size = {}, DType dtype = float64);
ndarray uniform(double low = 0.0, double high = 1.0, const Shape& size = {}, DType dtype = float64);
ndarray normal(double loc = 0.0, double scale = 1.0, const Shape& size = {}, DType dtype = float64);
ndarray standard_normal(const Shape& size = {}, DType dtype = float64);
ndarray permutation(std::int64_t n);
ndarray permutation(const ndarray& x);
void shuffle(ndarray& x);
std::string bytes(std::int64_t length);

}  // namespace copper::random
