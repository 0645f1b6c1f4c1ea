// Pieces the random front-end files share: drawing from the backend kernels (scalar and
// per-element parameters), NumPy's parameter checks, and the integer range check Python's
// wide ints need.
#pragma once
#include <utility>
#include <string>

#include "copper/random.hpp"
#include "ops/philox.h"

namespace copper::random {

struct GeneratorAccess {
  // Parameters of the next draw; advances the counter by `blocks`.
  static ops::philox::RandomParams take(Generator& g, std::uint64_t blocks) {
    ops::philox::RandomParams p{static_cast<std::uint32_t>(g.key_), static_cast<std::uint32_t>(g.key_ >> 32),
                                g.offset_, 0.0, 1.0, 0, 0};
    g.offset_ += blocks;
    return p;
  }
};

// A backend draw of `kind` into `out` (checked: dtype, C-contiguous) or a new array of `size`.
ndarray draw(Generator& g, ops::philox::Kind kind, const Shape& size, DType dtype, double a, double b,
             const ndarray* out, const char* method, std::uint64_t low = 0, std::uint64_t range = 0);

// integers() over the whole range Python ints can name: [low, high_inclusive] as 128-bit.
ndarray integers_wide(Generator& g, __int128 low, __int128 high, bool endpoint, const Shape& size, DType dtype);
// The smallest and largest value of an integer (or bool) dtype, for integers()' bound checks.
std::pair<__int128, __int128> integer_range(DType dtype);

// What NumPy requires of a parameter, with the messages it words for arrays and scalars.
enum class Constraint {
  none,
  non_negative,  // "<name> < 0" (signbit: -0.0 fails too)
  positive,      // "<name> <= 0" (NaN passes, as in NumPy)
  unit_interval, // "p < 0, p > 1 or p is NaN" / "... contains NaNs"
  poisson_lam,   // "lam < 0 or lam is NaN" / "... contains NaNs", "lam value too large"
};
struct ParamSpec {
  const Param& value;
  const char* name;
  Constraint constraint;
};

// A draw with per-element parameters (Backend::random_params): converts both parameters
// to float64 (binomial's n to int64) on the default device, checks them, broadcasts them
// with `size` as NumPy does (its errors), and draws. size = nullopt: the broadcast shape.
ndarray param_draw(Generator& g, ops::philox::Kind kind, const ParamSpec& a, const ParamSpec& b, const OptShape& size,
                   DType dtype);
// uniform(low, high) with array bounds; `legacy`: RandomState's (high < low allowed).
ndarray uniform_params(Generator& g, const Param& low, const Param& high, const OptShape& size, bool legacy);
// integers with array bounds (RandomState.randint is endpoint = false).
ndarray integers_params(Generator& g, const ndarray& low, const std::optional<ndarray>& high, const OptShape& size,
                        DType dtype, bool endpoint);
// The output shape of a parametric draw (np.broadcast's messages).
Shape draw_shape(const std::vector<Shape>& params, const OptShape& size);

// "dtype('float32')" as NumPy's messages spell it.
std::string dtype_repr(DType t);
// ValueError("negative dimensions are not allowed") and friends.
void check_size(const Shape& size);

}  // namespace copper::random
