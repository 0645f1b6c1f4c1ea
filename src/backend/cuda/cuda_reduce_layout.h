// Dimension bookkeeping shared by the CUDA reductions and scans: merging dimensions
// that address memory as one, walking negative strides forwards, and packing the
// result into the kernels' StridedLayout parameters.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "backend/cuda/cuda_codegen.h"

namespace copper::backend::cuda::reduce_layout {

using std::int64_t;

struct Dim {
  int64_t n;
  int64_t s[2];  // byte strides: input, output (kept dimensions only)
};

inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
inline int pow2_at_least(int64_t x, int cap) {
  int g = 1;
  while (g < cap && g < x) g *= 2;
  return g;
}

// Merges dimension pairs that address memory as one (outer stride = inner stride *
// inner length, for every operand), keeping C order; drops nothing else.
inline std::vector<Dim> merge_dims(const std::vector<Dim>& dims, int nops) {
  std::vector<Dim> merged;
  for (const Dim& d : dims) {
    if (!merged.empty()) {
      Dim& prev = merged.back();
      bool ok = true;
      for (int k = 0; k < nops; ++k) ok = ok && prev.s[k] == d.s[k] * d.n;
      if (ok) {
        prev.n *= d.n;
        for (int k = 0; k < nops; ++k) prev.s[k] = d.s[k];
        continue;
      }
    }
    merged.push_back(d);
  }
  return merged;
}

// Walks negative input strides forwards (moving the bases) and orders dimensions by
// decreasing input stride, so runs merge and the innermost is the smallest stride.
inline void flip_and_sort(std::vector<Dim>& dims, int nops, std::array<char*, 2>& base) {
  for (Dim& d : dims) {
    if (d.s[0] < 0) {
      for (int k = 0; k < nops; ++k) {
        base[k] += (d.n - 1) * d.s[k];
        d.s[k] = -d.s[k];
      }
    }
  }
  std::stable_sort(dims.begin(), dims.end(), [](const Dim& a, const Dim& b) { return a.s[0] > b.s[0]; });
}

template <int N> StridedLayoutParam<N> layout_param(const std::vector<Dim>& dims) {
  CollapsedLayout l;
  l.strides.resize(N);
  for (const Dim& d : dims) {
    l.shape.push_back(d.n);
    for (int k = 0; k < N; ++k) l.strides[k].push_back(d.s[k]);
  }
  return strided_param<N>(l);
}

}  // namespace copper::backend::cuda::reduce_layout
