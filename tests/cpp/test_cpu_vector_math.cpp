// The CPU loops' vector math (backend/cpu/vector_math.h) at every ISA this machine runs,
// against libm's scalar functions: within a few ulp inside each function's domain, and bit
// for bit where the loops patch lanes (NaN inputs, infinities, values outside the domain),
// with special values scattered over arrays of every tail length, in place and not.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
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

// pow (float32 only): positive bases of mixed scales to random and integer exponents, and
// every pair of special values; exact where libm's powf is not finite or zero, and for
// integer powers of small integers (7 ** 3 is 343), else within 2 ulp. No double form.
void run_pow32(Isa isa) {
  std::mt19937_64 gen(4242);
  const std::vector<float> edge = specials<float>();
  std::vector<float> a, b;
  for (float x : edge)
    for (float y : edge) {
      a.push_back(x);
      b.push_back(y);
    }
  std::uniform_real_distribution<double> unit(0, 1), expo(-8, 8);
  std::uniform_int_distribution<int> scale(-20, 20), small(0, 12);
  for (int i = 0; i < 5000; ++i) {
    a.push_back(static_cast<float>(std::ldexp(unit(gen), scale(gen))));
    b.push_back(static_cast<float>(expo(gen)));
    a.push_back(static_cast<float>(small(gen)));
    b.push_back(static_cast<float>(small(gen) % 9));
  }
  std::vector<float> out(a.size());
  ASSERT_TRUE(vm::apply(isa, vm::Fn2::pow, a.data(), b.data(), out.data(), static_cast<std::int64_t>(a.size())));
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const float want = ::powf(a[i], b[i]);
    const std::string where = "pow(" + std::to_string(a[i]) + ", " + std::to_string(b[i]) + ") at " + vm::isa_name(isa);
    const bool integers = a[i] == std::floor(a[i]) && b[i] == std::floor(b[i]) && a[i] >= 0 && b[i] >= 0 && a[i] < 16;
    if (std::isnan(want)) EXPECT_TRUE(std::isnan(out[i])) << where;
    else if (!std::isfinite(a[i]) || !std::isfinite(b[i]) || want == 0 || !std::isfinite(want) || integers)
      EXPECT_EQ(std::bit_cast<Bits<float>>(out[i]), std::bit_cast<Bits<float>>(want)) << where;
    else worst = std::max(worst, ulps(out[i], want));
  }
  EXPECT_LE(worst, 2.0) << "powf at " << vm::isa_name(isa);
  double x = 2, y = 3, z = 0;
  EXPECT_FALSE(vm::apply(isa, vm::Fn2::pow, &x, &y, &z, 1)) << "no float64 pow";
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
    run_pow32(isa);
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
