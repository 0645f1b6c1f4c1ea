// Device-side helpers shared by every generated kernel (compiled by NVRTC only).
// Generated sources include this after the op headers; see cuda_codegen.h.
#pragma once
#include "ops/scalar_types.h"
#include "ops/casting.h"

namespace copper::kern {
using namespace copper::ops;

// Most dimensions a strided kernel handles after the host collapsed contiguous ones.
constexpr int kMaxDims = 16;

// float16 is stored as bits and computed in float32: convert at load and store only.
template <class T> __device__ __forceinline__ compute_t<T> load(T v) {
  if constexpr (is_same_v<T, half>) return half_to_float(v);
  else return v;
}
template <class R, class V> __device__ __forceinline__ R store(V v) {
  if constexpr (is_same_v<R, half>) return float_to_half(v);
  else return v;
}

// How an input element is stored: a bool may hold any byte (a bool view of other data,
// x_int8.view(bool)), which NumPy reads as nonzero-is-true, while a load of such a byte as
// bool is undefined (the compiler may test any bit of it). Kernels load inputs as
// loaded_t<T> and convert to T: bools through bool_byte, other types as they are.
struct bool_byte {
  unsigned char b;
  __device__ __forceinline__ operator bool() const { return b != 0; }
};
template <class T> struct loaded_as {
  using type = T;
};
template <> struct loaded_as<bool> {
  using type = bool_byte;
};
template <class T> using loaded_t = typename loaded_as<T>::type;
// The element of type T at p, read as stored.
template <class T> __device__ __forceinline__ T load_element(const void* p) {
  return static_cast<T>(*static_cast<const loaded_t<T>*>(p));
}

// V elements moved by one aligned vector load or store (16 bytes at most).
template <class T, int V> struct alignas(sizeof(T) * V <= 16 ? sizeof(T) * V : 16) Vec {
  T v[V];
};

// Division by a fixed 32-bit divisor as a multiply and shift (Granlund-Montgomery);
// host code fills `mul` and `shift` (cuda_codegen.cpp, make_fast_div).
struct FastDiv {
  unsigned divisor, mul, shift;
  __device__ __forceinline__ unsigned div(unsigned n) const {
    return static_cast<unsigned>((static_cast<unsigned long long>(__umulhi(n, mul)) + n) >> shift);
  }
};

// Shape and byte strides of N operands, for strided kernels. Dimension 0 is the
// outermost; `div[d]` divides by shape[d].
template <int N> struct StridedLayout {
  int ndim;
  long long shape[kMaxDims];
  FastDiv div[kMaxDims];
  long long strides[N][kMaxDims];
};

// Byte offsets of element `i` (C order) in each operand, over the layout's first `ndim`
// dimensions (all of them; a layout of no dimensions has zero strides). Index is unsigned
// (32-bit, fast division) or long long; Off is long long, or int where the host found every
// operand's offsets within 32 bits. Inlined with a constant ndim, the loop unrolls.
template <int N, class Index, class Off>
__device__ __forceinline__ void offsets_over(const StridedLayout<N>& l, int ndim, Index i, Off (&off)[N]) {
#pragma unroll
  for (int k = 0; k < N; ++k) off[k] = 0;
  for (int d = ndim - 1; d > 0; --d) {
    Index q;
    if constexpr (sizeof(Index) == 4) q = l.div[d].div(i);
    else q = i / static_cast<Index>(l.shape[d]);
    const Off r = static_cast<Off>(i - q * static_cast<Index>(l.shape[d]));
#pragma unroll
    for (int k = 0; k < N; ++k) off[k] += r * static_cast<Off>(l.strides[k][d]);
    i = q;
  }
#pragma unroll
  for (int k = 0; k < N; ++k) off[k] += static_cast<Off>(i) * static_cast<Off>(l.strides[k][0]);
}
template <int N, class Index>
__device__ __forceinline__ void offsets(const StridedLayout<N>& l, Index i, long long (&off)[N]) {
  offsets_over(l, l.ndim, i, off);
}
// offsets() for a layout of exactly Nd dimensions (a serial reduction's row layout, whose
// ndim is a constant of the kernel): the loop unrolls and ndim is never read.
template <int Nd, int N, class Index, class Off>
__device__ __forceinline__ void offsets_fixed(const StridedLayout<N>& l, Index i, Off (&off)[N]) {
  offsets_over(l, Nd, i, off);
}

}  // namespace copper::kern
