// Pieces the random front-end files share: drawing from the backend kernel, drawing on
// the host with per-element streams, and the integer range check Python's wide ints need.
#pragma once
#include <functional>
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

// n values made on the host, value i from its own counter stream (any thread count gives
// the same result); then moved to the default device as `dtype`.
ndarray host_draw_double(Generator& g, const Shape& size, DType dtype,
                         const std::function<double(ops::philox::Stream&)>& sample);
ndarray host_draw_int64(Generator& g, const Shape& size, const std::function<std::int64_t(ops::philox::Stream&)>& sample);

// integers() over the whole range Python ints can name: [low, high_inclusive] as 128-bit.
ndarray integers_wide(Generator& g, __int128 low, __int128 high, bool endpoint, const Shape& size, DType dtype);

// The sampling algorithms (random_samplers.cpp), one value per call.
double sample_standard_gamma(ops::philox::Stream& s, double shape);
double sample_beta(ops::philox::Stream& s, double a, double b);
std::int64_t sample_binomial(ops::philox::Stream& s, std::int64_t n, double p);
std::int64_t sample_poisson(ops::philox::Stream& s, double lam);

// "dtype('float32')" as NumPy's messages spell it.
std::string dtype_repr(DType t);
// ValueError("negative dimensions are not allowed") and friends.
void check_size(const Shape& size);

}  // namespace copper::random
