// The Philox4x32-10 counter-based generator and the per-block conversions to the
// distributions both backends generate, shared by host code and NVRTC device code
// (no standard library under __CUDACC_RTC__).
//
// A draw of n elements owns a run of counter blocks starting at `offset`; block b
// (counter = {lo32(offset + b), hi32(offset + b), 0, 0}, key = the seed's) yields
// four 32-bit words, which become `elements_per_block` consecutive output elements.
// So element i depends only on (key, offset, i): the CPU and the GPU produce the
// same raw bits for any thread count or grid.
//
// Float conversions use only +, * (rounded one at a time, no FMA contraction) and so
// agree bit for bit everywhere; normal and exponential also use log, sqrt, cos, sin,
// whose device versions may differ from the host C library in the last bit.
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
};

struct RandomParams {
  uint32_t key0, key1;
  uint64_t offset;  // first counter block of this draw
  double a, b;      // location and scale (uniform, normal, exponential)
  uint64_t low;     // integers: low bound (two's complement bits for signed)
  uint64_t range;   // integers: high - low, inclusive (UINT64_MAX: the whole 64-bit range)
};

// Output elements one counter block makes for a draw (the rest of the block is unused).
COPPER_HD int elements_per_block(Kind kind, int itemsize, uint64_t range) {
  if (kind == Kind::uniform && itemsize == 4) return 4;  // float32 uses 24 bits of one word
  if (kind == Kind::integers && range > 0xffffffffull) return 1;  // 128 bits per element
  return 2;
}
// Counter blocks a draw of n elements consumes.
COPPER_HD uint64_t blocks_for(Kind kind, int itemsize, uint64_t range, uint64_t n) {
  const uint64_t per = static_cast<uint64_t>(elements_per_block(kind, itemsize, range));
  return (n + per - 1) / per;
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
__device__ __forceinline__ void sincos_(double x, double* s, double* c) { ::sincos(x, s, c); }
#else
inline double affine(double a, double b, double u) {
  volatile double prod = b * u;  // keeps the product rounded even if FMA contraction is on
  return a + prod;
}
inline double log_(double x) { return std::log(x); }
inline double sqrt_(double x) { return std::sqrt(x); }
inline void sincos_(double x, double* s, double* c) {
  *s = std::sin(x);
  *c = std::cos(x);
}
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

// Writes the `count` (<= elements_per_block) elements of block b to out[0..count).
// T: the output's storage type (double, float, an integer type, bool; uint64 for raw).
template <class T>
COPPER_HD void generate_block(Kind kind, const RandomParams& p, uint64_t b, T* out, int count) {
  const Block r = block_at(p, b);
  if constexpr (is_float_v<T>) {
    if (kind == Kind::uniform) {
      if constexpr (sizeof(T) == 4) {
        for (int k = 0; k < count; ++k)
          out[k] = static_cast<T>(affine(p.a, p.b, static_cast<double>(to_unit_float(r.w[k]))));
      } else {
        for (int k = 0; k < count; ++k) out[k] = static_cast<T>(affine(p.a, p.b, to_unit_double(join(r.w[2 * k], r.w[2 * k + 1]))));
      }
    } else if (kind == Kind::normal) {
      // Box-Muller: one pair of normals from two 53-bit uniforms.
      const double u1 = to_open_unit_double(join(r.w[0], r.w[1]));
      const double u2 = to_unit_double(join(r.w[2], r.w[3]));
      const double radius = sqrt_(-2.0 * log_(u1));
      double s, c;
      sincos_(6.283185307179586 * u2, &s, &c);
      out[0] = static_cast<T>(affine(p.a, p.b, radius * c));
      if (count > 1) out[1] = static_cast<T>(affine(p.a, p.b, radius * s));
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
  COPPER_HD double normal() {  // one Box-Muller value per two uniforms (the pair's cosine)
    const double u1 = open_uniform(), u2 = uniform();
    double s, c;
    sincos_(6.283185307179586 * u2, &s, &c);
    return sqrt_(-2.0 * log_(u1)) * c;
  }
};

}  // namespace copper::ops::philox
