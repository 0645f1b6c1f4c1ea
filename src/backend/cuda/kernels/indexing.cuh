// Device pieces of the indexing kernels (gather, scatter, ufunc.at, compaction): the
// out-of-bounds record, index normalization by mode, NumPy's truth of an element, and
// a block-wide exclusive sum. Host side: cuda_indexing*.cpp, cuda_index_errors.h.
#pragma once
#include "copper_kernels/common.cuh"

namespace copper::kern {

// Mirrors backend::cuda::IndexErrorRecord: the first out-of-bounds index a kernel met.
struct IndexErrorRecord {
  unsigned int flag;
  int axis;
  long long index, size;
};

// Keeps the first report only: later ones see the flag taken and leave.
__device__ __forceinline__ void record_index_error(IndexErrorRecord* r, long long index, int axis, long long size) {
  if (atomicCAS(&r->flag, 0u, 1u) == 0u) {
    r->axis = axis;
    r->index = index;
    r->size = size;
  }
}

// Modes: 0 raise (negative counts from the end; false when out of bounds), 1 wrap, 2 clip.
template <int Mode>
__device__ __forceinline__ bool normalize_index(long long& i, long long n) {
  if constexpr (Mode == 0) {
    if (i < 0) i += n;
    return static_cast<unsigned long long>(i) < static_cast<unsigned long long>(n);
  } else if constexpr (Mode == 1) {
    i %= n;
    if (i < 0) i += n;
    return true;
  } else {
    i = i < 0 ? 0 : (i >= n ? n - 1 : i);
    return true;
  }
}

// NumPy's truth: nonzero (NaN true, -0.0 false); complex numbers by either part.
template <class T> __device__ __forceinline__ bool truth(T v) { return v != T(0); }
__device__ __forceinline__ bool truth(bool_byte v) { return v.b != 0; }
template <> __device__ __forceinline__ bool truth<half>(half v) { return (v.bits & 0x7fffu) != 0; }
template <> __device__ __forceinline__ bool truth<complex<float>>(complex<float> v) { return v.re != 0 || v.im != 0; }
template <> __device__ __forceinline__ bool truth<complex<double>>(complex<double> v) { return v.re != 0 || v.im != 0; }

// Exclusive prefix sum of one int per thread across a block of Threads threads (a
// multiple of 32); `total` receives the block's sum. Uses `scratch[Threads / 32]`.
template <int Threads>
__device__ __forceinline__ int block_exclusive_sum(int v, int* scratch, int& total) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int x = v;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const int y = __shfl_up_sync(0xffffffffu, x, d);
    if (lane >= d) x += y;
  }
  if (lane == 31) scratch[warp] = x;
  __syncthreads();
  if (warp == 0) {
    int w = lane < Threads / 32 ? scratch[lane] : 0;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      const int y = __shfl_up_sync(0xffffffffu, w, d);
      if (lane >= d) w += y;
    }
    if (lane < Threads / 32) scratch[lane] = w;  // inclusive warp totals
  }
  __syncthreads();
  total = scratch[Threads / 32 - 1];
  const int before = warp > 0 ? scratch[warp - 1] : 0;
  __syncthreads();  // scratch may be reused right after
  return before + x - v;
}

}  // namespace copper::kern
