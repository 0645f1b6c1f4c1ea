// What the code of user kernels (ElementwiseKernel, ReductionKernel) sees, on the GPU
// (NVRTC) and on the CPU (the system C++ compiler): CuPy's spellings of element types
// (float16 with arithmetic, complex<float> with real()/imag()), raw arrays indexed by
// the user, the loop indexer `_ind`, and on the host the CUDA names user code uses
// (min/max, atomics, __device__). The generated sources include this text verbatim.
#pragma once
#include "ops/scalar_types.h"
#include "ops/scalar_math.h"

#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
#define COPPER_USER_DEVICE 1
#else
#define COPPER_USER_DEVICE 0
#include <math.h>  // the C++ <math.h>: float and double overloads at global scope, as CUDA has

#include <atomic>
// CUDA qualifiers in user preambles compile away on the host.
#define __device__
#define __host__
#define __global__
#define __forceinline__ inline
#endif

typedef decltype(static_cast<char*>(nullptr) - static_cast<char*>(nullptr)) ptrdiff_t;

namespace copper::user {

template <class T> struct identity_type { using type = T; };
template <class T> using identity_t = typename identity_type<T>::type;

// float16 storage (the bits of copper::ops::half) that converts to and from float, so
// user arithmetic runs in float32 and rounds on assignment, as NumPy's float16 loops do.
struct float16 {
  uint16_t bits;
  float16() = default;  // trivial: usable in __shared__ memory and raw byte copies
  COPPER_HD float16(float f) : bits(ops::float_to_half(f).bits) {}
  COPPER_HD operator float() const { return ops::half_to_float(ops::half{bits}); }
  COPPER_HD float16& operator+=(float v) { return *this = float16(float(*this) + v); }
  COPPER_HD float16& operator-=(float v) { return *this = float16(float(*this) - v); }
  COPPER_HD float16& operator*=(float v) { return *this = float16(float(*this) * v); }
  COPPER_HD float16& operator/=(float v) { return *this = float16(float(*this) / v); }
};

// complex<R> as CuPy's kernels know it (thrust's interface); arithmetic is copper's
// (ops::complex: NumPy's multiply and division), so results match the built-in ops.
template <class R> struct complex {
  R re_, im_;
  complex() = default;
  COPPER_HD constexpr complex(R r, R i = R(0)) : re_(r), im_(i) {}
  template <class S> COPPER_HD constexpr complex(const complex<S>& o) : re_(R(o.real())), im_(R(o.imag())) {}
  COPPER_HD constexpr complex(ops::complex<R> z) : re_(z.re), im_(z.im) {}
  COPPER_HD constexpr R real() const { return re_; }
  COPPER_HD constexpr R imag() const { return im_; }
  COPPER_HD void real(R r) { re_ = r; }
  COPPER_HD void imag(R i) { im_ = i; }
  COPPER_HD constexpr ops::complex<R> ops() const { return ops::complex<R>(re_, im_); }
  COPPER_HD complex& operator+=(complex o) { return *this = complex(ops() + o.ops()); }
  COPPER_HD complex& operator-=(complex o) { return *this = complex(ops() - o.ops()); }
  COPPER_HD complex& operator*=(complex o) { return *this = complex(ops() * o.ops()); }
  COPPER_HD complex& operator/=(complex o) { return *this = complex(ops() / o.ops()); }
};

#define COPPER_USER_COMPLEX_OP(op)                                                                      \
  template <class R> COPPER_HD complex<R> operator op(complex<R> a, complex<R> b) {                   \
    return complex<R>(a.ops() op b.ops());                                                              \
  }                                                                                                     \
  template <class R> COPPER_HD complex<R> operator op(complex<R> a, identity_t<R> b) {                \
    return complex<R>(a.ops() op ops::complex<R>(b));                                                   \
  }                                                                                                     \
  template <class R> COPPER_HD complex<R> operator op(identity_t<R> a, complex<R> b) {                \
    return complex<R>(ops::complex<R>(a) op b.ops());                                                   \
  }
COPPER_USER_COMPLEX_OP(+)
COPPER_USER_COMPLEX_OP(-)
COPPER_USER_COMPLEX_OP(*)
COPPER_USER_COMPLEX_OP(/)
#undef COPPER_USER_COMPLEX_OP
template <class R> COPPER_HD complex<R> operator-(complex<R> a) { return complex<R>(-a.re_, -a.im_); }
template <class R> COPPER_HD complex<R> operator+(complex<R> a) { return a; }
template <class R> COPPER_HD bool operator==(complex<R> a, complex<R> b) { return a.re_ == b.re_ && a.im_ == b.im_; }
template <class R> COPPER_HD bool operator!=(complex<R> a, complex<R> b) { return !(a == b); }
template <class R> COPPER_HD bool operator==(complex<R> a, identity_t<R> b) { return a.re_ == b && a.im_ == R(0); }
template <class R> COPPER_HD bool operator!=(complex<R> a, identity_t<R> b) { return !(a == b); }

template <class R> COPPER_HD R real(complex<R> z) { return z.re_; }
template <class R> COPPER_HD R imag(complex<R> z) { return z.im_; }
template <class R> COPPER_HD complex<R> conj(complex<R> z) { return complex<R>(z.re_, -z.im_); }
template <class R> COPPER_HD R abs(complex<R> z) { return ops::math::hypot(z.re_, z.im_); }
template <class R> COPPER_HD R norm(complex<R> z) { return z.re_ * z.re_ + z.im_ * z.im_; }
template <class R> COPPER_HD R arg(complex<R> z) { return ops::math::carg(z.ops()); }
template <class R> COPPER_HD complex<R> polar(R r, R theta = R(0)) {
  return complex<R>(r * ::cos(theta), r * ::sin(theta));
}
#define COPPER_USER_COMPLEX_FN(fn) \
  template <class R> COPPER_HD complex<R> fn(complex<R> z) { return complex<R>(ops::math::fn(z.ops())); }
COPPER_USER_COMPLEX_FN(exp)
COPPER_USER_COMPLEX_FN(log)
COPPER_USER_COMPLEX_FN(log10)
COPPER_USER_COMPLEX_FN(sqrt)
COPPER_USER_COMPLEX_FN(sin)
COPPER_USER_COMPLEX_FN(cos)
COPPER_USER_COMPLEX_FN(tan)
COPPER_USER_COMPLEX_FN(sinh)
COPPER_USER_COMPLEX_FN(cosh)
COPPER_USER_COMPLEX_FN(tanh)
#undef COPPER_USER_COMPLEX_FN
template <class R> COPPER_HD complex<R> pow(complex<R> a, complex<R> b) {
  return complex<R>(ops::math::pow(a.ops(), b.ops()));
}
template <class R> COPPER_HD complex<R> pow(complex<R> a, identity_t<R> b) { return pow(a, complex<R>(b)); }

// The loop index as CuPy's CIndexer shows it: _ind.size() elements, _ind.get() the current.
struct Indexer {
  ptrdiff_t size_, index_;
  COPPER_HD ptrdiff_t size() const { return size_; }
  COPPER_HD ptrdiff_t get() const { return index_; }
  COPPER_HD void set(ptrdiff_t i) { index_ = i; }
};

// A `raw` parameter: the whole array, indexed by the user with a C-order flat index
// (x[i]) or an index per dimension. Byte strides as NumPy's; C marks C-contiguous.
// Host mirror: the parameter block packing in user_kernel_source.cpp.
template <class T, int N, bool C> struct RawArray {
  static constexpr int M = N > 0 ? N : 1;
  T* data_;
  long long size_;
  long long shape_[M];
  long long strides_[M];
  COPPER_HD T* data() const { return data_; }
  COPPER_HD ptrdiff_t size() const { return static_cast<ptrdiff_t>(size_); }
  COPPER_HD const long long* shape() const { return shape_; }
  COPPER_HD const long long* strides() const { return strides_; }
  static constexpr int ndim = N;
  COPPER_HD T& operator[](long long i) const {
    if constexpr (C) {
      return data_[i];
    } else {
      long long off = 0;
      for (int d = N - 1; d >= 0; --d) {
        const long long q = i / shape_[d];
        off += (i - q * shape_[d]) * strides_[d];
        i = q;
      }
      return *reinterpret_cast<T*>(reinterpret_cast<char*>(const_cast<void*>(static_cast<const void*>(data_))) + off);
    }
  }
  template <class I> COPPER_HD T& operator[](const I (&idx)[M]) const { return at(idx); }
  template <class I> COPPER_HD T& at(const I* idx) const {
    long long off = 0;
    for (int d = 0; d < N; ++d) off += static_cast<long long>(idx[d]) * strides_[d];
    return *reinterpret_cast<T*>(reinterpret_cast<char*>(const_cast<void*>(static_cast<const void*>(data_))) + off);
  }
};

// Byte offsets of non-raw operands in a strided loop on the host: the collapsed
// layout (same bytes as copper::kern::StridedLayout<K>) walked in C order.
template <int K> struct HostLayout {
  int ndim;
  long long shape[16];
  unsigned fast_div[16][3];  // used by the GPU mirror only
  long long strides[K][16];
};
template <int K> struct HostStridedIter {
  const HostLayout<K>* l;
  long long idx[16];
  long long off[K];
  COPPER_HD void start(const HostLayout<K>& layout, long long i) {
    l = &layout;
    for (int k = 0; k < K; ++k) off[k] = 0;
    for (int d = l->ndim - 1; d >= 0; --d) {
      const long long q = i / l->shape[d];
      idx[d] = i - q * l->shape[d];
      for (int k = 0; k < K; ++k) off[k] += idx[d] * l->strides[k][d];
      i = q;
    }
  }
  COPPER_HD void next() {
    int d = l->ndim - 1;
    ++idx[d];
    for (int k = 0; k < K; ++k) off[k] += l->strides[k][d];
    while (idx[d] == l->shape[d] && d > 0) {
      for (int k = 0; k < K; ++k) off[k] -= l->shape[d] * l->strides[k][d];
      idx[d] = 0;
      --d;
      ++idx[d];
      for (int k = 0; k < K; ++k) off[k] += l->strides[k][d];
    }
  }
};

template <class T> COPPER_HD T& at_offset(T* base, long long off) {
  return *reinterpret_cast<T*>(reinterpret_cast<char*>(const_cast<void*>(static_cast<const void*>(base))) + off);
}

#if COPPER_USER_DEVICE
// __shfl_down_sync for any trivially copyable type (reduction values of user kernels),
// one 32-bit word at a time.
template <class T> __device__ __forceinline__ T shfl_down(const T& v, int delta) {
  constexpr int W = (sizeof(T) + 3) / 4;
  unsigned w[W] = {};
  const unsigned char* src = reinterpret_cast<const unsigned char*>(&v);
  unsigned char* bytes = reinterpret_cast<unsigned char*>(w);
#pragma unroll
  for (int b = 0; b < static_cast<int>(sizeof(T)); ++b) bytes[b] = src[b];
#pragma unroll
  for (int k = 0; k < W; ++k) w[k] = __shfl_down_sync(0xffffffffu, w[k], delta);
  T r;
  unsigned char* dst = reinterpret_cast<unsigned char*>(&r);
#pragma unroll
  for (int b = 0; b < static_cast<int>(sizeof(T)); ++b) dst[b] = bytes[b];
  return r;
}
#endif

}  // namespace copper::user

// CuPy's type names in user code.
using float16 = copper::user::float16;
template <class R> using complex = copper::user::complex<R>;

#if !COPPER_USER_DEVICE
// CUDA's min/max and atomics, for user code compiled by the host compiler.
template <class A, class B> inline auto min(A a, B b) {
  if constexpr (copper::ops::is_float_v<A> || copper::ops::is_float_v<B>) return ::fmin(a, b);
  else return b < a ? b : a;
}
template <class A, class B> inline auto max(A a, B b) {
  if constexpr (copper::ops::is_float_v<A> || copper::ops::is_float_v<B>) return ::fmax(a, b);
  else return a < b ? b : a;
}
template <class T> inline T atomicAdd(T* p, copper::user::identity_t<T> v) {
  std::atomic_ref<T> r(*p);
  T old = r.load();
  while (!r.compare_exchange_weak(old, T(old + v))) {
  }
  return old;
}
template <class T> inline T atomicSub(T* p, copper::user::identity_t<T> v) { return atomicAdd(p, T(-v)); }
template <class T> inline T atomicMax(T* p, copper::user::identity_t<T> v) {
  std::atomic_ref<T> r(*p);
  T old = r.load();
  while (old < v && !r.compare_exchange_weak(old, v)) {
  }
  return old;
}
template <class T> inline T atomicMin(T* p, copper::user::identity_t<T> v) {
  std::atomic_ref<T> r(*p);
  T old = r.load();
  while (v < old && !r.compare_exchange_weak(old, v)) {
  }
  return old;
}
template <class T> inline T atomicExch(T* p, copper::user::identity_t<T> v) { return std::atomic_ref<T>(*p).exchange(v); }
template <class T> inline T atomicCAS(T* p, copper::user::identity_t<T> expected, copper::user::identity_t<T> v) {
  std::atomic_ref<T>(*p).compare_exchange_strong(expected, v);
  return expected;
}
#endif

// CUDA's math constants (math_constants.h), which user identities often name.
#ifndef CUDART_INF_F
#define CUDART_INF_F (copper::ops::bits_float(0x7f800000u))
#define CUDART_NAN_F (copper::ops::bits_float(0x7fffffffu))
#define CUDART_INF (copper::ops::bits_double(0x7ff0000000000000ull))
#define CUDART_NAN (copper::ops::bits_double(0xfff8000000000000ull))
#endif
