// The Philox4x32-10 counter-based generator and the per-group conversions to the
// distributions both backends generate, shared by host code and NVRTC device code
// (no standard library under __CUDACC_RTC__).
//
// A draw of n elements owns a run of counter blocks starting at `offset`; block b
// (counter = {lo32(offset + b), hi32(offset + b), 0, 0}, key = the seed's) yields
// four 32-bit words. Consecutive blocks form groups (`blocks_per_group`, one for most
// kinds), and group g becomes `elements_per_group` consecutive output elements. So
// element i depends only on (key, offset, i): the CPU and the GPU produce the same raw
// bits for any thread count or grid.
//
// Float conversions use only +, *, fma and sqrt (IEEE, correctly rounded: no FMA
// contraction) and so agree bit for bit everywhere; normals compute their logarithm and
// sin/cos with polynomials of this file (float32: all of it; float64: the sin/cos), and
// exponential and float64 normals call log, whose device version may differ from the
// host C library in the last bit.
#pragma once
#include "ops/scalar_types.h"

#if !defined(__CUDACC_RTC__)
#include <cmath>
#endif

namespace copper::ops::philox {

struct Block {
  uint32_t w[4];
};

COPPER_HD Block philox4x32_10(Block c, uint32_t k0, uint32_t k1) {
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = static_cast<uint64_t>(0xD2511F53u) * c.w[0];
    const uint64_t p1 = static_cast<uint64_t>(0xCD9E8D57u) * c.w[2];
    const uint32_t hi0 = static_cast<uint32_t>(p0 >> 32), lo0 = static_cast<uint32_t>(p0);
    const uint32_t hi1 = static_cast<uint32_t>(p1 >> 32), lo1 = static_cast<uint32_t>(p1);
    c = Block{{hi1 ^ c.w[1] ^ k0, lo1, hi0 ^ c.w[3] ^ k1, lo0}};
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return c;
}

// The kinds of draw a backend generates (RandomParams says the constants).
enum class Kind : uint32_t {
  raw = 0,          // uint64 from two words: the bit generator's output
  uniform = 1,      // float64 / float32: a + b * U[0, 1)
  integers = 2,     // any integer dtype or bool: low + floor(U * (range + 1))
  normal = 3,       // float64 / float32: a + b * N(0, 1)  (Box-Muller pairs)
  exponential = 4,  // float64 / float32: a + b * Exp(1)
  // Rejection samplers, one counter stream per element (ops/philox_samplers.h); drawn
  // through Backend::random_params only.
  gamma = 5,      // float64 / float32: scale * Gamma(shape)   (params: shape, scale)
  beta = 6,       // float64: Beta(a, b)                       (params: a, b)
  binomial = 7,   // int64: Binomial(n, p)                     (params: n as int64, p)
  poisson = 8,    // int64: Poisson(lam)                       (params: lam, unused)
  // Continuous (float64 computed, stored as the output dtype), parameters in order:
  chisquare = 9,             // (df)
  f = 10,                    // (dfnum, dfden)
  standard_t = 11,           // (df)
  noncentral_chisquare = 12, // (df, nonc)
  noncentral_f = 13,         // (dfnum, dfden, nonc)
  vonmises = 14,             // (mu, kappa)
  wald = 15,                 // (mean, scale)
  gumbel = 16,               // (loc, scale)
  laplace = 17,              // (loc, scale)
  logistic = 18,             // (loc, scale)
  lognormal = 19,            // (mean, sigma)
  pareto = 20,               // (a)
  power = 21,                // (a)
  weibull = 22,              // (a)
  rayleigh = 23,             // (scale)
  standard_cauchy = 24,      // ()
  triangular = 25,           // (left, mode, right)
  log_gamma = 26,            // (shape): log of a Gamma(shape) sample (dirichlet normalizes these)
  // Discrete (int64 computed):
  negative_binomial = 27,    // (n, p)
  geometric = 28,            // (p)
  hypergeometric = 29,       // (ngood, nbad, nsample), all int64
  logseries = 30,            // (p)
  zipf = 31,                 // (a)
};
// The largest Kind value (backends size their tables by it).
constexpr uint32_t kLastKind = 31;

// Parameter k of a stream kind is read as int64 (binomial's n, hypergeometric's three),
// otherwise as float64.
COPPER_HD bool param_is_int(Kind kind, int k) {
  return (kind == Kind::binomial && k == 0) || kind == Kind::hypergeometric;
}
// How many parameter arrays a stream kind reads (standard_cauchy: one unused, for the shape).
COPPER_HD int stream_param_count(Kind kind) {
  switch (kind) {
    case Kind::noncentral_f:
    case Kind::triangular:
    case Kind::hypergeometric: return 3;
    case Kind::gamma:
    case Kind::beta:
    case Kind::binomial:
    case Kind::f:
    case Kind::noncentral_chisquare:
    case Kind::vonmises:
    case Kind::wald:
    case Kind::gumbel:
    case Kind::laplace:
    case Kind::logistic:
    case Kind::lognormal:
    case Kind::negative_binomial: return 2;
    default: return 1;
  }
}
// Whether a stream kind yields integers (int64) rather than float64 values.
COPPER_HD bool kind_is_discrete(Kind kind) {
  return kind == Kind::binomial || kind == Kind::poisson || static_cast<uint32_t>(kind) >= 27u;
}

// Whether a kind draws each element from its own counter stream (Stream below).
COPPER_HD bool is_stream_kind(Kind kind) { return static_cast<uint32_t>(kind) >= static_cast<uint32_t>(Kind::gamma); }

struct RandomParams {
  uint32_t key0, key1;
  uint64_t offset;  // first counter block of this draw
  double a, b;      // location and scale (uniform, normal, exponential)
  uint64_t low;     // integers: low bound (two's complement bits for signed); with
                    // per-element parameters: 1 when high is exclusive, else 0
  uint64_t range;   // integers: high - low, inclusive (UINT64_MAX: the whole 64-bit range);
                    // with per-element parameters: the largest range (picks the block layout)
};

// Counter blocks per group: a GPU thread makes one group per step, so a group shares the
// key schedule and leaves as one wide store. Normals take several blocks: float32 two
// (8 values, 32 bytes), float64 three (12 words: 4 Box-Muller pairs of a 64-bit radius
// word and a 32-bit angle word, 64 bytes).
COPPER_HD int blocks_per_group(Kind kind, int itemsize) {
  if (kind == Kind::normal) return itemsize == 4 ? 2 : 3;
  return 1;
}
// Output elements one group makes for a draw (the rest of the group is unused).
COPPER_HD int elements_per_group(Kind kind, int itemsize, uint64_t range) {
  if (kind == Kind::normal) return 8;
  if (kind == Kind::uniform && itemsize == 4) return 4;  // float32 uses 24 bits of one word
  if (kind == Kind::integers && range > 0xffffffffull) return 1;  // 128 bits per element
  return 2;
}
// The largest elements_per_group (for callers' fixed-size buffers).
constexpr int kMaxGroupElements = 8;
// Counter blocks a draw of n elements consumes (whole groups).
COPPER_HD uint64_t blocks_for(Kind kind, int itemsize, uint64_t range, uint64_t n) {
  const uint64_t per = static_cast<uint64_t>(elements_per_group(kind, itemsize, range));
  return (n + per - 1) / per * static_cast<uint64_t>(blocks_per_group(kind, itemsize));
}

COPPER_HD Block block_at(const RandomParams& p, uint64_t b) {
  const uint64_t c = p.offset + b;
  return philox4x32_10(Block{{static_cast<uint32_t>(c), static_cast<uint32_t>(c >> 32), 0u, 0u}}, p.key0, p.key1);
}

COPPER_HD uint64_t join(uint32_t lo, uint32_t hi) { return (static_cast<uint64_t>(hi) << 32) | lo; }

// U[0, 1) with 53 random bits, and (0, 1] (for logarithms).
COPPER_HD double to_unit_double(uint64_t x) { return static_cast<double>(x >> 11) * (1.0 / 9007199254740992.0); }
COPPER_HD double to_open_unit_double(uint64_t x) {
  return static_cast<double>((x >> 11) + 1) * (1.0 / 9007199254740992.0);
}
// U[0, 1) with 24 random bits.
COPPER_HD float to_unit_float(uint32_t x) { return static_cast<float>(x >> 8) * (1.0f / 16777216.0f); }

// Rounded arithmetic without FMA contraction, so a + b * u agrees on host and device.
#if defined(__CUDACC_RTC__) || defined(__CUDA_ARCH__)
__device__ __forceinline__ double affine(double a, double b, double u) { return __dadd_rn(a, __dmul_rn(b, u)); }
__device__ __forceinline__ double log_(double x) { return ::log(x); }
__device__ __forceinline__ double sqrt_(double x) { return ::sqrt(x); }
// sin(pi x), cos(pi x) for x in [0, 2]: CUDA's sincospi (cheaper than sincos(2 pi u)).
__device__ __forceinline__ void sincospi_(double x, double* s, double* c) { ::sincospi(x, s, c); }
__device__ __forceinline__ float sqrt_(float x) { return ::sqrtf(x); }
#else
inline double affine(double a, double b, double u) {
  volatile double prod = b * u;  // keeps the product rounded even if FMA contraction is on
  return a + prod;
}
inline double log_(double x) { return std::log(x); }
inline double sqrt_(double x) { return std::sqrt(x); }
// The C library has no sincospi: reduce exactly to r = x - n/2 in [-1/4, 1/4] (x is a
// multiple of 2^-52 in [0, 2], so r is exact), take sin and cos of pi r, rotate by n.
inline void sincospi_(double x, double* s, double* c) {
  const double n = std::nearbyint(2.0 * x);
  const double r = x - 0.5 * n;
  const double sr = std::sin(3.141592653589793 * r), cr = std::cos(3.141592653589793 * r);
  switch (static_cast<int>(n) & 3) {
    case 0: *s = sr, *c = cr; break;
    case 1: *s = cr, *c = -sr; break;
    case 2: *s = -sr, *c = -cr; break;
    default: *s = -cr, *c = sr; break;
  }
}
inline float sqrt_(float x) { return std::sqrt(x); }
#endif

// 64 x 64 -> high 64 bits of the product, from 32-bit pieces (same result everywhere).
COPPER_HD uint64_t mulhi64(uint64_t a, uint64_t b) {
  const uint64_t a_lo = static_cast<uint32_t>(a), a_hi = a >> 32;
  const uint64_t b_lo = static_cast<uint32_t>(b), b_hi = b >> 32;
  const uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
  const uint64_t cross = (lo_lo >> 32) + static_cast<uint32_t>(hi_lo) + lo_hi;
  return hi_hi + (hi_lo >> 32) + (cross >> 32);
}

// An integer in [0, range] from 64 (range < 2^32: bias below 2^-32) or 128 random bits
// (bias below 2^-64): floor(x * (range + 1) / 2^bits), multiply-shift without rejection.
COPPER_HD uint64_t bounded64(uint64_t x, uint64_t range) {
  return mulhi64(x, range + 1);  // range < 2^32 here
}
COPPER_HD uint64_t bounded128(uint64_t x_hi, uint64_t x_lo, uint64_t range) {
  if (range == ~0ull) return x_hi;
  const uint64_t m = range + 1;
  // floor((x_hi * 2^64 + x_lo) * m / 2^128): high word of x_hi*m plus the carry from below.
  const uint64_t lo_part = mulhi64(x_lo, m);
  const uint64_t hi_lo = x_hi * m;  // low 64 bits of x_hi * m
  const uint64_t hi_hi = mulhi64(x_hi, m);
  const uint64_t sum = hi_lo + lo_part;
  return hi_hi + (sum < hi_lo ? 1u : 0u);
}

// ---- Box-Muller normals: z0 = r cos(theta), z1 = r sin(theta), r = sqrt(-2 ln u) ----
// float32 spends its budget on instruction count (the GPU kernel is arithmetic-bound): the
// angle word's low bits pick the octant by sign flips and a swap, its top 23 bits the
// angle within it, and near-minimax polynomials fitted for this file give sin and cos
// there (within 2.1 ulp); the radius word becomes u with one truncating conversion and a
// polynomial logarithm (within 2.4 ulp). float64 reads the angle as a fraction of a turn
// and reduces it to the nearest quadrant. Only +, *, fma, sqrt and exact bit operations:
// the same bits on the host and on the device.

// sin and cos of x in [-pi/4, pi/4] and the quadrant q, rotated to the angle q pi/2 + x.
COPPER_HD void rotate_quadrant(uint32_t q, double sx, double cx, double* s, double* c) {
  const bool swap = (q & 1u) != 0;
  *s = bits_double(double_bits(swap ? cx : sx) ^ (static_cast<uint64_t>(q & 2u) << 62));
  *c = bits_double(double_bits(swap ? sx : cx) ^ (static_cast<uint64_t>((q + 1u) & 2u) << 62));
}

// float32 radius word -> -2 ln(u), u = float_rz(w | 1) 2^-32 in [2^-32, 1 - 2^-24]: odd
// and truncated, u is never 0 or 1, so the result lies in [1.2e-7, 44.4] (the tail reaches
// sqrt(64 ln 2) = 6.66 sigma) and sqrt needs no special cases. x = float_rz(w | 1) = 2^e m,
// m in [2/3, 4/3): -2 ln u = (e - 32)(-2 ln 2) + f R(f), f = m - 1 exact, R near-minimax of
// degree 8 for -2 ln(1 + f) / f.
COPPER_HD float radius_word_float(uint32_t w) {
#if defined(__CUDACC_RTC__) || defined(__CUDA_ARCH__)
  return __uint2float_rz(w | 1u);
#else
  const uint32_t x = w | 1u;
  const float nearest = static_cast<float>(x);
  // Round toward zero: step back one ulp where rounding went up (nearest > x).
  return static_cast<double>(nearest) > static_cast<double>(x) ? bits_float(float_bits(nearest) - 1u) : nearest;
#endif
}
COPPER_HD float minus_two_log_of_word(uint32_t w) {
  const uint32_t bits = float_bits(radius_word_float(w));
  const int32_t e = static_cast<int32_t>(bits - 0x3f2aaaabu) >> 23;  // 0..32
  const float f = bits_float(bits - (static_cast<uint32_t>(e) << 23)) - 1.0f;
  const float e32 = bits_float(0x4b400000u + static_cast<uint32_t>(e)) - 12582944.0f;  // e - 32, exact
  float r = fused_mul_add(f, -0.2811221182346344f, 0.3080637753009796f);
  r = fused_mul_add(f, r, -0.27975305914878845f);
  r = fused_mul_add(f, r, 0.32825586199760437f);
  r = fused_mul_add(f, r, -0.40023887157440186f);
  r = fused_mul_add(f, r, 0.5001605153083801f);
  r = fused_mul_add(f, r, -0.6666633486747742f);
  r = fused_mul_add(f, r, 0.9999986290931702f);
  r = fused_mul_add(f, r, -2.0f);
  return fused_mul_add(e32, -1.3862943649291992f, f * r);
}

// Correctly rounded sqrt of x in [2^-100, 2^100]: the device skips the out-of-range
// branch of sqrtf (its fast path is this refinement of the hardware reciprocal root).
COPPER_HD float sqrt_in_range(float x) {
#if defined(__CUDACC_RTC__) || defined(__CUDA_ARCH__)
  float y;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  const float s = __fmul_rn(x, y), half_y = __fmul_rn(0.5f, y);
  return __fmaf_rn(__fmaf_rn(-s, s, x), half_y, s);
#else
  return std::sqrt(x);
#endif
}

// sin and cos of the float32 angle word: x = t pi/4 with t = the top 23 bits / 2^23, bit 2
// swaps sin and cos (the octants above pi/4), bit 1 negates sin. (Bit 0 negates both: the
// caller puts it on the radius.) Each step is one GPU instruction.
COPPER_HD void sincos_octant(uint32_t w, float* s, float* c) {
  const float t = bits_float((w >> 9) + 0x3f800000u) - 1.0f;  // exact, [0, 1)
  const float z = t * t;
  float ps = fused_mul_add(z, -3.5950470191892236e-05f, 0.00249000103212893f);
  ps = fused_mul_add(z, ps, -0.08074543625116348f);
  ps = fused_mul_add(z, ps, 0.7853981852531433f);
  float pc = fused_mul_add(z, 3.5303387448948342e-06f, -0.0003259400837123394f);
  pc = fused_mul_add(z, pc, 0.015854327008128166f);
  pc = fused_mul_add(z, pc, -0.3084251284599304f);
  pc = fused_mul_add(z, pc, 1.0f);
  const float sx = t * ps;
  const bool swap = (w & 4u) != 0;
  *s = bits_float(float_bits(swap ? pc : sx) ^ ((w << 30) & 0x80000000u));
  *c = swap ? sx : pc;
}

// The double coefficients live in constant memory on the device: an FMA reads them as an
// operand, where literal doubles would cost two register moves each.
#if defined(__CUDACC_RTC__) || defined(__CUDA_ARCH__)
#define COPPER_PHILOX_COEFFS __constant__
#else
#define COPPER_PHILOX_COEFFS inline constexpr
#endif
COPPER_PHILOX_COEFFS double kTurnSin64[6] = {1.5896228825635846e-10, -2.5050747737222434e-08, 2.7557313621199295e-06,
                                             -0.00019841269829588907, 0.008333333333322118, -0.1666666666666663};
COPPER_PHILOX_COEFFS double kTurnCos64[7] = {-1.135853465950629e-11, 2.0875700802788012e-09, -2.7557314178978674e-07,
                                             2.480158728885047e-05, -0.0013888888888873054, 0.041666666666666595, -0.5};
COPPER_PHILOX_COEFFS double kTurnStep64 = 1.4629180792671596e-09;  // 2 pi / 2^32 = pi 2^-31
#undef COPPER_PHILOX_COEFFS

// sin and cos of 2 pi w / 2^32 in double (all 32 bits: x = k 2 pi / 2^32, k exact).
COPPER_HD void sincos_turn(uint32_t w, double* s, double* c) {
  const uint32_t v = w + 0x20000000u;
  const int32_t k = static_cast<int32_t>(v & 0x3fffffffu) - 0x20000000;  // [-2^29, 2^29)
  const double x = static_cast<double>(k) * kTurnStep64, z = x * x;
  double ps = fused_mul_add(z, kTurnSin64[0], kTurnSin64[1]);
  for (int i = 2; i < 6; ++i) ps = fused_mul_add(z, ps, kTurnSin64[i]);
  double pc = fused_mul_add(z, kTurnCos64[0], kTurnCos64[1]);
  for (int i = 2; i < 7; ++i) pc = fused_mul_add(z, pc, kTurnCos64[i]);
  rotate_quadrant(v >> 30, fused_mul_add(x * z, ps, x), fused_mul_add(z, pc, 1.0), s, c);
}

// float32: four pairs from 8 words (two blocks), one word per radius and one per angle.
COPPER_HD void normal_group(const Block (&r)[2], float* z) {
  for (int pair = 0; pair < 4; ++pair) {
    const uint32_t* w = r[pair >> 1].w + 2 * (pair & 1);
    const float radius = sqrt_in_range(minus_two_log_of_word(w[0]));
    const float signed_radius = bits_float(float_bits(radius) + (w[1] << 31));  // bit 0: the sign
    float s, c;
    sincos_octant(w[1], &s, &c);
    z[2 * pair] = signed_radius * c;
    z[2 * pair + 1] = signed_radius * s;
  }
}

// float64: four pairs from 12 words (three blocks): radius from 64 bits, u = (x + 1/2) 2^-64
// rounded (dense near 0: the tail reaches sqrt(-2 ln 2^-65) = 9.49 sigma), angle from 32.
COPPER_HD void normal_group(const Block (&r)[3], double* z) {
  double radius[4];
  for (int pair = 0; pair < 4; ++pair) {  // the radii first: nothing else is live across sqrt's slow path
    const int i = 3 * pair;
    const uint32_t lo = r[i >> 2].w[i & 3], hi = r[(i + 1) >> 2].w[(i + 1) & 3];
    // The product is exact, so FMA contraction would not change the sum.
    const double u = static_cast<double>(join(lo, hi)) * 0x1p-64 + 0x1p-65;
    radius[pair] = sqrt_(-2.0 * log_(u));
  }
  for (int pair = 0; pair < 4; ++pair) {
    const int i = 3 * pair + 2;
    double s, c;
    sincos_turn(r[i >> 2].w[i & 3], &s, &c);
    z[2 * pair] = radius[pair] * c;
    z[2 * pair + 1] = radius[pair] * s;
  }
}

// The standard normals of group g (elements_per_group of them).
template <class F>
COPPER_HD void normal_values(const RandomParams& p, uint64_t g, F* z) {
  constexpr int blocks = sizeof(F) == 4 ? 2 : 3;
  Block r[blocks];
  for (int j = 0; j < blocks; ++j) r[j] = block_at(p, g * blocks + j);
  normal_group(r, z);
}

// Writes the `count` (<= elements_per_group) elements of group g to out[0..count).
// T: the output's storage type (double, float, an integer type, bool; uint64 for raw).
template <class T>
COPPER_HD void generate_group(Kind kind, const RandomParams& p, uint64_t g, T* out, int count) {
  if constexpr (is_float_v<T>) {
    if (kind == Kind::normal) {
      T z[8];
      normal_values<T>(p, g, z);
      // Constant indices (k < 8, not k < count) keep z in registers on the device.
      if (p.a == 0.0 && p.b == 1.0) {  // standard normals: no float64 round trip
        for (int k = 0; k < 8; ++k)
          if (k < count) out[k] = z[k];
      } else {
        for (int k = 0; k < 8; ++k)
          if (k < count) out[k] = static_cast<T>(affine(p.a, p.b, static_cast<double>(z[k])));
      }
      return;
    }
  }
  const Block r = block_at(p, g);  // one block per group for the other kinds
  if constexpr (is_float_v<T>) {
    if (kind == Kind::uniform) {
      if constexpr (sizeof(T) == 4) {
        for (int k = 0; k < count; ++k)
          out[k] = static_cast<T>(affine(p.a, p.b, static_cast<double>(to_unit_float(r.w[k]))));
      } else {
        for (int k = 0; k < count; ++k) out[k] = static_cast<T>(affine(p.a, p.b, to_unit_double(join(r.w[2 * k], r.w[2 * k + 1]))));
      }
    } else if (kind == Kind::exponential) {
      for (int k = 0; k < count; ++k)
        out[k] = static_cast<T>(affine(p.a, p.b, -log_(to_open_unit_double(join(r.w[2 * k], r.w[2 * k + 1])))));
    }
  } else {
    if (kind == Kind::raw) {
      for (int k = 0; k < count; ++k) out[k] = static_cast<T>(join(r.w[2 * k], r.w[2 * k + 1]));
    } else if (kind == Kind::integers) {
      if (p.range > 0xffffffffull) {
        out[0] = static_cast<T>(p.low + bounded128(join(r.w[0], r.w[1]), join(r.w[2], r.w[3]), p.range));
      } else {
        for (int k = 0; k < count; ++k) {
          const uint64_t v = p.low + bounded64(join(r.w[2 * k], r.w[2 * k + 1]), p.range);
          if constexpr (is_same_v<T, bool>) out[k] = (v & 1u) != 0;
          else out[k] = static_cast<T>(v);
        }
      }
    }
  }
}

// A sequential stream of words for one element of a rejection sampler (gamma, beta,
// binomial, poisson): element i (< 2^32) of the draw at `offset` reads the blocks with
// counter {j, i, lo32(offset), 0x80000000 | hi31(offset)}, j = 0, 1, ... The top bit
// keeps these counters apart from the block counters above (whose high words are 0).
struct Stream {
  uint32_t key0, key1;
  uint32_t c1, c2, c3;
  uint32_t j = 0;
  Block buf{};
  int pos = 4;

  COPPER_HD Stream(const RandomParams& p, uint32_t i)
      : key0(p.key0), key1(p.key1), c1(i), c2(static_cast<uint32_t>(p.offset)),
        c3(0x80000000u | static_cast<uint32_t>((p.offset >> 32) & 0x7fffffffu)) {}
  COPPER_HD uint32_t next32() {
    if (pos == 4) {
      buf = philox4x32_10(Block{{j++, c1, c2, c3}}, key0, key1);
      pos = 0;
    }
    return buf.w[pos++];
  }
  COPPER_HD uint64_t next64() {
    const uint32_t lo = next32();
    return join(lo, next32());
  }
  COPPER_HD double uniform() { return to_unit_double(next64()); }            // [0, 1)
  COPPER_HD double open_uniform() { return to_open_unit_double(next64()); }  // (0, 1]
  COPPER_HD double interior_uniform() {  // (0, 1): 53 bits plus half a step
    return (static_cast<double>(next64() >> 11) + 0.5) * (1.0 / 9007199254740992.0);
  }
  COPPER_HD double exponential() { return -log_(open_uniform()); }  // Exp(1), in [0, 36.8]
  COPPER_HD double normal() {  // one Box-Muller value per two uniforms (the pair's cosine)
    const double u1 = open_uniform(), u2 = uniform();
    double s, c;
    sincospi_(2.0 * u2, &s, &c);
    return sqrt_(-2.0 * log_(u1)) * c;
  }
};

}  // namespace copper::ops::philox
