// Device pieces of the histogram kernels (Backend::histogram on the GPU; the host side
// and the generated kernel are in cuda_histogram.cpp). Compiled by NVRTC only.
#pragma once
#include "ops/scalar_histogram.h"

namespace copper::kern {

constexpr int kHistMaxDims = 16;

// One axis of the sample; mirrors HistAxisParam in cuda_histogram.cpp.
struct HistAxis {
  const char* x;
  long long stride;       // bytes between the axis' values
  const void* edges;      // nbins + 1 values, global memory
  long long nbins;
  long long bin_stride;   // flat-index step of one bin along this axis
  unsigned shared_offset; // where the edges sit in shared memory, when they are copied there
  unsigned pad;
};

struct HistArgs {
  HistAxis ax[kHistMaxDims];
  const char* w;          // weights (null without)
  long long w_stride;
  void* out;              // zeroed accumulator slots, `lanes` per bin
  long long count;        // sample length
  long long total_bins;
  int copies;             // private copies in shared memory per block (0: straight to out)
  unsigned edges_bytes;   // bytes of edges copied to shared memory (0: read from global)
};

enum HistRule { kHistIndex = 0, kHistEdges = 1, kHistUniform = 2 };

// flat += this axis' bin * bin_stride, or false when the axis drops the value.
// The uniform-bin guess's constants, from the axis' edges.
template <class E>
__device__ __forceinline__ ops::UniformGuess hist_guess(const E* e, long long n) {
  return ops::UniformGuess{static_cast<double>(e[0]),
                           static_cast<double>(n) / (static_cast<double>(e[n]) - static_cast<double>(e[0]))};
}

template <int Rule, class E, class X>
__device__ __forceinline__ bool hist_axis(const HistAxis& ax, const E* e, ops::UniformGuess g, X raw, long long& flat) {
  if constexpr (Rule == kHistIndex) {
    flat += static_cast<long long>(ops::cast<int64_t>(raw)) * ax.bin_stride;
    return true;
  } else {
    long long b;
    if (!ops::histogram_bin<E>(ops::cast<E>(load(raw)), e, ax.nbins, Rule == kHistUniform, g, b))
      return false;
    flat += b * ax.bin_stride;
    return true;
  }
}

// Accumulator slots: unsigned (per-block counts), unsigned long long (counts and
// integer sums, wrapping), double (float sums; complex sums use two lanes).
__device__ __forceinline__ void hist_atomic_add(unsigned* p, unsigned v) { atomicAdd(p, v); }
__device__ __forceinline__ void hist_atomic_add(unsigned long long* p, unsigned long long v) { atomicAdd(p, v); }
__device__ __forceinline__ void hist_atomic_add(double* p, double v) { atomicAdd(p, v); }

// Adds every private copy's slots into the global result (skipping zeros: no traffic
// for empty bins), then the block is done.
template <class Slot, class Global>
__device__ __forceinline__ void hist_flush(const Slot* local, Global* out, long long slots, int copies) {
  __syncthreads();
  for (long long s = threadIdx.x; s < slots; s += blockDim.x) {
    Slot v = local[s];
    for (int c = 1; c < copies; ++c) v += local[c * slots + s];
    if (v != Slot(0)) hist_atomic_add(out + s, static_cast<Global>(v));
  }
}

}  // namespace copper::kern
