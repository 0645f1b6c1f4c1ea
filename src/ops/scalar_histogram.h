// Which histogram bin a value falls in: one definition for the CPU backend and for
// NVRTC (embedded as "ops/scalar_histogram.h"), so both count every element alike.
//
// NumPy's rule for edges e[0..n] (n bins): v counts only if e[0] <= v <= e[n] (NaN
// never does); its bin is the last b with e[b] <= v, the last bin also taking v == e[n].
// Both of NumPy's paths (the uniform-bin arithmetic with its +-1 correction, and
// searchsorted on sorted data) give exactly this when compared in the edges' dtype.
#pragma once
#include "ops/scalar_types.h"

namespace copper::ops {

// Per-axis constants for uniform (equally spaced, strictly increasing) edges: a first
// guess (v - lo) * scale that the edges then correct, so rounding never misplaces v.
struct UniformGuess {
  double lo, scale;  // e[0] and n / (e[n] - e[0]), both in double
};

// Sets `bin` and returns true when v falls in a bin of edges e[0..n].
template <class E>
COPPER_HD bool histogram_bin(E v, const E* e, long long n, bool uniform, UniformGuess g, long long& bin) {
  if (!(v >= e[0] && v <= e[n])) return false;
  long long b;
  if (uniform) {
    // A NaN guess (0 * inf: edges that are all equal, as a range of one large value gives
    // NumPy's histogramdd) starts at bin 0; the walks below settle it.
    const double guess = (static_cast<double>(v) - g.lo) * g.scale;
    b = !(guess >= 0) ? 0 : guess >= static_cast<double>(n - 1) ? n - 1 : static_cast<long long>(guess);
    while (b > 0 && v < e[b]) --b;
    while (b < n - 1 && !(v < e[b + 1])) ++b;
  } else {
    // upper_bound over e[1..n-1]: the count of edges <= v among them is the bin.
    long long first = 1, count = n - 1;
    while (count > 0) {
      const long long step = count / 2;
      if (!(v < e[first + step])) {
        first += step + 1;
        count -= step + 1;
      } else {
        count = step;
      }
    }
    b = first - 1;
  }
  bin = b;
  return true;
}

}  // namespace copper::ops
