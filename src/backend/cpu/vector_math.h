// Vector forms of libm's transcendental functions for the CPU loops: glibc's libmvec (the
// library GCC calls when it vectorizes exp or sin under -ffast-math), loaded at run time so
// that the build neither needs fast-math nor links a library an older glibc lacks. Each
// function takes whole SIMD registers (2/4/8 doubles, 4/8/16 floats for SSE/AVX2/AVX-512),
// is accurate to 4 ulp (NumPy's own SIMD kernels to about the same; libm's scalar calls to
// 1) and keeps C99's special values (signed zeros, infinities, NaN), so the loops give
// NumPy's values at several times libm's speed (docs/benchmarks.md).
//
// Every element of a loop goes through the same vector function, the tail padded to a
// whole register, so a value does not depend on where it sits in an array, on the thread
// split or on the layout; a lane's result depends only on its own input.
#pragma once
#include <cstdint>

namespace copper::backend::cpu::vector_math {

// libmvec's functions, then the rounding functions, which are single instructions from
// SSE4.1 on (roundpd; vroundpd, vrndscalepd) that GCC does not emit for baseline x86-64:
// copper provides those itself, with libmvec's calling convention, exact as libm's.
enum class Fn : int {
  exp, exp2, expm1, log, log2, log10, log1p, sin, cos, tan, asin, acos, atan,
  sinh, cosh, tanh, asinh, acosh, atanh, cbrt,
  floor, ceil, trunc, rint,
};
inline constexpr int num_libmvec_fns = static_cast<int>(Fn::cbrt) + 1;
inline constexpr int num_fns = static_cast<int>(Fn::rint) + 1;

// Functions of two arguments. libmvec's powf is within 1 ulp of libm's (2.6% of random
// arguments differ by that ulp) and exact for integer powers of integers. Its double pow is
// within 1 ulp too (26% differ; NumPy's own AVX-512 pow differs from libm in 5%), and gave
// exact powers exactly in the tests, but promises neither that nor libm's rounding next to
// them (3.0 ** -1 came out 0.33333333333333337): the lanes where the power can be a double
// take libm's (vector_math.cpp, pow_flags).
enum class Fn2 : int { atan2, hypot, pow };
inline constexpr int num_fns2 = static_cast<int>(Fn2::pow) + 1;

// Register widths libmvec has variants for, narrowest first.
enum class Isa : int { none, sse, avx2, avx512 };
const char* isa_name(Isa isa);

// The widest ISA this CPU runs and libmvec provides, capped by the environment variable
// COPPER_CPU_VECTOR_MATH (off, sse, avx2 or avx512): `none` means the loops call libm.
Isa active_isa();
// Whether `isa` can run here (the CPU runs it and some function is loaded), whatever the cap says.
bool runs(Isa isa);

// out[i] = f(in[i]) for i in [0, n) at the active ISA (in may be out). Returns false and
// writes nothing where no vector form is available: the caller loops with libm.
bool apply(Fn f, const double* in, double* out, std::int64_t n);
bool apply(Fn f, const float* in, float* out, std::int64_t n);
// float16 values (their IEEE binary16 bits) through the float32 function, converted by the
// processor (AVX-512F, or AVX2 with F16C): exact both ways for every value but NaN, where
// the result is the same quiet NaN as libm's path through copper's own conversions. So
// the result is what the scalar float16 loop computes (float32 math rounded once), within
// the float32 function's few ulp. False (nothing written) below AVX2 + F16C.
bool apply(Fn f, const std::uint16_t* in, std::uint16_t* out, std::int64_t n);
// out[i] = f(a[i], b[i]); either input may be out.
bool apply(Fn2 f, const double* a, const double* b, double* out, std::int64_t n);
bool apply(Fn2 f, const float* a, const float* b, float* out, std::int64_t n);
// The same at a given ISA (the tests compare each one with libm).
bool apply(Isa isa, Fn f, const double* in, double* out, std::int64_t n);
bool apply(Isa isa, Fn f, const float* in, float* out, std::int64_t n);
bool apply(Isa isa, Fn f, const std::uint16_t* in, std::uint16_t* out, std::int64_t n);
bool apply(Isa isa, Fn2 f, const double* a, const double* b, double* out, std::int64_t n);
bool apply(Isa isa, Fn2 f, const float* a, const float* b, float* out, std::int64_t n);

// Whether some y[i] is infinite or NaN where x[i] is not NaN: the elements of a unary
// function's output errstate must classify (a NaN carried through raises nothing). SSE2
// compares, two doubles or four floats at a time; x86-64 only (elsewhere: a plain loop).
bool any_non_finite_from_non_nan(const double* y, const double* x, std::int64_t n);
bool any_non_finite_from_non_nan(const float* y, const float* x, std::int64_t n);

}  // namespace copper::backend::cpu::vector_math
