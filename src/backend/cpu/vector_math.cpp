// libmvec's entry points (vector_math.h): resolved once with dlsym under the names of the
// x86-64 vector function ABI (_ZGV<isa>N<lanes>v_<name>), and called by one small loop per
// (ISA, element type), compiled for that ISA with a target attribute, so the rest of the
// library stays baseline x86-64.
#include "backend/cpu/vector_math.h"

#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define COPPER_VECTOR_MATH_X86 1
#include <immintrin.h>
#endif

namespace copper::backend::cpu::vector_math {

namespace {

constexpr std::array<const char*, num_libmvec_fns> kNames = {
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin", "acos", "atan",
    "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "cbrt"};

constexpr std::array<const char*, num_fns2> kNames2 = {"atan2", "hypot", "pow"};

constexpr int kNumIsas = static_cast<int>(Isa::avx512) + 1;

// Each function's domain, outside which it is NaN, and a value inside it. libmvec sends
// lanes with special inputs (NaN, infinities, values outside the domain) to scalar code
// itself, one by one, more slowly than libm: exp of data half NaN ran 1.2x slower than libm
// and 10x slower than NumPy. The loops below keep those lanes from it. The bounds are
// finite, so the range test catches infinities, and NaN fails it.
struct Domain {
  double lo, hi, benign;
};
constexpr double kMax = 1.7976931348623157e308;
constexpr std::array<Domain, num_fns> kDomains = {{
    {-kMax, kMax, 0.5}, {-kMax, kMax, 0.5}, {-kMax, kMax, 0.5},  // exp exp2 expm1
    {0, kMax, 0.5}, {0, kMax, 0.5}, {0, kMax, 0.5}, {-1, kMax, 0.5},  // log log2 log10 log1p
    {-kMax, kMax, 0.5}, {-kMax, kMax, 0.5}, {-kMax, kMax, 0.5},  // sin cos tan
    {-1, 1, 0.5}, {-1, 1, 0.5}, {-kMax, kMax, 0.5},  // asin acos atan
    {-kMax, kMax, 0.5}, {-kMax, kMax, 0.5}, {-kMax, kMax, 0.5},  // sinh cosh tanh
    {-kMax, kMax, 0.5}, {1, kMax, 1.5}, {-1, 1, 0.5}, {-kMax, kMax, 0.5},  // asinh acosh atanh cbrt
    {-kMax, kMax, 0.5}, {-kMax, kMax, 0.5}, {-kMax, kMax, 0.5}, {-kMax, kMax, 0.5},  // floor ceil trunc rint
}};

// libm's scalar functions, for the lanes outside the domain.
constexpr std::array<double (*)(double), num_fns> kScalar64 = {
    ::exp, ::exp2, ::expm1, ::log, ::log2, ::log10, ::log1p, ::sin, ::cos, ::tan, ::asin, ::acos, ::atan,
    ::sinh, ::cosh, ::tanh, ::asinh, ::acosh, ::atanh, ::cbrt, ::floor, ::ceil, ::trunc, ::rint};
constexpr std::array<float (*)(float), num_fns> kScalar32 = {
    ::expf, ::exp2f, ::expm1f, ::logf, ::log2f, ::log10f, ::log1pf, ::sinf, ::cosf, ::tanf, ::asinf, ::acosf, ::atanf,
    ::sinhf, ::coshf, ::tanhf, ::asinhf, ::acoshf, ::atanhf, ::cbrtf, ::floorf, ::ceilf, ::truncf, ::rintf};

constexpr std::array<double (*)(double, double), num_fns2> kScalar2_64 = {::atan2, ::hypot, ::pow};
constexpr std::array<float (*)(float, float), num_fns2> kScalar2_32 = {::atan2f, ::hypotf, ::powf};

// One function's domain and libm fallback in type T, made once per table (lanes_for).
template <class T> struct Lanes {
  T lo{}, hi{}, benign{};
  T (*scalar)(T) = nullptr;
  T domain_nan{};  // libm's NaN for a finite value outside the domain (its sign varies by function)
};

template <class T> Lanes<T> lanes_for(const Domain& d, T (*s)(T)) {
  Lanes<T> l;
  l.lo = static_cast<T>(std::max(d.lo, -static_cast<double>(std::numeric_limits<T>::max())));
  l.hi = static_cast<T>(std::min(d.hi, static_cast<double>(std::numeric_limits<T>::max())));
  l.benign = static_cast<T>(d.benign);
  l.scalar = s;
  l.domain_nan = d.lo > -kMax ? s(static_cast<T>(d.lo - 1))
                 : d.hi < kMax ? s(static_cast<T>(d.hi + 1))
                               : std::numeric_limits<T>::quiet_NaN();
  return l;
}

// One loop per (ISA, type). A register whose lanes are all inside the domain goes straight
// to libmvec. Otherwise the call sees the benign value in the other lanes, and then NaN
// lanes take x + x (the quiet NaN of x's payload), finite lanes outside the domain the NaN
// libm gave for one such value when the table was made (lanes_for): both libm's answers
// there, which the tests check bit for bit. Infinities get libm's value, one by one. Selects, no
// per-lane branches: the lanes are often a random mix (data with missing values, log of
// values of both signs). The tail is one register padded with the benign value.
using Loop64 = void (*)(const void* fn, const Lanes<double>& d, const double* in, double* out, std::int64_t n);
using Loop32 = void (*)(const void* fn, const Lanes<float>& d, const float* in, float* out, std::int64_t n);
using Loop2_64 = void (*)(const void* fn, double (*scalar)(double, double), const double* a, const double* b,
                          double* out, std::int64_t n);
using Loop2_32 = void (*)(const void* fn, float (*scalar)(float, float), const float* a, const float* b, float* out,
                          std::int64_t n);

#ifdef COPPER_VECTOR_MATH_X86
#define COPPER_VECTOR_MATH_LOOP(name, isa, I)                                                                  \
  __attribute__((target(isa))) void name(const void* fn, const Lanes<I::T>& d, const I::T* in, I::T* out,     \
                                         std::int64_t n) {                                                    \
    using T = I::T;                                                                                          \
    using V = I::V;                                                                                          \
    constexpr int lanes = I::lanes;                                                                          \
    const auto f = reinterpret_cast<V (*)(V)>(const_cast<void*>(fn));                                       \
    const V lo = I::set1(d.lo), hi = I::set1(d.hi), benign = I::set1(d.benign), domain_nan = I::set1(d.domain_nan); \
    alignas(64) T tail[lanes], xs[lanes], ys[lanes];                                                         \
    for (std::int64_t i = 0; i < n; i += lanes) {                                                            \
      const std::int64_t count = std::min<std::int64_t>(lanes, n - i);                                       \
      if (count < lanes) {                                                                                   \
        std::memcpy(tail, in + i, count * sizeof(T));                                                        \
        std::fill(tail + count, tail + lanes, d.benign);                                                     \
      }                                                                                                      \
      const V x = I::load(count < lanes ? tail : in + i);                                                    \
      const auto inside = I::inside(x, lo, hi);                                                              \
      V y;                                                                                                   \
      if (I::bits(inside) == I::all) {                                                                       \
        y = f(x);                                                                                            \
      } else {                                                                                               \
        const auto nan = I::nan(x);                                                                          \
        const V zero = I::sub(x, x); /* 0 where x is finite, else NaN */                                    \
        const auto domain_error = I::finite_outside(zero, inside);                                           \
        y = I::select(nan, I::add(x, x), f(I::select(inside, x, benign)));                                   \
        y = I::select(domain_error, domain_nan, y);                                                          \
        if (unsigned rest = I::all & ~(I::bits(inside) | I::bits(nan) | I::bits(domain_error))) {            \
          I::store(xs, x);                                                                                   \
          I::store(ys, y);                                                                                   \
          for (; rest; rest &= rest - 1) ys[__builtin_ctz(rest)] = d.scalar(xs[__builtin_ctz(rest)]);        \
          y = I::load(ys);                                                                                   \
        }                                                                                                    \
      }                                                                                                      \
      if (count < lanes) {                                                                                   \
        I::store(tail, y);                                                                                   \
        std::memcpy(out + i, tail, count * sizeof(T));                                                       \
      } else {                                                                                               \
        I::store(out + i, y);                                                                                \
      }                                                                                                      \
    }                                                                                                        \
  }

// Two arguments (atan2, hypot: defined everywhere): registers whose lanes are all finite go
// straight to libmvec; lanes with a NaN or an infinity in either argument (whose answers
// follow C99's rules per function: hypot(inf, NaN) is inf) get libm's value one by one,
// while the call sees a benign value there.
#define COPPER_VECTOR_MATH_LOOP2(name, isa, I)                                                                 \
  __attribute__((target(isa))) void name(const void* fn, I::T (*scalar)(I::T, I::T), const I::T* a,           \
                                         const I::T* b, I::T* out, std::int64_t n) {                          \
    using T = I::T;                                                                                          \
    using V = I::V;                                                                                          \
    constexpr int lanes = I::lanes;                                                                          \
    const auto f = reinterpret_cast<V (*)(V, V)>(const_cast<void*>(fn));                                    \
    const V benign = I::set1(T(0.5));                                                                        \
    alignas(64) T ta[lanes], tb[lanes], ys[lanes];                                                           \
    for (std::int64_t i = 0; i < n; i += lanes) {                                                            \
      const std::int64_t count = std::min<std::int64_t>(lanes, n - i);                                       \
      if (count < lanes) {                                                                                   \
        std::memcpy(ta, a + i, count * sizeof(T));                                                           \
        std::memcpy(tb, b + i, count * sizeof(T));                                                           \
        std::fill(ta + count, ta + lanes, T(0.5));                                                           \
        std::fill(tb + count, tb + lanes, T(0.5));                                                           \
      }                                                                                                      \
      const V x = I::load(count < lanes ? ta : a + i), z = I::load(count < lanes ? tb : b + i);              \
      const auto finite = I::both(I::finite(x), I::finite(z));                                               \
      V y;                                                                                                   \
      if (I::bits(finite) == I::all) {                                                                       \
        y = f(x, z);                                                                                         \
      } else {                                                                                               \
        I::store(ys, f(I::select(finite, x, benign), I::select(finite, z, benign)));                         \
        I::store(ta, x);                                                                                     \
        I::store(tb, z);                                                                                     \
        for (unsigned rest = I::all & ~I::bits(finite); rest; rest &= rest - 1)                              \
          ys[__builtin_ctz(rest)] = scalar(ta[__builtin_ctz(rest)], tb[__builtin_ctz(rest)]);                \
        y = I::load(ys);                                                                                     \
      }                                                                                                      \
      if (count < lanes) {                                                                                   \
        I::store(ys, y);                                                                                     \
        std::memcpy(out + i, ys, count * sizeof(T));                                                         \
      } else {                                                                                               \
        I::store(out + i, y);                                                                                \
      }                                                                                                      \
    }                                                                                                        \
  }

// Per (ISA, type): registers, masks (ordered comparisons: NaN is never inside) and selects.
#define COPPER_TARGET(isa) __attribute__((target(isa), always_inline)) static inline
struct SseF64 {
  using T = double;
  using V = __m128d;
  static constexpr int lanes = 2;
  static constexpr unsigned all = 0x3;
  COPPER_TARGET("sse2") V load(const T* p) { return _mm_loadu_pd(p); }
  COPPER_TARGET("sse2") void store(T* p, V v) { _mm_storeu_pd(p, v); }
  COPPER_TARGET("sse2") V set1(T v) { return _mm_set1_pd(v); }
  COPPER_TARGET("sse2") V add(V a, V b) { return _mm_add_pd(a, b); }
  COPPER_TARGET("sse2") V finite(V x) { const V z = _mm_sub_pd(x, x); return _mm_cmpord_pd(z, z); }
  COPPER_TARGET("sse2") V both(V m, V k) { return _mm_and_pd(m, k); }
  COPPER_TARGET("sse2") V sub(V a, V b) { return _mm_sub_pd(a, b); }
  COPPER_TARGET("sse2") V finite_outside(V zero, V inside) { return _mm_andnot_pd(inside, _mm_cmpord_pd(zero, zero)); }
  COPPER_TARGET("sse2") V inside(V x, V lo, V hi) { return _mm_and_pd(_mm_cmpge_pd(x, lo), _mm_cmple_pd(x, hi)); }
  COPPER_TARGET("sse2") V nan(V x) { return _mm_cmpunord_pd(x, x); }
  COPPER_TARGET("sse2") unsigned bits(V m) { return static_cast<unsigned>(_mm_movemask_pd(m)); }
  COPPER_TARGET("sse2") V select(V m, V a, V b) { return _mm_or_pd(_mm_and_pd(m, a), _mm_andnot_pd(m, b)); }
};
struct SseF32 {
  using T = float;
  using V = __m128;
  static constexpr int lanes = 4;
  static constexpr unsigned all = 0xf;
  COPPER_TARGET("sse2") V load(const T* p) { return _mm_loadu_ps(p); }
  COPPER_TARGET("sse2") void store(T* p, V v) { _mm_storeu_ps(p, v); }
  COPPER_TARGET("sse2") V set1(T v) { return _mm_set1_ps(v); }
  COPPER_TARGET("sse2") V add(V a, V b) { return _mm_add_ps(a, b); }
  COPPER_TARGET("sse2") V finite(V x) { const V z = _mm_sub_ps(x, x); return _mm_cmpord_ps(z, z); }
  COPPER_TARGET("sse2") V both(V m, V k) { return _mm_and_ps(m, k); }
  COPPER_TARGET("sse2") V sub(V a, V b) { return _mm_sub_ps(a, b); }
  COPPER_TARGET("sse2") V finite_outside(V zero, V inside) { return _mm_andnot_ps(inside, _mm_cmpord_ps(zero, zero)); }
  COPPER_TARGET("sse2") V inside(V x, V lo, V hi) { return _mm_and_ps(_mm_cmpge_ps(x, lo), _mm_cmple_ps(x, hi)); }
  COPPER_TARGET("sse2") V nan(V x) { return _mm_cmpunord_ps(x, x); }
  COPPER_TARGET("sse2") unsigned bits(V m) { return static_cast<unsigned>(_mm_movemask_ps(m)); }
  COPPER_TARGET("sse2") V select(V m, V a, V b) { return _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b)); }
};
struct Avx2F64 {
  using T = double;
  using V = __m256d;
  static constexpr int lanes = 4;
  static constexpr unsigned all = 0xf;
  COPPER_TARGET("avx2,fma") V load(const T* p) { return _mm256_loadu_pd(p); }
  COPPER_TARGET("avx2,fma") void store(T* p, V v) { _mm256_storeu_pd(p, v); }
  COPPER_TARGET("avx2,fma") V set1(T v) { return _mm256_set1_pd(v); }
  COPPER_TARGET("avx2,fma") V add(V a, V b) { return _mm256_add_pd(a, b); }
  COPPER_TARGET("avx2,fma") V finite(V x) { const V z = _mm256_sub_pd(x, x); return _mm256_cmp_pd(z, z, _CMP_ORD_Q); }
  COPPER_TARGET("avx2,fma") V both(V m, V k) { return _mm256_and_pd(m, k); }
  COPPER_TARGET("avx2,fma") V sub(V a, V b) { return _mm256_sub_pd(a, b); }
  COPPER_TARGET("avx2,fma") V finite_outside(V zero, V inside) {
    return _mm256_andnot_pd(inside, _mm256_cmp_pd(zero, zero, _CMP_ORD_Q));
  }
  COPPER_TARGET("avx2,fma") V inside(V x, V lo, V hi) {
    return _mm256_and_pd(_mm256_cmp_pd(x, lo, _CMP_GE_OQ), _mm256_cmp_pd(x, hi, _CMP_LE_OQ));
  }
  COPPER_TARGET("avx2,fma") V nan(V x) { return _mm256_cmp_pd(x, x, _CMP_UNORD_Q); }
  COPPER_TARGET("avx2,fma") unsigned bits(V m) { return static_cast<unsigned>(_mm256_movemask_pd(m)); }
  COPPER_TARGET("avx2,fma") V select(V m, V a, V b) { return _mm256_blendv_pd(b, a, m); }
};
struct Avx2F32 {
  using T = float;
  using V = __m256;
  static constexpr int lanes = 8;
  static constexpr unsigned all = 0xff;
  COPPER_TARGET("avx2,fma") V load(const T* p) { return _mm256_loadu_ps(p); }
  COPPER_TARGET("avx2,fma") void store(T* p, V v) { _mm256_storeu_ps(p, v); }
  COPPER_TARGET("avx2,fma") V set1(T v) { return _mm256_set1_ps(v); }
  COPPER_TARGET("avx2,fma") V add(V a, V b) { return _mm256_add_ps(a, b); }
  COPPER_TARGET("avx2,fma") V finite(V x) { const V z = _mm256_sub_ps(x, x); return _mm256_cmp_ps(z, z, _CMP_ORD_Q); }
  COPPER_TARGET("avx2,fma") V both(V m, V k) { return _mm256_and_ps(m, k); }
  COPPER_TARGET("avx2,fma") V sub(V a, V b) { return _mm256_sub_ps(a, b); }
  COPPER_TARGET("avx2,fma") V finite_outside(V zero, V inside) {
    return _mm256_andnot_ps(inside, _mm256_cmp_ps(zero, zero, _CMP_ORD_Q));
  }
  COPPER_TARGET("avx2,fma") V inside(V x, V lo, V hi) {
    return _mm256_and_ps(_mm256_cmp_ps(x, lo, _CMP_GE_OQ), _mm256_cmp_ps(x, hi, _CMP_LE_OQ));
  }
  COPPER_TARGET("avx2,fma") V nan(V x) { return _mm256_cmp_ps(x, x, _CMP_UNORD_Q); }
  COPPER_TARGET("avx2,fma") unsigned bits(V m) { return static_cast<unsigned>(_mm256_movemask_ps(m)); }
  COPPER_TARGET("avx2,fma") V select(V m, V a, V b) { return _mm256_blendv_ps(b, a, m); }
};
struct Avx512F64 {
  using T = double;
  using V = __m512d;
  static constexpr int lanes = 8;
  static constexpr unsigned all = 0xff;
  COPPER_TARGET("avx512f") V load(const T* p) { return _mm512_loadu_pd(p); }
  COPPER_TARGET("avx512f") void store(T* p, V v) { _mm512_storeu_pd(p, v); }
  COPPER_TARGET("avx512f") V set1(T v) { return _mm512_set1_pd(v); }
  COPPER_TARGET("avx512f") V add(V a, V b) { return _mm512_add_pd(a, b); }
  COPPER_TARGET("avx512f") __mmask8 finite(V x) { const V z = _mm512_sub_pd(x, x); return _mm512_cmp_pd_mask(z, z, _CMP_ORD_Q); }
  COPPER_TARGET("avx512f") __mmask8 both(__mmask8 m, __mmask8 k) { return m & k; }
  COPPER_TARGET("avx512f") V sub(V a, V b) { return _mm512_sub_pd(a, b); }
  COPPER_TARGET("avx512f") __mmask8 finite_outside(V zero, __mmask8 inside) {
    return _mm512_cmp_pd_mask(zero, zero, _CMP_ORD_Q) & static_cast<__mmask8>(~inside);
  }
  COPPER_TARGET("avx512f") __mmask8 inside(V x, V lo, V hi) {
    return _mm512_cmp_pd_mask(x, lo, _CMP_GE_OQ) & _mm512_cmp_pd_mask(x, hi, _CMP_LE_OQ);
  }
  COPPER_TARGET("avx512f") __mmask8 nan(V x) { return _mm512_cmp_pd_mask(x, x, _CMP_UNORD_Q); }
  COPPER_TARGET("avx512f") unsigned bits(__mmask8 m) { return m; }
  COPPER_TARGET("avx512f") V select(__mmask8 m, V a, V b) { return _mm512_mask_blend_pd(m, b, a); }
};
struct Avx512F32 {
  using T = float;
  using V = __m512;
  static constexpr int lanes = 16;
  static constexpr unsigned all = 0xffff;
  COPPER_TARGET("avx512f") V load(const T* p) { return _mm512_loadu_ps(p); }
  COPPER_TARGET("avx512f") void store(T* p, V v) { _mm512_storeu_ps(p, v); }
  COPPER_TARGET("avx512f") V set1(T v) { return _mm512_set1_ps(v); }
  COPPER_TARGET("avx512f") V add(V a, V b) { return _mm512_add_ps(a, b); }
  COPPER_TARGET("avx512f") __mmask16 finite(V x) { const V z = _mm512_sub_ps(x, x); return _mm512_cmp_ps_mask(z, z, _CMP_ORD_Q); }
  COPPER_TARGET("avx512f") __mmask16 both(__mmask16 m, __mmask16 k) { return m & k; }
  COPPER_TARGET("avx512f") V sub(V a, V b) { return _mm512_sub_ps(a, b); }
  COPPER_TARGET("avx512f") __mmask16 finite_outside(V zero, __mmask16 inside) {
    return _mm512_cmp_ps_mask(zero, zero, _CMP_ORD_Q) & static_cast<__mmask16>(~inside);
  }
  COPPER_TARGET("avx512f") __mmask16 inside(V x, V lo, V hi) {
    return _mm512_cmp_ps_mask(x, lo, _CMP_GE_OQ) & _mm512_cmp_ps_mask(x, hi, _CMP_LE_OQ);
  }
  COPPER_TARGET("avx512f") __mmask16 nan(V x) { return _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q); }
  COPPER_TARGET("avx512f") unsigned bits(__mmask16 m) { return m; }
  COPPER_TARGET("avx512f") V select(__mmask16 m, V a, V b) { return _mm512_mask_blend_ps(m, b, a); }
};
#undef COPPER_TARGET

COPPER_VECTOR_MATH_LOOP(loop_sse_f64, "sse2", SseF64)
COPPER_VECTOR_MATH_LOOP(loop_sse_f32, "sse2", SseF32)
COPPER_VECTOR_MATH_LOOP(loop_avx2_f64, "avx2,fma", Avx2F64)
COPPER_VECTOR_MATH_LOOP(loop_avx2_f32, "avx2,fma", Avx2F32)
COPPER_VECTOR_MATH_LOOP(loop_avx512_f64, "avx512f", Avx512F64)
COPPER_VECTOR_MATH_LOOP(loop_avx512_f32, "avx512f", Avx512F32)
#undef COPPER_VECTOR_MATH_LOOP
COPPER_VECTOR_MATH_LOOP2(loop2_sse_f64, "sse2", SseF64)
COPPER_VECTOR_MATH_LOOP2(loop2_sse_f32, "sse2", SseF32)
COPPER_VECTOR_MATH_LOOP2(loop2_avx2_f64, "avx2,fma", Avx2F64)
COPPER_VECTOR_MATH_LOOP2(loop2_avx2_f32, "avx2,fma", Avx2F32)
COPPER_VECTOR_MATH_LOOP2(loop2_avx512_f64, "avx512f", Avx512F64)
COPPER_VECTOR_MATH_LOOP2(loop2_avx512_f32, "avx512f", Avx512F32)
#undef COPPER_VECTOR_MATH_LOOP2

// The rounding functions, with libmvec's calling convention (registers in, register out):
// floor, ceil, trunc, then rint in the current rounding mode, as libm's rint.
#define COPPER_ROUNDING(isa, suffix, V, round)                                                          \
  __attribute__((target(isa))) V floor_##suffix(V x) { return round(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); } \
  __attribute__((target(isa))) V ceil_##suffix(V x) { return round(x, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC); } \
  __attribute__((target(isa))) V trunc_##suffix(V x) { return round(x, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC); }  \
  __attribute__((target(isa))) V rint_##suffix(V x) { return round(x, _MM_FROUND_CUR_DIRECTION); }
COPPER_ROUNDING("sse4.1", sse_f64, __m128d, _mm_round_pd)
COPPER_ROUNDING("sse4.1", sse_f32, __m128, _mm_round_ps)
COPPER_ROUNDING("avx2,fma", avx2_f64, __m256d, _mm256_round_pd)
COPPER_ROUNDING("avx2,fma", avx2_f32, __m256, _mm256_round_ps)
// (The masked forms: GCC 12's unmasked ones warn about their own undefined source.)
#define COPPER_ROUNDSCALE_PD(x, imm) _mm512_mask_roundscale_pd(x, static_cast<__mmask8>(0xff), x, imm)
#define COPPER_ROUNDSCALE_PS(x, imm) _mm512_mask_roundscale_ps(x, static_cast<__mmask16>(0xffff), x, imm)
COPPER_ROUNDING("avx512f", avx512_f64, __m512d, COPPER_ROUNDSCALE_PD)
COPPER_ROUNDING("avx512f", avx512_f32, __m512, COPPER_ROUNDSCALE_PS)
#undef COPPER_ROUNDSCALE_PD
#undef COPPER_ROUNDSCALE_PS
#undef COPPER_ROUNDING
constexpr int kNumRounding = num_fns - num_libmvec_fns;
#define COPPER_ROUNDING_FNS(suffix) \
  {reinterpret_cast<const void*>(&floor_##suffix), reinterpret_cast<const void*>(&ceil_##suffix), \
   reinterpret_cast<const void*>(&trunc_##suffix), reinterpret_cast<const void*>(&rint_##suffix)}
const void* const kRounding64[kNumIsas][kNumRounding] = {
    {}, COPPER_ROUNDING_FNS(sse_f64), COPPER_ROUNDING_FNS(avx2_f64), COPPER_ROUNDING_FNS(avx512_f64)};
const void* const kRounding32[kNumIsas][kNumRounding] = {
    {}, COPPER_ROUNDING_FNS(sse_f32), COPPER_ROUNDING_FNS(avx2_f32), COPPER_ROUNDING_FNS(avx512_f32)};
#undef COPPER_ROUNDING_FNS

// float16 <-> float32 by the processor (vcvtph2ps / vcvtps2ph, rounding to nearest even),
// whole registers and then a padded tail.
using HalfToFloat = void (*)(const std::uint16_t* in, float* out, std::int64_t n);
using FloatToHalf = void (*)(const float* in, std::uint16_t* out, std::int64_t n);
#define COPPER_HALF_CONVERSIONS(isa, suffix, lanes, HV, FV, load_h, store_h, load_f, store_f, widen, narrow) \
  __attribute__((target(isa))) void halves_to_floats_##suffix(const std::uint16_t* in, float* out, std::int64_t n) { \
    std::int64_t i = 0;                                                                                     \
    for (; i + lanes <= n; i += lanes) store_f(out + i, widen(load_h(reinterpret_cast<const HV*>(in + i)))); \
    if (i < n) {                                                                                            \
      alignas(64) std::uint16_t h[lanes] = {};                                                              \
      alignas(64) float f[lanes];                                                                           \
      std::memcpy(h, in + i, (n - i) * sizeof(std::uint16_t));                                              \
      store_f(f, widen(load_h(reinterpret_cast<const HV*>(h))));                                            \
      std::memcpy(out + i, f, (n - i) * sizeof(float));                                                     \
    }                                                                                                       \
  }                                                                                                         \
  __attribute__((target(isa))) void floats_to_halves_##suffix(const float* in, std::uint16_t* out, std::int64_t n) { \
    std::int64_t i = 0;                                                                                     \
    for (; i + lanes <= n; i += lanes) store_h(reinterpret_cast<HV*>(out + i), narrow(load_f(in + i)));     \
    if (i < n) {                                                                                            \
      alignas(64) float f[lanes] = {};                                                                      \
      alignas(64) std::uint16_t h[lanes];                                                                   \
      std::memcpy(f, in + i, (n - i) * sizeof(float));                                                      \
      store_h(reinterpret_cast<HV*>(h), narrow(load_f(f)));                                                 \
      std::memcpy(out + i, h, (n - i) * sizeof(std::uint16_t));                                             \
    }                                                                                                       \
  }
#define COPPER_NARROW_256(x) _mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
// (The masked AVX-512 forms: GCC 12's unmasked ones warn about their own undefined source.)
#define COPPER_NARROW_512(x) \
  _mm512_mask_cvtps_ph(_mm256_setzero_si256(), static_cast<__mmask16>(0xffff), x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#define COPPER_WIDEN_512(x) _mm512_mask_cvtph_ps(_mm512_setzero_ps(), static_cast<__mmask16>(0xffff), x)
COPPER_HALF_CONVERSIONS("avx2,fma,f16c", avx2, 8, __m128i, __m256, _mm_loadu_si128, _mm_storeu_si128,
                        _mm256_loadu_ps, _mm256_storeu_ps, _mm256_cvtph_ps, COPPER_NARROW_256)
COPPER_HALF_CONVERSIONS("avx512f", avx512, 16, __m256i, __m512, _mm256_loadu_si256, _mm256_storeu_si256,
                        _mm512_loadu_ps, _mm512_storeu_ps, COPPER_WIDEN_512, COPPER_NARROW_512)
#undef COPPER_NARROW_256
#undef COPPER_NARROW_512
#undef COPPER_WIDEN_512
#undef COPPER_HALF_CONVERSIONS
constexpr HalfToFloat kHalfToFloat[kNumIsas] = {nullptr, nullptr, halves_to_floats_avx2, halves_to_floats_avx512};
constexpr FloatToHalf kFloatToHalf[kNumIsas] = {nullptr, nullptr, floats_to_halves_avx2, floats_to_halves_avx512};

constexpr Loop64 kLoops64[kNumIsas] = {nullptr, loop_sse_f64, loop_avx2_f64, loop_avx512_f64};
constexpr Loop32 kLoops32[kNumIsas] = {nullptr, loop_sse_f32, loop_avx2_f32, loop_avx512_f32};
constexpr Loop2_64 kLoops2_64[kNumIsas] = {nullptr, loop2_sse_f64, loop2_avx2_f64, loop2_avx512_f64};
constexpr Loop2_32 kLoops2_32[kNumIsas] = {nullptr, loop2_sse_f32, loop2_avx2_f32, loop2_avx512_f32};
// The vector ABI's letter and lane counts (double, float) per ISA.
constexpr char kLetter[kNumIsas] = {0, 'b', 'd', 'e'};
constexpr int kLanes64[kNumIsas] = {0, 2, 4, 8};

bool cpu_runs(Isa isa) {
  switch (isa) {
    case Isa::sse: return true;  // SSE2 is baseline x86-64
    case Isa::avx2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case Isa::avx512: return __builtin_cpu_supports("avx512f");
    default: return false;
  }
}
#else
constexpr Loop64 kLoops64[kNumIsas] = {};
constexpr Loop32 kLoops32[kNumIsas] = {};
using HalfToFloat = void (*)(const std::uint16_t* in, float* out, std::int64_t n);
using FloatToHalf = void (*)(const float* in, std::uint16_t* out, std::int64_t n);
constexpr HalfToFloat kHalfToFloat[kNumIsas] = {};
constexpr FloatToHalf kFloatToHalf[kNumIsas] = {};
constexpr Loop2_64 kLoops2_64[kNumIsas] = {};
constexpr Loop2_32 kLoops2_32[kNumIsas] = {};
[[maybe_unused]] bool cpu_runs(Isa) { return false; }
#endif

struct Table {
  // fn64[isa][f], fn32[isa][f]: libmvec's function (or copper's rounding), or null where it has none.
  const void* fn64[kNumIsas][num_fns] = {};
  const void* fn32[kNumIsas][num_fns] = {};
  const void* fn2_64[kNumIsas][num_fns2] = {};
  const void* fn2_32[kNumIsas][num_fns2] = {};
  bool loaded[kNumIsas] = {};
  bool halves[kNumIsas] = {};  // the processor converts float16 at this ISA
  Isa active = Isa::none;
  std::array<Lanes<double>, num_fns> lanes64;
  std::array<Lanes<float>, num_fns> lanes32;
};

Isa cap_from_env() {
  const char* env = std::getenv("COPPER_CPU_VECTOR_MATH");
  if (!env || !*env) return Isa::avx512;
  const std::string v = env;
  if (v == "off" || v == "0" || v == "none") return Isa::none;
  if (v == "sse") return Isa::sse;
  if (v == "avx2") return Isa::avx2;
  return Isa::avx512;  // "avx512", "on", anything else: no cap
}

const Table& table() {
  static const Table t = [] {
    Table t;
    for (int f = 0; f < num_fns; ++f) {
      t.lanes64[f] = lanes_for(kDomains[f], kScalar64[f]);
      t.lanes32[f] = lanes_for(kDomains[f], kScalar32[f]);
    }
#ifdef COPPER_VECTOR_MATH_X86
    // libmvec ships with glibc on x86-64 (GLIBC_2.22: exp, log, sin, cos; 2.35: the rest);
    // a missing library or symbol leaves that entry to libm.
    void* lib = dlopen("libmvec.so.1", RTLD_NOW | RTLD_LOCAL);
    for (int isa = 1; isa < kNumIsas; ++isa) {
      if (!cpu_runs(static_cast<Isa>(isa))) continue;
      // _ZGV<isa>N<lanes><v per argument>_<name>, the float form with twice the lanes.
      auto symbol = [&](bool single, const char* args, const char* name) -> const void* {
        const std::string sym = "_ZGV" + std::string(1, kLetter[isa]) + "N" +
                                std::to_string(kLanes64[isa] * (single ? 2 : 1)) + args + "_" + name + (single ? "f" : "");
        return lib ? dlsym(lib, sym.c_str()) : nullptr;
      };
      bool any = false;
      for (int f = 0; f < num_libmvec_fns; ++f) {
        t.fn64[isa][f] = symbol(false, "v", kNames[f]);
        t.fn32[isa][f] = symbol(true, "v", kNames[f]);
        any = any || t.fn64[isa][f] || t.fn32[isa][f];
      }
      for (int f = 0; f < num_fns2; ++f) {
        t.fn2_64[isa][f] = symbol(false, "vv", kNames2[f]);
        t.fn2_32[isa][f] = symbol(true, "vv", kNames2[f]);
      }
      t.loaded[isa] = any;
      t.halves[isa] = isa == static_cast<int>(Isa::avx512) ||
                      (isa == static_cast<int>(Isa::avx2) && __builtin_cpu_supports("f16c"));
      // Rounding needs SSE4.1 at the SSE level; it needs no libmvec.
      if (isa != static_cast<int>(Isa::sse) || __builtin_cpu_supports("sse4.1"))
        for (int j = 0; j < kNumRounding; ++j) {
          t.fn64[isa][num_libmvec_fns + j] = kRounding64[isa][j];
          t.fn32[isa][num_libmvec_fns + j] = kRounding32[isa][j];
          t.loaded[isa] = true;
        }
    }
    const Isa cap = cap_from_env();
    for (int isa = static_cast<int>(cap); isa > 0; --isa)
      if (t.loaded[isa]) {
        t.active = static_cast<Isa>(isa);
        break;
      }
#endif
    return t;
  }();
  return t;
}

}  // namespace

const char* isa_name(Isa isa) {
  switch (isa) {
    case Isa::sse: return "sse";
    case Isa::avx2: return "avx2";
    case Isa::avx512: return "avx512";
    default: return "off";
  }
}

Isa active_isa() { return table().active; }

bool runs(Isa isa) { return isa != Isa::none && table().loaded[static_cast<int>(isa)]; }

bool apply(Isa isa, Fn f, const double* in, double* out, std::int64_t n) {
  const void* fn = runs(isa) ? table().fn64[static_cast<int>(isa)][static_cast<int>(f)] : nullptr;
  if (!fn) return false;
  kLoops64[static_cast<int>(isa)](fn, table().lanes64[static_cast<int>(f)], in, out, n);
  return true;
}

bool apply(Isa isa, Fn f, const float* in, float* out, std::int64_t n) {
  const void* fn = runs(isa) ? table().fn32[static_cast<int>(isa)][static_cast<int>(f)] : nullptr;
  if (!fn) return false;
  kLoops32[static_cast<int>(isa)](fn, table().lanes32[static_cast<int>(f)], in, out, n);
  return true;
}

namespace {

#ifdef COPPER_VECTOR_MATH_X86
#define COPPER_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define COPPER_VECTOR_CLONES
#endif

// A block of a double pow for libmvec, in two passes without branches, so that they
// vectorize (GCC: one clone per ISA).
//
// pow_flags: flags[i] says which lanes take libm's value: where the power can be a double,
// which libm's pow returns exactly and libmvec's may not (vector_math.h), and non-positive
// or non-finite bases. kLibm lanes always do; kIfSquare lanes (a positive base to a
// fractional power that may be exact) where pow_is_square says so.
//  - x ** n for an integer n >= 2 needs n times the significant bits of x, so only an x of
//    at most 27 bits can give a double; x ** -n only a power of two; x ** 0 and x ** 1 always.
//  - x ** (p / 2**j), p odd, is a double only where x is the 2**j-th power of one, so a
//    perfect square (and for j > 6 a power of two, 3 ** 128 having more than 53 bits: only
//    those of an even exponent, squares too).
// Also counts the kLibm lanes, the lanes of either flag and the negative bases.
enum : std::uint64_t { kVector = 0, kLibm = 1, kIfSquare = 2 };
struct PowLanes {
  std::uint64_t libm = 0, flagged = 0, negative = 0;
};
constexpr std::uint64_t kFraction = (std::uint64_t{1} << 52) - 1, kExponent = std::uint64_t{0x7ff} << 52;
constexpr std::uint64_t kSign = std::uint64_t{1} << 63;
constexpr double kMaxDouble = 1.7976931348623157e308;

// Whether a (>= 0, or NaN: false) is an integer: adding and removing 2**52 leaves it, below 2**52.
inline bool integral(double a) { return (a >= 0x1p52) | ((a + 0x1p52) - 0x1p52 == a); }

COPPER_VECTOR_CLONES PowLanes pow_flags(const double* a, const double* b, std::uint64_t* flags, std::int64_t m) {
  constexpr std::uint64_t low26 = (std::uint64_t{1} << 26) - 1;  // all zero: at most 27 significant bits
  std::uint64_t libm = 0, flagged = 0, negative = 0;
  for (std::int64_t i = 0; i < m; ++i) {
    const double x = a[i], y = b[i];
    const auto u = std::bit_cast<std::uint64_t>(x);
    const double ay = std::fabs(y);
    const bool y_integer = integral(ay), y_64ths = integral(ay * 64);
    const bool x_finite = (u & kExponent) != kExponent;
    const bool power_of_two = ((u & kFraction) == 0) | ((u & kExponent) == 0);  // or zero, or subnormal
    const bool short_x = (u & low26) == 0;
    // Zero and non-finite bases are libm's; a negative base to a finite fractional power is
    // libm's NaN, which pow_signs writes, and to a NaN power libm's.
    const bool always = (!x_finite) | (y_integer & (power_of_two | (y == 0) | (y == 1) | short_x)) |
                        ((!y_integer) & (((x < 0) & !(ay <= kMaxDouble)) | (x == 0)));
    const bool if_square = (!always) & (!y_integer) & (x > 0) & (power_of_two | y_64ths);
    flags[i] = always ? kLibm : if_square ? kIfSquare : kVector;
    libm += always;
    flagged += always | if_square;
    negative += x < 0;
  }
  return {libm, flagged, negative};
}

// pow_signs, for a block with negative bases, which libmvec computes lane by lane in scalar
// code, slower than libm: it sees bases[i] = |x|, and fix[i] turns its result into x's: the
// sign bit of a negative base's odd integer power ((-x) ** n is exactly (-1) ** n * x ** n);
// for a negative base to a finite fractional power the base is 1, whose power libmvec gives
// as exactly 1.0, and fix[i] the bits that turn 1.0 into libm's NaN for such a power.
COPPER_VECTOR_CLONES void pow_signs(const double* a, const double* b, std::uint64_t nan_bits, double* bases,
                                    std::uint64_t* fix, std::int64_t m) {
  constexpr std::uint64_t one = std::bit_cast<std::uint64_t>(1.0);
  const std::uint64_t one_to_nan = one ^ nan_bits;
  for (std::int64_t i = 0; i < m; ++i) {
    const double x = a[i], ay = std::fabs(b[i]);
    const auto u = std::bit_cast<std::uint64_t>(x);
    const bool y_integer = integral(ay), y_odd = y_integer & (ay < 0x1p53) & !integral(ay * 0.5);
    const bool domain_error = (x < 0) & ((u & kExponent) != kExponent) & (ay <= kMaxDouble) & !y_integer;
    // Masks rather than conditionals, which GCC leaves as branches here.
    const std::uint64_t error_mask = std::uint64_t{0} - domain_error;
    bases[i] = std::bit_cast<double>((one & error_mask) | (u & ~kSign & ~error_mask));
    fix[i] = (one_to_nan & error_mask) | (static_cast<std::uint64_t>((x < 0) & y_odd) << 63);
  }
}

// Whether x is the square of a double (x >= 0): then x ** (p / 2**j) may be a double.
bool pow_is_square(double x) {
  const double s = std::sqrt(x);
  return std::fma(s, s, -x) == 0;
}

}  // namespace

bool apply(Isa isa, Fn2 f, const double* a, const double* b, double* out, std::int64_t n) {
  const void* fn = runs(isa) ? table().fn2_64[static_cast<int>(isa)][static_cast<int>(f)] : nullptr;
  if (!fn) return false;
  if (f != Fn2::pow) {
    kLoops2_64[static_cast<int>(isa)](fn, kScalar2_64[static_cast<int>(f)], a, b, out, n);
    return true;
  }
  // pow: per block into a buffer (out may be an input), libmvec (over pow_signs' bases where
  // some are negative), then libm for the lanes pow_flags picked. A block of kLibm lanes only
  // (integer data to an integer power) is libm's alone.
  constexpr std::int64_t block = 256;
  static const std::uint64_t nan_bits = std::bit_cast<std::uint64_t>(::pow(-1.5, 0.5));
  alignas(64) double y[block], bases[block];
  alignas(64) std::uint64_t flags[block], fix[block];
  for (std::int64_t start = 0; start < n; start += block) {
    const std::int64_t m = std::min(block, n - start);
    const double *x = a + start, *z = b + start;
    const PowLanes lanes = pow_flags(x, z, flags, m);
    if (lanes.libm == static_cast<std::uint64_t>(m)) {
      for (std::int64_t i = 0; i < m; ++i) y[i] = ::pow(x[i], z[i]);
    } else {
      if (lanes.negative) pow_signs(x, z, nan_bits, bases, fix, m);
      kLoops2_64[static_cast<int>(isa)](fn, ::pow, lanes.negative ? bases : x, z, y, m);
      if (lanes.negative)
        for (std::int64_t i = 0; i < m; ++i) y[i] = std::bit_cast<double>(std::bit_cast<std::uint64_t>(y[i]) ^ fix[i]);
      if (lanes.flagged)
        for (std::int64_t i = 0; i < m; ++i)
          if (flags[i] == kLibm || (flags[i] == kIfSquare && pow_is_square(x[i]))) y[i] = ::pow(x[i], z[i]);
    }
    std::memcpy(out + start, y, static_cast<std::size_t>(m) * sizeof(double));
  }
  return true;
}

bool apply(Isa isa, Fn2 f, const float* a, const float* b, float* out, std::int64_t n) {
  const void* fn = runs(isa) ? table().fn2_32[static_cast<int>(isa)][static_cast<int>(f)] : nullptr;
  if (!fn) return false;
  kLoops2_32[static_cast<int>(isa)](fn, kScalar2_32[static_cast<int>(f)], a, b, out, n);
  return true;
}

bool apply(Isa isa, Fn f, const std::uint16_t* in, std::uint16_t* out, std::int64_t n) {
  if (!runs(isa) || !table().halves[static_cast<int>(isa)] || !table().fn32[static_cast<int>(isa)][static_cast<int>(f)])
    return false;
  constexpr std::int64_t block = 256;
  alignas(64) float buf[block];
  for (std::int64_t start = 0; start < n; start += block) {
    const std::int64_t m = std::min(block, n - start);
    kHalfToFloat[static_cast<int>(isa)](in + start, buf, m);
    apply(isa, f, buf, buf, m);
    kFloatToHalf[static_cast<int>(isa)](buf, out + start, m);
  }
  return true;
}

bool apply(Fn f, const double* in, double* out, std::int64_t n) { return apply(active_isa(), f, in, out, n); }
bool apply(Fn f, const float* in, float* out, std::int64_t n) { return apply(active_isa(), f, in, out, n); }
bool apply(Fn f, const std::uint16_t* in, std::uint16_t* out, std::int64_t n) {
  return apply(active_isa(), f, in, out, n);
}
bool apply(Fn2 f, const double* a, const double* b, double* out, std::int64_t n) {
  return apply(active_isa(), f, a, b, out, n);
}
bool apply(Fn2 f, const float* a, const float* b, float* out, std::int64_t n) {
  return apply(active_isa(), f, a, b, out, n);
}

namespace {
template <class T> bool any_non_finite_from_non_nan_scalar(const T* y, const T* x, std::int64_t n) {
  bool any = false;
  for (std::int64_t i = 0; i < n; ++i) any |= ((y[i] - y[i]) != (y[i] - y[i])) & (x[i] == x[i]);
  return any;
}
}  // namespace

// y - y is NaN exactly where y is infinite or NaN; x is unordered with itself exactly where
// it is NaN. (GCC does not vectorize the plain loop: it mixes double compares with an
// integer reduction.)
bool any_non_finite_from_non_nan(const double* y, const double* x, std::int64_t n) {
  std::int64_t i = 0;
#ifdef COPPER_VECTOR_MATH_X86
  __m128d acc = _mm_setzero_pd();
  for (; i + 2 <= n; i += 2) {
    const __m128d d = _mm_sub_pd(_mm_loadu_pd(y + i), _mm_loadu_pd(y + i));
    const __m128d v = _mm_loadu_pd(x + i);
    acc = _mm_or_pd(acc, _mm_andnot_pd(_mm_cmpunord_pd(v, v), _mm_cmpunord_pd(d, d)));
  }
  if (_mm_movemask_pd(acc) != 0) return true;
#endif
  return any_non_finite_from_non_nan_scalar(y + i, x + i, n - i);
}

bool any_non_finite_from_non_nan(const float* y, const float* x, std::int64_t n) {
  std::int64_t i = 0;
#ifdef COPPER_VECTOR_MATH_X86
  __m128 acc = _mm_setzero_ps();
  for (; i + 4 <= n; i += 4) {
    const __m128 d = _mm_sub_ps(_mm_loadu_ps(y + i), _mm_loadu_ps(y + i));
    const __m128 v = _mm_loadu_ps(x + i);
    acc = _mm_or_ps(acc, _mm_andnot_ps(_mm_cmpunord_ps(v, v), _mm_cmpunord_ps(d, d)));
  }
  if (_mm_movemask_ps(acc) != 0) return true;
#endif
  return any_non_finite_from_non_nan_scalar(y + i, x + i, n - i);
}

}  // namespace copper::backend::cpu::vector_math
