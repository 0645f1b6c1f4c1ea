// The CPU loops' vector math (backend/cpu/vector_math.h) at every ISA this machine runs,
// against libm's scalar functions: within a few ulp inside each function's domain, and bit
// for bit where the loops patch lanes (NaN inputs, infinities, values outside the domain),
// with special values scattered over arrays of every tail length, in place and not.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "backend/cpu/vector_math.h"
#include "ops/scalar_types.h"

namespace {
namespace vm = copper::backend::cpu::vector_math;
using vm::Fn;
using vm::Isa;

struct Case {
  Fn fn;
  const char* name;
  double (*f64)(double);
  float (*f32)(float);
  double lo, hi;  // random inputs' range
};
const Case kCases[] = {
    {Fn::exp, "exp", ::exp, ::expf, -120, 120},      {Fn::exp2, "exp2", ::exp2, ::exp2f, -160, 160},
    {Fn::expm1, "expm1", ::expm1, ::expm1f, -30, 90}, {Fn::log, "log", ::log, ::logf, -1, 1e6},
    {Fn::log2, "log2", ::log2, ::log2f, -1, 1e6},     {Fn::log10, "log10", ::log10, ::log10f, -1, 1e6},
    {Fn::log1p, "log1p", ::log1p, ::log1pf, -2, 50}, {Fn::sin, "sin", ::sin, ::sinf, -1e4, 1e4},
    {Fn::cos, "cos", ::cos, ::cosf, -1e4, 1e4},       {Fn::tan, "tan", ::tan, ::tanf, -100, 100},
    {Fn::asin, "asin", ::asin, ::asinf, -1.5, 1.5},   {Fn::acos, "acos", ::acos, ::acosf, -1.5, 1.5},
    {Fn::atan, "atan", ::atan, ::atanf, -1e3, 1e3},   {Fn::sinh, "sinh", ::sinh, ::sinhf, -100, 100},
    {Fn::cosh, "cosh", ::cosh, ::coshf, -100, 100},   {Fn::tanh, "tanh", ::tanh, ::tanhf, -20, 20},
    {Fn::asinh, "asinh", ::asinh, ::asinhf, -1e5, 1e5}, {Fn::acosh, "acosh", ::acosh, ::acoshf, 0, 1e5},
    {Fn::atanh, "atanh", ::atanh, ::atanhf, -1.5, 1.5}, {Fn::cbrt, "cbrt", ::cbrt, ::cbrtf, -1e5, 1e5},
    {Fn::floor, "floor", ::floor, ::floorf, -1e3, 1e3}, {Fn::ceil, "ceil", ::ceil, ::ceilf, -1e3, 1e3},
    {Fn::trunc, "trunc", ::trunc, ::truncf, -1e3, 1e3}, {Fn::rint, "rint", ::rint, ::rintf, -1e3, 1e3},
};
// Exact functions: bit for bit as libm everywhere.
bool exact(Fn f) { return f == Fn::floor || f == Fn::ceil || f == Fn::trunc || f == Fn::rint; }

template <class T> using Bits = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;

// Values every function meets at its edges, NaNs with payloads and signalling ones included.
template <class T> std::vector<T> specials() {
  using L = std::numeric_limits<T>;
  const T snan = std::bit_cast<T>(Bits<T>(sizeof(T) == 8 ? 0x7ff0000000000123ull : 0x7f800123u));
  const T payload = std::bit_cast<T>(Bits<T>(sizeof(T) == 8 ? 0xfff8000000abcdefull : 0xffc0abcdu));
  return {T(0), -T(0), L::infinity(), -L::infinity(), L::quiet_NaN(), -L::quiet_NaN(), snan, payload,
          T(1), T(-1), T(0.5), T(-0.5), T(1.5), T(-1.5), T(2.5), T(-2.5), T(2), T(-2), L::denorm_min(), -L::denorm_min(),
          L::min(), -L::min(), L::max(), L::lowest(), T(1e-30), T(-1e-30), T(88.8), T(-104), T(710), T(-746),
          std::nextafter(T(1), T(2)), std::nextafter(T(-1), T(-2)), std::nextafter(T(1), T(0)), T(1e20), T(-1e20)};
}

// Distance in units in the last place of `want` (whose spacing below the normal range is
// the smallest normal's).
template <class T> double ulps(T got, T want) {
  const int e = std::max(std::ilogb(want), std::numeric_limits<T>::min_exponent - 1);
  return std::fabs(static_cast<double>(got) - static_cast<double>(want)) /
         std::ldexp(1.0, e - (std::numeric_limits<T>::digits - 1));
}

// Checks out = f(in) lane by lane; returns the largest ulp distance seen.
template <class T> double check(const Case& c, Isa isa, const std::vector<T>& in, const std::vector<T>& out) {
  double worst = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const T x = in[i];
    T want;
    if constexpr (sizeof(T) == 8) want = c.f64(x);
    else want = c.f32(x);
    const T got = out[i];
    const std::string where = std::string(c.name) + "(" + std::to_string(x) + ") at " + vm::isa_name(isa) + ", " +
                              std::to_string(sizeof(T) * 8) + " bits";
    if (std::isnan(want) || std::isinf(want) || want == 0 || !std::isfinite(x)) {
      // NaNs (every payload), infinities and signed zeros exactly as libm.
      EXPECT_EQ(std::bit_cast<Bits<T>>(got), std::bit_cast<Bits<T>>(want)) << where;
      continue;
    }
    if (std::isnan(got) || std::isinf(got)) {
      ADD_FAILURE() << where << ": got " << got << ", libm " << want;
      continue;
    }
    EXPECT_EQ(std::signbit(got), std::signbit(want)) << where;
    worst = std::max(worst, ulps(got, want));
    if (exact(c.fn)) {
      EXPECT_EQ(got, want) << where;
    }
  }
  return worst;
}

template <class T> void run_all(Isa isa) {
  std::mt19937_64 gen(12345);
  const std::vector<T> edge = specials<T>();
  for (const Case& c : kCases) {
    double worst = 0;
    std::uniform_real_distribution<double> wide(c.lo, c.hi), unit(-1, 1);
    // Every tail length against each register width (up to 16 lanes), then long arrays.
    for (int n : {1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 33, 100, 1000, 4099}) {
      std::vector<T> in(n);
      for (int i = 0; i < n; ++i) {
        const auto pick = gen() % 8;
        if (pick == 0) in[i] = edge[gen() % edge.size()];
        else if (pick == 1) in[i] = static_cast<T>(unit(gen));
        else in[i] = static_cast<T>(wide(gen));
      }
      std::vector<T> out(n, T(-7));
      ASSERT_TRUE(vm::apply(isa, c.fn, in.data(), out.data(), n)) << c.name;
      worst = std::max(worst, check<T>(c, isa, in, out));
      // In place: the same values.
      std::vector<T> inplace = in;
      ASSERT_TRUE(vm::apply(isa, c.fn, inplace.data(), inplace.data(), n));
      EXPECT_EQ(std::memcmp(inplace.data(), out.data(), n * sizeof(T)), 0) << c.name << " in place";
    }
    // Each special value alone, in a whole register and in the tail.
    std::vector<T> alone(edge);
    std::vector<T> out(alone.size());
    ASSERT_TRUE(vm::apply(isa, c.fn, alone.data(), out.data(), static_cast<std::int64_t>(alone.size())));
    worst = std::max(worst, check<T>(c, isa, alone, out));
    // libmvec is within 4 ulp of the exact value and libm within 1: 5 apart at most.
    EXPECT_LE(worst, 5.0) << c.name << " at " << vm::isa_name(isa) << ", " << sizeof(T) * 8 << " bits";
  }
}

// atan2 and hypot over pairs: random values of mixed scales and every pair of special values,
// against libm: exact where an input is not finite or the result is zero, else within 5 ulp.
template <class T> void run_all2(Isa isa) {
  std::mt19937_64 gen(777);
  const std::vector<T> edge = specials<T>();
  struct Case2 {
    vm::Fn2 fn;
    const char* name;
    double (*f64)(double, double);
    float (*f32)(float, float);
  };
  for (const Case2& c : {Case2{vm::Fn2::atan2, "atan2", ::atan2, ::atan2f}, Case2{vm::Fn2::hypot, "hypot", ::hypot, ::hypotf}}) {
    std::vector<T> a, b;
    for (T x : edge)
      for (T y : edge) {
        a.push_back(x);
        b.push_back(y);
      }
    std::uniform_real_distribution<double> unit(-1, 1);
    std::uniform_int_distribution<int> scale(-40, 40);
    for (int i = 0; i < 5000; ++i) {
      a.push_back(static_cast<T>(std::ldexp(unit(gen), scale(gen))));
      b.push_back(gen() % 16 == 0 ? edge[gen() % edge.size()] : static_cast<T>(std::ldexp(unit(gen), scale(gen))));
    }
    double worst = 0;
    for (std::size_t n : {a.size(), std::size_t(1), std::size_t(7), std::size_t(19)}) {
      std::vector<T> out(n, T(-7));
      ASSERT_TRUE(vm::apply(isa, c.fn, a.data(), b.data(), out.data(), static_cast<std::int64_t>(n)));
      for (std::size_t i = 0; i < n; ++i) {
        const T want = sizeof(T) == 8 ? static_cast<T>(c.f64(a[i], b[i])) : static_cast<T>(c.f32(a[i], b[i]));
        const std::string where = std::string(c.name) + "(" + std::to_string(a[i]) + ", " + std::to_string(b[i]) + ") at " +
                                  vm::isa_name(isa) + ", " + std::to_string(sizeof(T) * 8) + " bits";
        if (!std::isfinite(a[i]) || !std::isfinite(b[i]) || want == 0 || !std::isfinite(want)) {
          EXPECT_EQ(std::bit_cast<Bits<T>>(out[i]), std::bit_cast<Bits<T>>(want)) << where;
        } else {
          EXPECT_EQ(std::signbit(out[i]), std::signbit(want)) << where;
          worst = std::max(worst, ulps(out[i], want));
        }
      }
    }
    EXPECT_LE(worst, 5.0) << c.name << " at " << vm::isa_name(isa) << ", " << sizeof(T) * 8 << " bits";
  }
}

// pow: positive bases of mixed scales to random exponents, within 2 ulp of libm (measured:
// 1). Bit for bit as libm where libm's answer is special or exact (the true power is a T):
// every pair of special values, integer powers of integers of both signs (7 ** 3 is 343),
// powers of short dyadic bases (1.5 ** 7), half and quarter powers of perfect squares and
// fourth powers (2.25 ** 1.5 is 3.375, 81 ** 0.75 is 27, also a 53-bit square), powers of
// two to multiples of 1/64 (256 ** 0.125 is 2), exponents 0 and 1 of random bases, and in
// double the negative integer powers of integers; negative bases to fractional powers give
// libm's NaN. All in one array, so each register and block mixes them with random lanes.
template <class T> void run_pow(Isa isa) {
  std::mt19937_64 gen(4242);
  const std::vector<T> edge = specials<T>();
  std::vector<T> a, b;
  std::vector<bool> exact;
  // The true power where the case knows it (k ** n of an integer k), or 0: it is exact if
  // that is a T. Products of integers in long double are exact below 2 ** 64.
  auto int_power = [](long double k, int n) {
    long double v = 1;
    for (int i = 0; i < n; ++i) v *= k;
    return v;
  };
  auto add = [&](double x, double y, long double truth, bool is_exact = false) {
    a.push_back(static_cast<T>(x));
    b.push_back(static_cast<T>(y));
    exact.push_back(is_exact || (truth != 0 && std::fabs(truth) < 0x1p64L && static_cast<T>(truth) == truth));
  };
  for (T x : edge)
    for (T y : edge) add(x, y, 0, !std::isfinite(x) || !std::isfinite(y) || y == 0 || y == 1);
  const bool wide = sizeof(T) == 8;
  std::uniform_real_distribution<double> unit(0, 1), expo(-8, 8);
  std::uniform_int_distribution<int> scale(-20, 20), power(0, wide ? 40 : 12), base(-200, 200), odd(0, 12),
      shift(-4, 4), root(1, 3000), eighths(0, 7), k64(-64, 64), k8(-12, 12);
  for (int i = 0; i < 5000; ++i) {
    add(std::ldexp(unit(gen), scale(gen)), expo(gen), 0);
    const int k = base(gen), n = power(gen);
    add(k, n, int_power(k, n));
    // k ** -n is a T where k is 0 or a power of two; in double, libm's value also elsewhere
    // (3 ** -1 is 0.3333333333333333, as NumPy prints it, where libmvec gave ...37).
    add(k, -(n % 9), 0, wide || (k & (k - 1)) == 0);
    const int m = 2 * odd(gen) + 1, e = shift(gen), j = eighths(gen);
    add(std::ldexp(m, e), j, std::ldexp(int_power(m, j), e * j));
    const long double r = root(gen);
    add(static_cast<double>(r * r), j / 2.0, int_power(r, j));
    if (wide) add(static_cast<double>(r * r * r * r), j / 4.0, int_power(r, j));
    const int p2 = 8 * k8(gen), q = k64(gen);
    add(std::ldexp(1.0, p2), q / 64.0, 0, (p2 * q) % 64 == 0);
    add(std::ldexp(unit(gen), scale(gen)) * (i % 2 ? 1 : -1), i % 2, 0, true);
    add(-std::ldexp(unit(gen), scale(gen)), expo(gen) + 0.5, 0, true);
    add(-std::ldexp(unit(gen), scale(gen)), k % 10, 0);  // the sign of (-x) ** n, n odd and even
  }
  if (wide) add(67108865.0 * 67108865.0, 0.5, 67108865.0L);  // (2 ** 26 + 1) ** 2 has 53 bits
  std::vector<T> out(a.size());
  ASSERT_TRUE(vm::apply(isa, vm::Fn2::pow, a.data(), b.data(), out.data(), static_cast<std::int64_t>(a.size())));
  std::vector<T> in_place = a;  // out aliasing the base
  ASSERT_TRUE(vm::apply(isa, vm::Fn2::pow, in_place.data(), b.data(), in_place.data(), static_cast<std::int64_t>(a.size())));
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const T want = wide ? static_cast<T>(::pow(a[i], b[i])) : static_cast<T>(::powf(a[i], b[i]));
    char where[96];
    std::snprintf(where, sizeof where, "pow(%.17g, %.17g) at %s, %d bits", static_cast<double>(a[i]),
                  static_cast<double>(b[i]), vm::isa_name(isa), static_cast<int>(sizeof(T) * 8));
    EXPECT_EQ(std::bit_cast<Bits<T>>(in_place[i]), std::bit_cast<Bits<T>>(out[i])) << where << ", in place";
    if (std::isnan(want) && (std::isnan(a[i]) || std::isnan(b[i]))) {
      EXPECT_TRUE(std::isnan(out[i])) << where;
    } else if (std::isnan(want) || exact[i] || want == 0 || !std::isfinite(want)) {  // NaN: libm's bits
      EXPECT_EQ(std::bit_cast<Bits<T>>(out[i]), std::bit_cast<Bits<T>>(want)) << where;
    } else {
      EXPECT_EQ(std::signbit(out[i]), std::signbit(want)) << where;
      worst = std::max(worst, ulps(out[i], want));
    }
  }
  EXPECT_LE(worst, 2.0) << "pow at " << vm::isa_name(isa) << ", " << sizeof(T) * 8 << " bits";
}

TEST(CpuVectorMath, EveryIsaMatchesLibm) {
  int ran = 0;
  for (Isa isa : {Isa::sse, Isa::avx2, Isa::avx512}) {
    if (!vm::runs(isa)) continue;
    ++ran;
    run_all<double>(isa);
    run_all<float>(isa);
    run_all2<double>(isa);
    run_all2<float>(isa);
    run_pow<double>(isa);
    run_pow<float>(isa);
  }
  if (ran == 0) GTEST_SKIP() << "no libmvec on this machine: the CPU loops call libm";
}

// float16: every one of the 65536 values, against the scalar loop's own path (copper's
// conversions around libm's float32 function): the same bits but where the float32 results
// straddle a float16 rounding boundary (then one float16 ulp apart), and NaNs exactly.
TEST(CpuVectorMath, Float16EveryValue) {
  namespace ops = copper::ops;
  std::vector<std::uint16_t> in(65536), out(65536);
  for (int i = 0; i < 65536; ++i) in[i] = static_cast<std::uint16_t>(i);
  int ran = 0;
  for (Isa isa : {Isa::avx2, Isa::avx512}) {
    for (const Case& c : kCases) {
      if (!vm::apply(isa, c.fn, in.data(), out.data(), 65536)) continue;
      ++ran;
      int off_by_one = 0;
      for (int i = 0; i < 65536; ++i) {
        const float x = ops::half_to_float(ops::half{in[i]});
        const std::uint16_t want = ops::float_to_half(c.f32(x)).bits;
        if (out[i] == want) continue;
        const float got_f = ops::half_to_float(ops::half{out[i]}), want_f = ops::half_to_float(ops::half{want});
        const bool neighbours = std::isfinite(want_f) && std::isfinite(got_f) &&
                                std::abs(static_cast<int>(out[i]) - static_cast<int>(want)) == 1;
        EXPECT_TRUE(neighbours) << c.name << "(" << x << ") at " << vm::isa_name(isa) << ": got 0x" << std::hex
                                << out[i] << ", want 0x" << want << std::dec;
        off_by_one += neighbours;
      }
      // Straddles are rare: libmvec's float32 error is a few ulp of 2**-24 against float16's 2**-11.
      EXPECT_LT(off_by_one, 200) << c.name << " at " << vm::isa_name(isa);
    }
  }
  if (ran == 0) GTEST_SKIP() << "no float16 conversions in hardware here: the CPU loops convert in software";
}

TEST(CpuVectorMath, UnavailableIsaDoesNothing) {
  double in = 1.0, out = -7.0;
  EXPECT_FALSE(vm::apply(Isa::none, Fn::exp, &in, &out, 1));
  EXPECT_EQ(out, -7.0);
  if (vm::active_isa() != Isa::none) {
    EXPECT_TRUE(vm::runs(vm::active_isa()));
  }
}

}  // namespace
