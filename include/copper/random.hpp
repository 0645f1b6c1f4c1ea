// Random numbers as NumPy's numpy.random has them: a Generator on a counter-based
// Philox4x32-10 bit generator (the same seed gives the same bits on every device),
// and the legacy module functions (rand, randn, randint, ...) on a global RandomState.
// `size` is the output shape ({} for a 0-d array); arrays land on the default device.
#pragma once
#include <cstdint>
#include <optional>
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

class Generator {
 public:
  explicit Generator(std::uint64_t seed);
  Generator();  // seeded from the operating system's entropy

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
  ndarray permutation(const ndarray& x);  // a shuffled copy along axis 0
  void shuffle(ndarray& x);                // in place, along axis 0

  // Where the stream stands (seed-derived key and next counter block), for tests.
  std::uint64_t key() const { return key_; }
  std::uint64_t counter() const { return offset_; }

 private:
  std::uint64_t key_;
  std::uint64_t offset_ = 0;
  friend struct GeneratorAccess;
};

Generator default_rng(std::optional<std::uint64_t> seed = std::nullopt);

// The legacy API: the same engine behind NumPy's RandomState method names. Seeds are
// limited to [0, 2**32) as NumPy's are.
class RandomState {
 public:
  explicit RandomState(std::optional<std::int64_t> seed = std::nullopt);
  void seed(std::optional<std::int64_t> seed = std::nullopt);
  ndarray rand(const Shape& size = {});
  ndarray randn(const Shape& size = {});
  // [low, high), or [0, low) without high.
  ndarray randint(std::int64_t low, std::optional<std::int64_t> high = std::nullopt, const Shape& size = {},
                  DType dtype = int64);
  ndarray random_sample(const Shape& size = {});
  ndarray random(const Shape& size = {}) { return random_sample(size); }
  ndarray uniform(double low = 0.0, double high = 1.0, const Shape& size = {});
  ndarray normal(double loc = 0.0, double scale = 1.0, const Shape& size = {});
  ndarray standard_normal(const Shape& size = {});
  // Array-valued parameters (see Param): uniform accepts high < low as NumPy's does.
  ndarray uniform(const Param& low, const Param& high, const OptShape& size);
  ndarray normal(const Param& loc, const Param& scale, const OptShape& size);
  ndarray randint(const ndarray& low, const std::optional<ndarray>& high, const OptShape& size, DType dtype = int64);
  Generator& generator() { return gen_; }

 private:
  Generator gen_;
};

// The module-level functions use one process-wide RandomState.
RandomState& global_state();
void seed(std::optional<std::int64_t> seed = std::nullopt);
ndarray rand(const Shape& size = {});
ndarray randn(const Shape& size = {});
ndarray randint(std::int64_t low, std::optional<std::int64_t> high = std::nullopt, const Shape& size = {},
                DType dtype = int64);
ndarray random_sample(const Shape& size = {});
ndarray random(const Shape& size = {});
ndarray uniform(double low = 0.0, double high = 1.0, const Shape& size = {});
ndarray normal(double loc = 0.0, double scale = 1.0, const Shape& size = {});

}  // namespace copper::random
