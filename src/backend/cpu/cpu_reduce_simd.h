// max and min of a contiguous float32/float64 run with SSE2 intrinsics. For the baseline
// x86-64 target GCC does not vectorize their NaN-propagating select, so the generic lanes
// ran one element at a time (max of 1e7 float32: 9x NumPy's time). Eight lanes keep the
// running maximum (maxps/maxpd ignore which operand is NaN), a second mask records whether
// any element was NaN, and then the run's first NaN is the result: NumPy's max and min
// propagate NaN, and the run's first NaN in memory is a deterministic choice. The outer
// layout's row combine (extremum_rows) uses the same instructions.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#define COPPER_HAVE_SSE2_EXTREMUM 1

namespace copper::backend::cpu::reduce_simd {

template <class T> struct Sse;
template <> struct Sse<float> {
  using V = __m128;
  static constexpr int lanes = 4;
  static V load(const float* p) { return _mm_loadu_ps(p); }
  static V splat(float x) { return _mm_set1_ps(x); }
  static V max(V a, V b) { return _mm_max_ps(a, b); }
  static V min(V a, V b) { return _mm_min_ps(a, b); }
  static V equal(V a, V b) { return _mm_cmpeq_ps(a, b); }
  static V unordered(V a) { return _mm_cmpunord_ps(a, a); }
  static V either(V a, V b) { return _mm_or_ps(a, b); }
  static V select(V mask, V yes, V no) { return _mm_or_ps(_mm_and_ps(mask, yes), _mm_andnot_ps(mask, no)); }
  static bool any(V m) { return _mm_movemask_ps(m) != 0; }
  static void store(float* p, V a) { _mm_storeu_ps(p, a); }
};
template <> struct Sse<double> {
  using V = __m128d;
  static constexpr int lanes = 2;
  static V load(const double* p) { return _mm_loadu_pd(p); }
  static V splat(double x) { return _mm_set1_pd(x); }
  static V max(V a, V b) { return _mm_max_pd(a, b); }
  static V min(V a, V b) { return _mm_min_pd(a, b); }
  static V equal(V a, V b) { return _mm_cmpeq_pd(a, b); }
  static V unordered(V a) { return _mm_cmpunord_pd(a, a); }
  static V either(V a, V b) { return _mm_or_pd(a, b); }
  static V select(V mask, V yes, V no) { return _mm_or_pd(_mm_and_pd(mask, yes), _mm_andnot_pd(mask, no)); }
  static bool any(V m) { return _mm_movemask_pd(m) != 0; }
  static void store(double* p, V a) { _mm_storeu_pd(p, a); }
};

// max (IsMax) or min of p[0, n), n >= 1. Between equal values (+0.0 and -0.0) the later
// one wins, as in the scalar combine ((a > b) | isnan(a) ? a : b with b the later).
template <bool IsMax, class T>
T extremum_run(const T* p, std::int64_t n) {
  using S = Sse<T>;
  using V = typename S::V;
  constexpr int kRegs = 8 / S::lanes;  // eight lanes, as the generic loop has
  auto pick = [](T a, T b) { return IsMax ? (a > b ? a : b) : (a < b ? a : b); };
  std::int64_t i = 0;
  T best = p[0];
  bool nan = p[0] != p[0];
  if (n >= 8) {
    V acc[kRegs], seen[kRegs];
    for (int r = 0; r < kRegs; ++r) {
      acc[r] = S::load(p + r * S::lanes);
      seen[r] = S::unordered(acc[r]);
    }
    for (i = 8; i + 8 <= n; i += 8) {
      for (int r = 0; r < kRegs; ++r) {
        const V x = S::load(p + i + r * S::lanes);
        acc[r] = IsMax ? S::max(acc[r], x) : S::min(acc[r], x);
        seen[r] = S::either(seen[r], S::unordered(x));
      }
    }
    V any_nan = seen[0];
    for (int r = 1; r < kRegs; ++r) any_nan = S::either(any_nan, seen[r]);
    nan = S::any(any_nan);
    alignas(16) T lanes[8];
    for (int r = 0; r < kRegs; ++r) S::store(lanes + r * S::lanes, acc[r]);
    best = lanes[0];
    for (int k = 1; k < 8; ++k) best = pick(best, lanes[k]);
  } else {
    i = 1;
  }
  for (; i < n; ++i) {
    nan = nan || p[i] != p[i];
    best = pick(best, p[i]);
  }
  if (nan)
    for (std::int64_t k = 0; k < n; ++k)
      if (p[k] != p[k]) return p[k];
  return best;
}

// acc[j] = max(acc[j], x[j]) (or min) for j < w, as the scalar combine does it: a NaN in
// acc stays, else a NaN in x comes in, else the larger (the later, x, when equal).
template <bool IsMax, class T>
void extremum_rows(T* acc, const T* x, std::int64_t w) {
  using S = Sse<T>;
  using V = typename S::V;
  std::int64_t j = 0;
  for (; j + S::lanes <= w; j += S::lanes) {
    const V a = S::load(acc + j), b = S::load(x + j);
    const V r = IsMax ? S::max(a, b) : S::min(a, b);  // b when equal or unordered
    S::store(acc + j, S::select(S::unordered(a), a, r));
  }
  for (; j < w; ++j) {
    const T a = acc[j], b = x[j];
    acc[j] = ((IsMax ? a > b : a < b) || a != a) ? a : b;
  }
}

// The first i < n with p[i] == m, or with p[i] NaN when m is NaN (argmax and argmin's
// second pass, after extremum_run found m in the run); n when there is none.
template <class T>
std::int64_t first_index_of(const T* p, std::int64_t n, T m) {
  using S = Sse<T>;
  using V = typename S::V;
  const bool nan = m != m;
  const V target = S::splat(m);
  auto matches = [&](const T* q) { return nan ? S::unordered(S::load(q)) : S::equal(S::load(q), target); };
  std::int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    V hit = matches(p + i);
    for (int r = 1; r < 8 / S::lanes; ++r) hit = S::either(hit, matches(p + i + r * S::lanes));
    if (S::any(hit)) break;
  }
  for (; i < n; ++i)
    if (nan ? p[i] != p[i] : p[i] == m) return i;
  return n;
}

// The first i < n with p[i] == m for 4-byte integers (argmax and argmin's second pass);
// n when there is none.
template <class T>
std::int64_t first_index_of_int32(const T* p, std::int64_t n, T m) {
  static_assert(sizeof(T) == 4);
  const __m128i target = _mm_set1_epi32(static_cast<int>(m));
  std::int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 4));
    if (_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi32(a, target), _mm_cmpeq_epi32(b, target))) != 0) break;
  }
  for (; i < n; ++i)
    if (p[i] == m) return i;
  return n;
}

// How many of n bytes are nonzero (a bool run's sum: a bool is true when its byte is
// nonzero). Integer sums are compiled without loop vectorization (a GCC 12 miscompile, see
// cpu_reduce_kernels.h), which left a bool count at a byte a cycle, half NumPy's speed.
// Here 16 bytes at a time are compared with zero and the zero bytes counted in byte lanes
// (at most 255 rounds before a lane could wrap), folded into 64 bits by psadbw.
inline std::int64_t count_nonzero_bytes(const std::uint8_t* p, std::int64_t n) {
  const __m128i zero = _mm_setzero_si128();
  std::int64_t zeros = 0, i = 0;
  while (n - i >= 32) {
    const std::int64_t rounds = std::min<std::int64_t>((n - i) / 32, 255);
    __m128i a = zero, b = zero;  // two accumulators: two loads in flight
    for (std::int64_t r = 0; r < rounds; ++r, i += 32) {
      a = _mm_sub_epi8(a, _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i)), zero));
      b = _mm_sub_epi8(b, _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 16)), zero));
    }
    const __m128i s = _mm_add_epi64(_mm_sad_epu8(a, zero), _mm_sad_epu8(b, zero));
    zeros += _mm_cvtsi128_si64(s) + _mm_cvtsi128_si64(_mm_unpackhi_epi64(s, s));
  }
  std::int64_t nonzero = i - zeros;
  for (; i < n; ++i) nonzero += p[i] != 0;
  return nonzero;
}

// Whether the n bytes at p, contiguous elements of T, hold an element that is nonzero
// (Nonzero, for any) or zero (!Nonzero, for all). T: a 1, 2, 4 or 8-byte integer (bool
// included: nonzero is true), float or double; NaN is nonzero and -0.0 zero, as NumPy's
// truth. n is a multiple of 64. GCC did not vectorize the generic loop (a float64 any() of
// zeros ran at 5 times NumPy's time).
template <class T, bool Nonzero>
bool has_truth(const unsigned char* p, std::int64_t n) {
  const __m128i zero = _mm_setzero_si128();
  __m128i hit = zero;
  for (std::int64_t i = 0; i < n; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    if constexpr (std::is_same_v<T, float>) {
      const __m128 f = _mm_castsi128_ps(v);
      hit = _mm_or_si128(hit, _mm_castps_si128(Nonzero ? _mm_cmpneq_ps(f, _mm_setzero_ps()) : _mm_cmpeq_ps(f, _mm_setzero_ps())));
    } else if constexpr (std::is_same_v<T, double>) {
      const __m128d f = _mm_castsi128_pd(v);
      hit = _mm_or_si128(hit, _mm_castpd_si128(Nonzero ? _mm_cmpneq_pd(f, _mm_setzero_pd()) : _mm_cmpeq_pd(f, _mm_setzero_pd())));
    } else if constexpr (Nonzero) {
      hit = _mm_or_si128(hit, v);  // some byte nonzero: some element nonzero, at any width
    } else if constexpr (sizeof(T) == 1) {
      hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, zero));
    } else if constexpr (sizeof(T) == 2) {
      hit = _mm_or_si128(hit, _mm_cmpeq_epi16(v, zero));
    } else if constexpr (sizeof(T) == 4) {
      hit = _mm_or_si128(hit, _mm_cmpeq_epi32(v, zero));
    } else {
      const __m128i halves = _mm_cmpeq_epi32(v, zero);  // an 8-byte zero: both of its halves
      hit = _mm_or_si128(hit, _mm_and_si128(halves, _mm_shuffle_epi32(halves, _MM_SHUFFLE(2, 3, 0, 1))));
    }
  }
  return _mm_movemask_epi8(_mm_cmpeq_epi8(hit, zero)) != 0xFFFF;
}

// The wrapping (modular) sum of n 64-bit integers: exact in any order, so four vector
// accumulators of two lanes each. Integer sums are compiled without loop vectorization (a
// GCC 12 miscompile, see cpu_reduce_kernels.h), which left an int64 sum at 1.3x NumPy's time.
inline std::uint64_t sum_64bit(const unsigned char* p, std::int64_t n) {
  __m128i a = _mm_setzero_si128(), b = a, c = a, d = a;
  std::int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const auto* q = reinterpret_cast<const __m128i*>(p + i * 8);
    a = _mm_add_epi64(a, _mm_loadu_si128(q));
    b = _mm_add_epi64(b, _mm_loadu_si128(q + 1));
    c = _mm_add_epi64(c, _mm_loadu_si128(q + 2));
    d = _mm_add_epi64(d, _mm_loadu_si128(q + 3));
  }
  const __m128i s = _mm_add_epi64(_mm_add_epi64(a, b), _mm_add_epi64(c, d));
  std::uint64_t total = static_cast<std::uint64_t>(_mm_cvtsi128_si64(s)) +
                        static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(s, s)));
  for (; i < n; ++i) {
    std::uint64_t x;
    std::memcpy(&x, p + i * 8, 8);
    total += x;
  }
  return total;
}

// The wrapping sum of n 32-bit integers into 64 bits (NumPy sums int32 and uint32 into int64
// and uint64): each four are widened by interleaving with their sign (or zero) words, then
// added as 64-bit lanes, exact in any order. The scalar loop ran at a third of NumPy's speed.
template <bool Signed> std::uint64_t sum_32bit_widening(const unsigned char* p, std::int64_t n) {
  const __m128i zero = _mm_setzero_si128();
  __m128i a = zero, b = zero, c = zero, d = zero;
  std::int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const auto* q = reinterpret_cast<const __m128i*>(p + i * 4);
    const __m128i u = _mm_loadu_si128(q), v = _mm_loadu_si128(q + 1);
    const __m128i su = Signed ? _mm_srai_epi32(u, 31) : zero, sv = Signed ? _mm_srai_epi32(v, 31) : zero;
    a = _mm_add_epi64(a, _mm_unpacklo_epi32(u, su));
    b = _mm_add_epi64(b, _mm_unpackhi_epi32(u, su));
    c = _mm_add_epi64(c, _mm_unpacklo_epi32(v, sv));
    d = _mm_add_epi64(d, _mm_unpackhi_epi32(v, sv));
  }
  const __m128i s = _mm_add_epi64(_mm_add_epi64(a, b), _mm_add_epi64(c, d));
  std::uint64_t total = static_cast<std::uint64_t>(_mm_cvtsi128_si64(s)) +
                        static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(s, s)));
  for (; i < n; ++i) {
    if constexpr (Signed) {
      std::int32_t x;
      std::memcpy(&x, p + i * 4, 4);
      total += static_cast<std::uint64_t>(static_cast<std::int64_t>(x));
    } else {
      std::uint32_t x;
      std::memcpy(&x, p + i * 4, 4);
      total += x;
    }
  }
  return total;
}

// has_truth for complex elements of R (float or double) parts: nonzero when either part
// is, zero when both are.
template <class R, bool Nonzero>
bool has_truth_complex(const unsigned char* p, std::int64_t n) {
  if constexpr (Nonzero) {
    return has_truth<R, true>(p, n);
  } else {
    const __m128i zero = _mm_setzero_si128();
    __m128i hit = zero;
    for (std::int64_t i = 0; i < n; i += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
      __m128i eq;
      if constexpr (std::is_same_v<R, float>) {
        eq = _mm_castps_si128(_mm_cmpeq_ps(_mm_castsi128_ps(v), _mm_setzero_ps()));
        eq = _mm_and_si128(eq, _mm_shuffle_epi32(eq, _MM_SHUFFLE(2, 3, 0, 1)));  // each pair of floats
      } else {
        eq = _mm_castpd_si128(_mm_cmpeq_pd(_mm_castsi128_pd(v), _mm_setzero_pd()));
        eq = _mm_and_si128(eq, _mm_shuffle_epi32(eq, _MM_SHUFFLE(1, 0, 3, 2)));  // the two doubles
      }
      hit = _mm_or_si128(hit, eq);
    }
    return _mm_movemask_epi8(_mm_cmpeq_epi8(hit, zero)) != 0xFFFF;
  }
}

}  // namespace copper::backend::cpu::reduce_simd
#endif
