// Backend::fold on the GPU: the sequential fold of any binary ufunc along the last axis,
// one thread per (kept element, segment), each walking its stretch in element order
// (ops::invoke, so results match the CPU loop's). Host mirror: cuda_fold.cpp.
#pragma once
#include "copper_kernels/common.cuh"

namespace copper::kern {

struct FoldArgs {
  const char* in;
  char* out;
  const char* where;      // bool, or null
  const long long* seg;   // (nseg, 2) [start, end) pairs, or null
  long long tasks;        // kept elements * nseg
  long long nseg, n;      // segments per kept element, axis length
  long long in_step, out_step, where_step;  // byte strides along the folded axis
  StridedLayout<3> layout;                  // kept dimensions of in, out and where
};

template <class Op, class T, bool FromOut, bool Scan>
__device__ __forceinline__ void fold(const FoldArgs& a) {
  const long long step = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; t < a.tasks; t += step) {
    const long long j = t % a.nseg;
    long long off[3];
    offsets<3, long long>(a.layout, t / a.nseg, off);
    const char* in = a.in + off[0];
    char* out = a.out + off[1] + (a.seg ? j * a.out_step : 0);
    const char* w = a.where ? a.where + off[2] : nullptr;
    const long long start = a.seg ? a.seg[2 * j] : 0, stop = a.seg ? a.seg[2 * j + 1] : a.n;
    bool have = FromOut;
    T acc = FromOut ? load_element<T>(out) : T{};
    for (long long i = start; i < stop; ++i) {
      if (w && !load_element<bool>(w + i * a.where_step)) continue;
      const T x = load_element<T>(in + i * a.in_step);
      acc = have ? invoke<Op, T>(acc, x) : x;
      have = true;
      if (Scan) *reinterpret_cast<T*>(out + i * a.out_step) = acc;
    }
    if (!Scan && have) *reinterpret_cast<T*>(out) = acc;
  }
}

}  // namespace copper::kern
