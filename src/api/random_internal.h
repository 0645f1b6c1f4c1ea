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
    Generator::State& st = *g.state_;
    ops::philox::RandomParams p{static_cast<std::uint32_t>(st.key), static_cast<std::uint32_t>(st.key >> 32),
                                st.offset, 0.0, 1.0, 0, 0};
    st.offset += blocks;
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
  non_negative,   // "<name> < 0" (signbit: -0.0 fails too)
  positive,       // "<name> <= 0" (NaN passes, as in NumPy)
  unit_interval,  // "p < 0, p > 1 or p is NaN" / "... contains NaNs"
  poisson_lam,    // "lam < 0 or lam is NaN" / "... contains NaNs", "lam value too large"
  open_unit,      // "p <= 0, p > 1 or p contains NaNs" (geometric; Generator's negative_binomial)
  logseries_p,    // "p < 0, p >= 1 or p is NaN" / "... contains NaNs"
  above_one,      // "a <= 1 or a is NaN" / "... contains NaNs" (zipf)
};
struct ParamSpec {
  const Param& value;
  const char* name;
  Constraint constraint;
};

// A draw with per-element parameters (Backend::random_params): converts the parameters
// to float64 (int64 where ops::philox::param_is_int) on the default device, checks them,
// broadcasts them with `size` as NumPy does (its errors), and draws into `dtype` (values
// the backend cannot store directly, such as float16, are drawn wide and converted).
// size = nullopt: the broadcast shape. Block kinds take two parameters, stream kinds
// ops::philox::stream_param_count.
ndarray param_draw(Generator& g, ops::philox::Kind kind, const std::vector<ParamSpec>& specs, const OptShape& size,
                   DType dtype);
// A parameter's values on the host (a number: one value), for checks across parameters.
std::vector<double> host_values(const Param& p);
// Whether any parameter has dimensions (NumPy's array messages then).
bool any_array(const std::vector<ParamSpec>& specs);
// The distributions whose legacy (RandomState) checks differ from Generator's.
ndarray negative_binomial_draw(Generator& g, const Param& n, const Param& p, const OptShape& size, DType dtype,
                               bool legacy);
ndarray hypergeometric_draw(Generator& g, const Param& ngood, const Param& nbad, const Param& nsample,
                            const OptShape& size, DType dtype, bool legacy);
ndarray dirichlet_draw(Generator& g, const ndarray& alpha, const OptShape& size, DType dtype, bool legacy);
ndarray multinomial_draw(Generator& g, const ndarray& n, const ndarray& pvals, const OptShape& size);
// Sends a RuntimeWarning message to the handler set with set_warning_handler (if any).
void warn(const std::string& message);
ndarray multivariate_normal_draw(Generator& g, const ndarray& mean, const ndarray& cov, const OptShape& size,
                                 CovCheck check_valid, double tol, CovFactor method, DType dtype);

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
