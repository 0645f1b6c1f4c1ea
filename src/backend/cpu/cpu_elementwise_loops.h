// The CPU elementwise kernels: one strided loop per (op functor, loop type), kept in a
// table of function pointers indexed [op][dtype]. Each family file (arithmetic, math,
// comparison, ...) instantiates its own ops, so no single file compiles for minutes.
#pragma once
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstring>
#include <span>
#include <type_traits>

#include "backend/cpu/element_load.h"
#include "backend/cpu/exponent_bits.h"
#include "backend/cpu/popcount.h"
#include "backend/cpu/strided_loop.h"
#include "backend/cpu/vector_math.h"
#include "ops/catalogue.h"
#include "ops/dtype_traits.h"
#include "ops/functor_traits.h"
#include "ops/scalar_fp_errors.h"
#include "ops/scalar_ops.h"

namespace copper::backend::cpu {

// out holds one view, or two for two-output ops (divmod, modf, frexp).
using LoopFn = void (*)(std::span<const ArrayView> in, std::span<const ArrayView> out);
// Backend::fold for one (binary op, dtype) whose output dtype is its input dtype.
using FoldFn = void (*)(const ArrayView& in, const ArrayView& out, const FoldOptions& o);
struct LoopTable {
  LoopFn fn[ops::num_ufuncs][num_dtypes] = {};
  FoldFn fold[ops::num_ufuncs][num_dtypes] = {};
};

// The loop of `op` over dtype `loop`, or nullptr (cpu_elementwise.cpp; ufunc.at uses it too).
LoopFn elementwise_loop(ops::UfuncId op, DType loop);

// Each family file fills in the entries of its ops (cpu_elementwise_<family>.cpp).
void add_arithmetic_loops(LoopTable& table);
void add_exp_log_loops(LoopTable& table);
void add_trig_loops(LoopTable& table);
void add_rounding_loops(LoopTable& table);
void add_comparison_loops(LoopTable& table);
void add_bitwise_loops(LoopTable& table);
void add_float_loops(LoopTable& table);  // cpu_elementwise_float.cpp: bit-level and two-output ops

// errstate: while CpuBackend::elementwise runs an op whose errors the calling thread
// watches, `fp_watch` points at the flags its loops found (null elsewhere: ufunc.at and
// internal loops check nothing).
struct FpWatch {
  std::atomic<unsigned> found{0};
};
extern thread_local FpWatch* fp_watch;

namespace loops {

// errstate's scan of outputs for infinities and NaNs, folded into the loops that write
// them: an exponent field of all ones plus its lowest bit carries into the sign bit, and
// only then, so OR-ing those sums (one word type per value type) is branch-free integer
// work that vectorizes with plain SSE2. `fp_bits<V>::U` is void where V is always finite.
template <class V> struct fp_bits {
  using U = void;
};
template <> struct fp_bits<ops::half> {
  using U = std::uint16_t;
  static constexpr U exp = 0x7c00;
};
template <> struct fp_bits<float> {
  using U = std::uint32_t;
  static constexpr U exp = 0x7f800000u;
};
template <> struct fp_bits<double> {
  using U = std::uint64_t;
  static constexpr U exp = 0x7ff0000000000000ull;
};
template <ops::Complex V> struct fp_bits<V> : fp_bits<decltype(V{}.re)> {};

// The accumulator of the scan over values of V (a dummy byte for types always finite).
template <class V> struct FiniteScan {
  using Bits = fp_bits<V>;
  using U = std::conditional_t<std::is_void_v<typename Bits::U>, unsigned char, typename Bits::U>;
  U acc = 0;
  void add(const V& v) {
    if constexpr (!std::is_void_v<typename Bits::U>) {
      constexpr U low = U(Bits::exp & (~Bits::exp + 1));
      U w[sizeof(V) / sizeof(U)];  // a complex number's two parts
      std::memcpy(w, &v, sizeof(V));
      for (U u : w) acc |= U((u & Bits::exp) + low);
    }
  }
  bool found() const {
    if constexpr (std::is_void_v<typename Bits::U>) return false;
    else return (acc & U(Bits::exp + (Bits::exp & (~Bits::exp + 1)))) != 0;
  }
};

// The vector function (vector_math.h: libmvec's, or a rounding instruction) that computes
// Op over float and double, or -1.
template <class Op> inline constexpr int vector_fn = -1;
#define COPPER_VECTOR_FN(op, fn) \
  template <> inline constexpr int vector_fn<ops::op> = static_cast<int>(vector_math::Fn::fn);
COPPER_VECTOR_FN(exp, exp) COPPER_VECTOR_FN(exp2, exp2) COPPER_VECTOR_FN(expm1, expm1)
COPPER_VECTOR_FN(log, log) COPPER_VECTOR_FN(log2, log2) COPPER_VECTOR_FN(log10, log10)
COPPER_VECTOR_FN(log1p, log1p) COPPER_VECTOR_FN(sin, sin) COPPER_VECTOR_FN(cos, cos)
COPPER_VECTOR_FN(tan, tan) COPPER_VECTOR_FN(arcsin, asin) COPPER_VECTOR_FN(arccos, acos)
COPPER_VECTOR_FN(arctan, atan) COPPER_VECTOR_FN(sinh, sinh) COPPER_VECTOR_FN(cosh, cosh)
COPPER_VECTOR_FN(tanh, tanh) COPPER_VECTOR_FN(arcsinh, asinh) COPPER_VECTOR_FN(arccosh, acosh)
COPPER_VECTOR_FN(arctanh, atanh) COPPER_VECTOR_FN(cbrt, cbrt)
COPPER_VECTOR_FN(floor, floor) COPPER_VECTOR_FN(ceil, ceil) COPPER_VECTOR_FN(trunc, trunc) COPPER_VECTOR_FN(rint, rint)
#undef COPPER_VECTOR_FN

template <class Op> inline constexpr int vector_fn2 = -1;
template <> inline constexpr int vector_fn2<ops::arctan2> = static_cast<int>(vector_math::Fn2::atan2);
template <> inline constexpr int vector_fn2<ops::hypot> = static_cast<int>(vector_math::Fn2::hypot);
template <> inline constexpr int vector_fn2<ops::power> = static_cast<int>(vector_math::Fn2::pow);

// Whether the loop of Op over T (N inputs, R stored) is one libmvec call per register.
// float16 (one input) goes through the float32 function, converted by the processor.
template <class Op, class T, int N, class R>
inline constexpr bool vectorized = (N == 1 ? vector_fn<Op> : N == 2 ? vector_fn2<Op> : -1) >= 0 &&
                                   (ops::is_same_v<T, float> || ops::is_same_v<T, double> ||
                                    (ops::is_same_v<T, ops::half> && N == 1)) &&
                                   ops::is_same_v<R, T> && ops::is_same_v<ops::op_input_t<Op, T, 0>, T> &&
                                   ops::is_same_v<ops::op_input_t<Op, T, N - 1>, T>;

// run()'s loop through vector_math for N = 1 or 2 inputs, in chunks: strided operands
// (broadcast scalars included: stride 0) are gathered to and scattered from buffers on the
// stack, so every element takes the same vector path. Keep as in run(); with Scan, `dirty`
// reports whether errstate must classify the run: some output is not finite, and, for one
// float input, its input was not NaN (a NaN carried through raises nothing, and data with
// missing values would otherwise be classified block after block). False (nothing done)
// where no vector form is loaded.
template <class Op, class T, int N, bool Scan, int Keep>
bool vector_run(char* out, std::int64_t os, std::array<const char*, N> in, std::array<std::int64_t, N> is,
                std::int64_t n, unsigned char* kept, bool& dirty) {
  constexpr std::int64_t chunk = 256, sz = sizeof(T);
  alignas(64) T in_buf[N][chunk], out_buf[chunk];
  // Input k's values of this chunk, dense: in place, or gathered into the kept copy or a buffer.
  auto dense = [&](int k, std::int64_t start, std::int64_t m) {
    const char* p = in[k] + start * is[k];
    T* gathered = Keep == k ? reinterpret_cast<T*>(kept) + start : in_buf[k];
    if (is[k] != sz) {
      for (std::int64_t i = 0; i < m; ++i) std::memcpy(gathered + i, p + i * is[k], sz);
      return static_cast<const T*>(gathered);
    }
    if (Keep == k) {
      std::memcpy(gathered, p, m * sz);  // before an in-place call overwrites it
      return static_cast<const T*>(gathered);
    }
    return reinterpret_cast<const T*>(p);
  };
  for (std::int64_t start = 0; start < n; start += chunk) {
    const std::int64_t m = std::min(chunk, n - start);
    T* dst = os == sz ? reinterpret_cast<T*>(out + start * os) : out_buf;
    bool done;
    const T* x = dense(0, start, m);  // still the input after the call (a kept copy where in place)
    if constexpr (ops::is_same_v<T, ops::half>)
      done = vector_math::apply(static_cast<vector_math::Fn>(vector_fn<Op>), reinterpret_cast<const std::uint16_t*>(x),
                                reinterpret_cast<std::uint16_t*>(dst), m);
    else if constexpr (N == 1)
      done = vector_math::apply(static_cast<vector_math::Fn>(vector_fn<Op>), x, dst, m);
    else
      done = vector_math::apply(static_cast<vector_math::Fn2>(vector_fn2<Op>), x, dense(1, start, m), dst, m);
    if (!done) return false;  // the same answer for every chunk: only the first
    if (dst == out_buf)
      for (std::int64_t i = 0; i < m; ++i) std::memcpy(out + (start + i) * os, dst + i, sz);
    if constexpr (Scan) {
      if constexpr (N == 1 && ops::Float<T> && !ops::fp::nan_input_invalid<Op>) {
        dirty = dirty || vector_math::any_non_finite_from_non_nan(dst, x, m);
      } else {
        FiniteScan<T> local;
        for (std::int64_t i = 0; i < m; ++i) local.add(dst[i]);
        dirty = dirty || local.found();
      }
    }
  }
  return true;
}

// |z| of complex values (cabs: hypot of the parts) through libmvec's hypot, the parts
// deinterleaved into buffers a chunk at a time; NumPy's abs of an FFT's output is the common
// case, and hypot one element at a time cost 10x NumPy's SIMD loop. Keep and `dirty` as in
// vector_run (an input is kept as complex values; any non-finite |z| is classified).
template <class T, class R, bool Scan, int Keep>
bool complex_abs_run(char* out, std::int64_t os, const char* in, std::int64_t is, std::int64_t n, unsigned char* kept,
                     bool& dirty) {
  constexpr std::int64_t chunk = 256;
  alignas(64) R re[chunk], im[chunk], res[chunk];
  for (std::int64_t start = 0; start < n; start += chunk) {
    const std::int64_t m = std::min(chunk, n - start);
    for (std::int64_t i = 0; i < m; ++i) {
      T z;
      std::memcpy(&z, in + (start + i) * is, sizeof(T));
      if constexpr (Keep == 0) std::memcpy(kept + (start + i) * sizeof(T), &z, sizeof(T));
      re[i] = z.re;
      im[i] = z.im;
    }
    if (!vector_math::apply(vector_math::Fn2::hypot, re, im, res, m)) return false;  // the same for every chunk
    for (std::int64_t i = 0; i < m; ++i) std::memcpy(out + (start + i) * os, &res[i], sizeof(R));
    if constexpr (Scan) {
      FiniteScan<R> local;
      for (std::int64_t i = 0; i < m; ++i) local.add(res[i]);
      dirty = dirty || local.found();
    }
  }
  return true;
}

// One 1-D run over operands (output, inputs..., second output): contiguous operands get
// a plain indexed loop the compiler vectorizes; a broadcast scalar (stride 0) is loaded
// once; anything else walks byte strides. Inputs have the loop's input types
// (ops::op_input_t: T, but ldexp's int64 exponent); ops::invoke widens float16.
// With Scan (errstate), it also returns whether some output is not finite; with Keep = k,
// it copies input k's values to the dense buffer `kept` as it reads them (an input the
// outputs overwrite, which the errors' classification may need).
// General skips the special blocks of frexp/ldexp (their fallback calls it).
template <class Op, class T, int N, int NOP, bool Scan = false, int Keep = -1, bool General = false>
bool run(std::array<char*, NOP> p, std::array<std::int64_t, NOP> s, std::int64_t n, unsigned char* kept = nullptr) {
  using R = ops::stored_result_t<Op, N, T>;
  using A = ops::op_input_t<Op, T, 0>;
  using B = ops::op_input_t<Op, T, (N >= 2 ? 1 : 0)>;
  using C = ops::op_input_t<Op, T, (N >= 3 ? 2 : 0)>;
  constexpr std::int64_t rs = sizeof(R), as = sizeof(A), bs = sizeof(B), cs = sizeof(C);
  R* o = reinterpret_cast<R*>(p[0]);
  const A* a = reinterpret_cast<const A*>(p[1]);
  auto at = [&]<class V>(int k, std::int64_t i) {
    const V v = load_element<V>(p[k] + i * s[k]);
    if constexpr (Keep >= 0)
      if (k - 1 == Keep) std::memcpy(kept + i * sizeof(V), &v, sizeof(V));
    return v;
  };
  // Contiguous input k's element i (kept when k is Keep).
  auto ld = [&]<int K, class V>(const V* v, std::int64_t i) {
    if constexpr (K == Keep) reinterpret_cast<V*>(kept)[i] = v[i];
    return load_element<V>(v + i);
  };
  FiniteScan<R> scan;
  auto put = [&](R& dst, R v) {
    dst = v;
    if constexpr (Scan) scan.add(v);
  };
  auto put_at = [&](std::int64_t i, R v) { put(*reinterpret_cast<R*>(p[0] + i * s[0]), v); };
  // frexp and ldexp of float32/float64 by exponent arithmetic, a block at a time; a block
  // with any zero, subnormal, non-finite or out-of-range element runs the loops below
  // (libm) instead. Every plain result is finite: nothing for errstate.
  if constexpr (!General && (ops::is_same_v<Op, ops::frexp> || ops::is_same_v<Op, ops::ldexp>) &&
                (ops::is_same_v<T, float> || ops::is_same_v<T, double>) && Keep < 0) {
    constexpr bool is_frexp = ops::is_same_v<Op, ops::frexp>;
    constexpr std::int64_t third = is_frexp ? sizeof(std::int32_t) : sizeof(std::int64_t);
    if constexpr (is_frexp) static_assert(ops::is_same_v<ops::stored_result2_t<Op, N, T>, std::int32_t>);
    if (s[0] == rs && s[1] == as && s[2] == third) {
      constexpr std::int64_t block = 256;
      alignas(64) T first[block];
      alignas(64) std::int32_t second[block];
      bool dirty = false;
      for (std::int64_t done = 0; done < n; done += block) {
        const std::int64_t m = std::min(block, n - done);
        bool plain;
        if constexpr (is_frexp) plain = exponent_bits::frexp_block(a + done, first, second, m);
        else plain = exponent_bits::ldexp_block(a + done, reinterpret_cast<const std::int64_t*>(p[2]) + done, first, m);
        if (plain) {
          std::memcpy(o + done, first, m * sizeof(T));
          if constexpr (is_frexp) std::memcpy(p[2] + done * third, second, m * third);
        } else {
          std::array<char*, NOP> q;
          for (int k = 0; k < NOP; ++k) q[k] = p[k] + done * s[k];
          dirty = run<Op, T, N, NOP, Scan, Keep, true>(q, s, m) || dirty;
        }
      }
      return dirty;
    }
  }
  if constexpr (NOP == N + 2) {  // two outputs: the second is the last operand
    using R2 = ops::stored_result2_t<Op, N, T>;
    auto* o2 = p[N + 1];
    FiniteScan<R2> scan2;
    for (std::int64_t i = 0; i < n; ++i) {
      R2 second;
      R first;
      if constexpr (N == 1) first = ops::invoke2<Op, R, R2>(second, at.template operator()<A>(1, i));
      else first = ops::invoke2<Op, R, R2>(second, at.template operator()<A>(1, i), at.template operator()<B>(2, i));
      put_at(i, first);
      *reinterpret_cast<R2*>(o2 + i * s[N + 1]) = second;
      if constexpr (Scan) scan2.add(second);
    }
    return scan.found() || scan2.found();
  } else if constexpr (N == 1) {
    if constexpr (vectorized<Op, T, N, R>)
      if (bool dirty = false; vector_run<Op, T, 1, Scan, Keep>(p[0], s[0], {p[1]}, {s[1]}, n, kept, dirty)) return dirty;
    if constexpr (ops::is_same_v<Op, ops::absolute> && ops::Complex<T> && ops::is_same_v<A, T>)
      if (bool dirty = false; complex_abs_run<T, R, Scan, Keep>(p[0], s[0], p[1], s[1], n, kept, dirty)) return dirty;
    if constexpr (ops::is_same_v<Op, ops::bitwise_count> && ops::Int<T> && sizeof(T) >= 4 && Keep < 0 && !Scan)
      if (s[0] == rs && s[1] == as && popcount::run(a, o, n)) return false;
    if (s[0] == rs && s[1] == as) {
      for (std::int64_t i = 0; i < n; ++i) put(o[i], ops::invoke<Op, R>(ld.template operator()<0>(a, i)));
    } else {
      for (std::int64_t i = 0; i < n; ++i) put_at(i, ops::invoke<Op, R>(at.template operator()<A>(1, i)));
    }
  } else if constexpr (N == 2) {
    // power with one exponent for the whole run (stride 0) of 2, 0.5 or -1 is x * x, sqrt(x)
    // or 1 / x, as NumPy's loop computes it (so power(-0.0, 0.5) is -0.0 and power(-inf,
    // 0.5) NaN there, where pow gives +0.0 and +inf), at the speed of those operations.
    if constexpr (ops::is_same_v<Op, ops::power> && (ops::is_same_v<T, float> || ops::is_same_v<T, double>) &&
                  ops::is_same_v<R, T> && ops::is_same_v<B, T> && Keep != 1) {
      if (s[2] == 0) {
        const T y = load_element<T>(p[2]);
        auto each = [&](auto f) {
          if (s[0] == rs && s[1] == as) {
            for (std::int64_t i = 0; i < n; ++i) put(o[i], f(ld.template operator()<0>(a, i)));
          } else {
            for (std::int64_t i = 0; i < n; ++i) put_at(i, f(at.template operator()<A>(1, i)));
          }
          return scan.found();
        };
        if (y == T(2)) return each([](T x) { return x * x; });
        if (y == T(0.5)) return each([](T x) { return std::sqrt(x); });
        if (y == T(-1)) return each([](T x) { return T(1) / x; });
      }
    }
    if constexpr (vectorized<Op, T, N, R>)
      if (bool dirty = false; vector_run<Op, T, 2, Scan, Keep>(p[0], s[0], {p[1], p[2]}, {s[1], s[2]}, n, kept, dirty))
        return dirty;
    const B* b = reinterpret_cast<const B*>(p[2]);
    if (s[0] == rs && s[1] == as && s[2] == bs) {
      for (std::int64_t i = 0; i < n; ++i)
        put(o[i], ops::invoke<Op, R>(ld.template operator()<0>(a, i), ld.template operator()<1>(b, i)));
    } else if (s[0] == rs && s[1] == as && s[2] == 0) {
      const B bv = load_element<B>(b);
      for (std::int64_t i = 0; i < n; ++i) put(o[i], ops::invoke<Op, R>(ld.template operator()<0>(a, i), bv));
    } else if (s[0] == rs && s[1] == 0 && s[2] == bs) {
      const A av = load_element<A>(a);
      for (std::int64_t i = 0; i < n; ++i) put(o[i], ops::invoke<Op, R>(av, ld.template operator()<1>(b, i)));
    } else {
      for (std::int64_t i = 0; i < n; ++i)
        put_at(i, ops::invoke<Op, R>(at.template operator()<A>(1, i), at.template operator()<B>(2, i)));
    }
  } else {
    const B* b = reinterpret_cast<const B*>(p[2]);
    const C* c = reinterpret_cast<const C*>(p[3]);
    if (s[0] == rs && s[1] == as && s[2] == bs && s[3] == cs) {
      for (std::int64_t i = 0; i < n; ++i)
        put(o[i], ops::invoke<Op, R>(ld.template operator()<0>(a, i), ld.template operator()<1>(b, i),
                                     ld.template operator()<2>(c, i)));
    } else if (s[0] == rs && s[1] == as && s[2] == 0 && s[3] == 0) {  // clip(x, lo, hi) with scalar bounds
      const B bv = load_element<B>(b);
      const C cv = load_element<C>(c);
      for (std::int64_t i = 0; i < n; ++i) put(o[i], ops::invoke<Op, R>(ld.template operator()<0>(a, i), bv, cv));
    } else {
      for (std::int64_t i = 0; i < n; ++i)
        put_at(i, ops::invoke<Op, R>(at.template operator()<A>(1, i), at.template operator()<B>(2, i),
                                     at.template operator()<C>(3, i)));
    }
  }
  return scan.found();
}

// Whether the loop of Op over T can raise floating-point errors (errstate): an inexact
// result, or an integer division.
template <class Op, class T, int N>
inline constexpr bool can_flag = [] {
  using R = ops::stored_result_t<Op, N, T>;
  return ops::Float<R> || ops::Complex<R> || ops::is_same_v<R, ops::half> ||
         (N == 2 && ops::fp::is_int_division<Op> && ops::Int<T>);
}();

template <class V> V load_at(const char* base, std::int64_t stride, std::int64_t i) {
  return load_element<V>(base + i * stride);
}

// The floating-point errors of elements [0, n) that run() found some non-finite output in:
// outputs at p[0] (and p[N + 1]), the inputs the op read at in[k] with strides is[k].
template <class Op, class T, int N, int NOP>
unsigned classify_block(const std::array<char*, NOP>& p, const std::array<std::int64_t, NOP>& s,
                        const std::array<const char*, 3>& in, const std::array<std::int64_t, 3>& is, std::int64_t n) {
  using R = ops::stored_result_t<Op, N, T>;
  using A = ops::op_input_t<Op, T, 0>;
  using B = ops::op_input_t<Op, T, (N >= 2 ? 1 : 0)>;
  using C = ops::op_input_t<Op, T, (N >= 3 ? 2 : 0)>;
  auto check = [&]<class V>(const char* out, std::int64_t os, std::int64_t i) {
    const V r = load_at<V>(out, os, i);
    if (ops::fp::all_finite(r)) return 0u;
    if constexpr (N == 1) return ops::fp::classify<Op>(r, load_at<A>(in[0], is[0], i));
    else if constexpr (N == 2) return ops::fp::classify<Op>(r, load_at<A>(in[0], is[0], i), load_at<B>(in[1], is[1], i));
    else return ops::fp::classify<Op>(r, load_at<A>(in[0], is[0], i), load_at<B>(in[1], is[1], i),
                                      load_at<C>(in[2], is[2], i));
  };
  unsigned bits = 0;
  if constexpr (NOP == N + 1 && ops::Float<R>) {
    // Branch-free; with every operand dense (the strides constants) GCC vectorizes it for
    // float32 (float64 would need SSE2's missing 64-bit compares).
    auto real = [&]<bool Dense>() {
      auto st = [&](std::int64_t stride, std::int64_t size) { return Dense ? size : stride; };
      unsigned acc = 0;
      for (std::int64_t i = 0; i < n; ++i) {
        const R r = load_at<R>(p[0], st(s[0], sizeof(R)), i);
        const A a = load_at<A>(in[0], st(is[0], sizeof(A)), i);
        if constexpr (N == 1) acc |= ops::fp::classify_real<Op>(r, a);
        else if constexpr (N == 2) acc |= ops::fp::classify_real<Op>(r, a, load_at<B>(in[1], st(is[1], sizeof(B)), i));
        else
          acc |= ops::fp::classify_real<Op>(r, a, load_at<B>(in[1], st(is[1], sizeof(B)), i),
                                            load_at<C>(in[2], st(is[2], sizeof(C)), i));
      }
      return acc;
    };
    bool dense = s[0] == static_cast<std::int64_t>(sizeof(R)) && is[0] == static_cast<std::int64_t>(sizeof(A));
    if constexpr (N >= 2) dense = dense && is[1] == static_cast<std::int64_t>(sizeof(B));
    if constexpr (N >= 3) dense = dense && is[2] == static_cast<std::int64_t>(sizeof(C));
    return dense ? real.template operator()<true>() : real.template operator()<false>();
  }
  for (std::int64_t i = 0; i < n; ++i) {
    bits |= check.template operator()<R>(p[0], s[0], i);
    if constexpr (NOP == N + 2) bits |= check.template operator()<ops::stored_result2_t<Op, N, T>>(p[N + 1], s[N + 1], i);
  }
  return bits;
}

// Integer division's flag: some divisor (the second input) is zero. u | -u has its top bit
// set unless u is 0: AND-ing those bits is a loop of SSE2 integer operations (which have no
// 64-bit comparison).
template <class B> unsigned zero_divisor(const char* p, std::int64_t s, std::int64_t n) {
  using U = std::make_unsigned_t<B>;
  constexpr int top = sizeof(U) * 8 - 1;
  U nonzero = 1;
  auto test = [&](B v) {
    const U u = static_cast<U>(v);
    nonzero &= static_cast<U>(static_cast<U>(u | static_cast<U>(U(0) - u)) >> top);
  };
  if (s == static_cast<std::int64_t>(sizeof(B))) {
    const B* b = reinterpret_cast<const B*>(p);
    for (std::int64_t i = 0; i < n; ++i) test(b[i]);
  } else {
    for (std::int64_t i = 0; i < n; ++i) test(load_at<B>(p, s, i));
  }
  return nonzero ? 0u : ops::fp::divide_by_zero;
}

// Copies n elements of V from a strided run to a dense buffer.
template <class V> void save_run(unsigned char* dst, const char* src, std::int64_t stride, std::int64_t n) {
  if (stride == static_cast<std::int64_t>(sizeof(V))) std::memcpy(dst, src, n * sizeof(V));
  else
    for (std::int64_t i = 0; i < n; ++i) std::memcpy(dst + i * sizeof(V), src + i * stride, sizeof(V));
}

// run() with errstate's flags, block by block so that whatever the check re-reads is still
// in cache. The loop's own scan says whether a block has a non-finite output; only then
// are its elements classified against the inputs the op read. An input the op overwrites
// (x += y: same address and stride as an output) is copied by the loop as it reads it to a
// buffer on the stack, one block at a time. Integer division tests each block's divisors
// before dividing.
template <class Op, class T, int N, int NOP>
unsigned checked_run(std::array<char*, NOP> p, std::array<std::int64_t, NOP> s, std::int64_t n) {
  using A = ops::op_input_t<Op, T, 0>;
  using B = ops::op_input_t<Op, T, (N >= 2 ? 1 : 0)>;
  using C = ops::op_input_t<Op, T, (N >= 3 ? 2 : 0)>;
  constexpr bool int_division = N == 2 && ops::fp::is_int_division<Op> && ops::Int<T>;
  constexpr std::int64_t block = 1024;
  constexpr int out2 = NOP == N + 2 ? N + 1 : 0;  // the second output, else the first again
  std::array<bool, 3> aliased{};
  for (int k = 0; k < N && !int_division; ++k)
    aliased[k] = (p[k + 1] == p[0] && s[k + 1] == s[0]) || (p[k + 1] == p[out2] && s[k + 1] == s[out2]);
  alignas(64) unsigned char saved_a[int_division ? 1 : block * sizeof(A)];
  alignas(64) unsigned char saved_b[int_division || N < 2 ? 1 : block * sizeof(B)];
  alignas(64) unsigned char saved_c[N < 3 ? 1 : block * sizeof(C)];
  unsigned char* const saved[3] = {saved_a, saved_b, saved_c};
  constexpr std::size_t sizes[3] = {sizeof(A), sizeof(B), sizeof(C)};
  unsigned bits = 0;
  for (std::int64_t start = 0; start < n; start += block) {
    const std::int64_t m = std::min(block, n - start);
    std::array<char*, NOP> q;
    for (int k = 0; k < NOP; ++k) q[k] = p[k] + start * s[k];
    if constexpr (int_division) {
      bits |= zero_divisor<B>(q[2], s[2], m);  // read before an in-place op overwrites it
      run<Op, T, N, NOP>(q, s, m);
      continue;
    } else {
      std::array<const char*, 3> in{};
      std::array<std::int64_t, 3> is{};
      for (int k = 0; k < N; ++k) {
        in[k] = q[k + 1];
        is[k] = s[k + 1];
      }
      // The first overwritten input is kept by the loop itself as it reads it; another one
      // (x * x reads x twice) shares that copy, or else is copied before the loop.
      int keep = -1;
      for (int k = N - 1; k >= 0; --k)
        if (aliased[k]) keep = k;
      auto place = [&]<class V>(int k) {
        if (!aliased[k]) return;
        in[k] = reinterpret_cast<const char*>(saved[k]);
        is[k] = sizeof(V);
        if (k == keep) return;
        if (q[k + 1] == q[keep + 1] && s[k + 1] == s[keep + 1] && sizeof(V) == sizes[keep]) in[k] = in[keep];
        else save_run<V>(saved[k], q[k + 1], s[k + 1], m);
      };
      place.template operator()<A>(0);
      if constexpr (N >= 2) place.template operator()<B>(1);
      if constexpr (N >= 3) place.template operator()<C>(2);
      bool dirty = false;
      switch (keep) {
        case -1: dirty = run<Op, T, N, NOP, true>(q, s, m); break;
        case 0: dirty = run<Op, T, N, NOP, true, 0>(q, s, m, saved[0]); break;
        case 1: if constexpr (N >= 2) dirty = run<Op, T, N, NOP, true, 1>(q, s, m, saved[1]); break;
        default: if constexpr (N >= 3) dirty = run<Op, T, N, NOP, true, 2>(q, s, m, saved[2]); break;
      }
      if (dirty) bits |= classify_block<Op, T, N, NOP>(q, s, in, is, m);
    }
  }
  return bits;
}

// One run, checked for errstate's flags when the calling op watches them.
template <class Op, class T, int N, int NOP>
void watched_run(FpWatch* watch, std::array<char*, NOP> p, std::array<std::int64_t, NOP> s, std::int64_t n) {
  if constexpr (can_flag<Op, T, N>) {
    if (watch) {
      if (unsigned bits = checked_run<Op, T, N, NOP>(p, s, n)) watch->found.fetch_or(bits, std::memory_order_relaxed);
      return;
    }
  }
  run<Op, T, N, NOP>(p, s, n);
}

// Whether every output is C-contiguous and every input either laid out the same way
// or a broadcast scalar (all strides 0): then the whole call is one flat run, with no
// layout work. `zero[k]` reports which operands are broadcast scalars.
template <int NOP>
bool is_flat(const std::array<const ArrayView*, NOP>& v, int nout_first, std::array<bool, NOP>& zero) {
  const Shape& shape = v[0]->shape;
  for (int k = 0; k < NOP; ++k) {
    const std::int64_t isz = itemsize(v[k]->dtype);
    bool all_zero = true, dense = true;
    std::int64_t step = isz;
    for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
      if (shape[d] == 1) continue;
      all_zero = all_zero && v[k]->strides[d] == 0;
      dense = dense && v[k]->strides[d] == step;
      step *= shape[d];
    }
    const bool is_output = k == 0 || k >= nout_first;
    zero[k] = all_zero && !dense;
    if (!dense && (is_output || !all_zero)) return false;
  }
  return true;
}

// The loop of Op over T: operands are the first output, the inputs, then the second
// output of two-output ops.
template <class Op, class T, int N>
void elementwise(std::span<const ArrayView> in, std::span<const ArrayView> out) {
  constexpr int NOP = N + ops::nout_v<Op, N, T>;
  std::array<const ArrayView*, NOP> views;
  views[0] = &out[0];
  for (int k = 0; k < N; ++k) views[k + 1] = &in[k];
  if constexpr (NOP == N + 2) views[N + 1] = &out[1];
  std::array<bool, NOP> zero{};
  FpWatch* const watch = fp_watch;  // the calling thread's; workers get it by capture
  if (is_flat<NOP>(views, N + 1, zero)) {
    std::int64_t total = 1;
    for (auto d : out[0].shape) total *= d;
    std::array<std::int64_t, NOP> s;
    for (int k = 0; k < NOP; ++k) s[k] = zero[k] && total > 1 ? 0 : itemsize(views[k]->dtype);
    auto flat_range = [&](std::int64_t begin, std::int64_t end) {
      std::array<char*, NOP> p;
      for (int k = 0; k < NOP; ++k) p[k] = static_cast<char*>(views[k]->data) + begin * s[k];
      watched_run<Op, T, N, NOP>(watch, p, s, end - begin);
    };
    if (total <= parallel_grain) flat_range(0, total);
    else parallel_for(total, parallel_grain, flat_range);
    return;
  }
  std::array<const Strides*, NOP> strides;
  std::array<char*, NOP> base;
  for (int k = 0; k < NOP; ++k) {
    strides[k] = &views[k]->strides;
    base[k] = static_cast<char*>(views[k]->data);
  }
  for_each_run<NOP>(out[0].shape, strides, base,
                    [watch](std::array<char*, NOP> p, std::array<std::int64_t, NOP> s, std::int64_t n) {
                      watched_run<Op, T, N, NOP>(watch, p, s, n);
                    });
}

// The sequential fold (see Backend::fold): one task per (kept element, segment), each
// walking its stretch of the last axis in order.
template <class Op, class T>
void fold(const ArrayView& in, const ArrayView& out, const FoldOptions& o) {
  const int kd = static_cast<int>(in.shape.size()) - 1;
  const std::int64_t n = in.shape.back(), in_step = in.strides.back();
  const std::int64_t w_step = o.where ? o.where->strides.back() : 0;
  const std::int64_t nseg = o.segments ? o.segments->shape[0] : 1;
  const auto* seg = o.segments ? static_cast<const std::int64_t*>(o.segments->data) : nullptr;
  const std::int64_t out_step = o.scan || o.segments ? out.strides.back() : 0;
  std::int64_t kept = 1;
  for (int d = 0; d < kd; ++d) kept *= in.shape[d];
  auto work = [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t t = begin; t < end; ++t) {
      const std::int64_t j = t % nseg;
      std::int64_t k = t / nseg, oi = 0, oo = 0, ow = 0;
      for (int d = kd - 1; d >= 0; --d) {
        const std::int64_t i = k % in.shape[d];
        k /= in.shape[d];
        oi += i * in.strides[d];
        oo += i * out.strides[d];
        if (o.where) ow += i * o.where->strides[d];
      }
      const char* pin = static_cast<const char*>(in.data) + oi;
      const char* pw = o.where ? static_cast<const char*>(o.where->data) + ow : nullptr;
      char* po = static_cast<char*>(out.data) + oo + (o.segments ? j * out_step : 0);
      const std::int64_t start = seg ? seg[2 * j] : 0, stop = seg ? seg[2 * j + 1] : n;
      bool have = o.from_out;
      T acc = have ? load_element<T>(po) : T{};
      for (std::int64_t i = start; i < stop; ++i) {
        if (pw && !load_element<bool>(pw + i * w_step)) continue;
        const T x = load_element<T>(pin + i * in_step);
        acc = have ? ops::invoke<Op, T>(acc, x) : x;
        have = true;
        if (o.scan) *reinterpret_cast<T*>(po + i * out_step) = acc;
      }
      if (!o.scan && have) *reinterpret_cast<T*>(po) = acc;
    }
  };
  const std::int64_t tasks = kept * nseg;
  if (tasks * n <= parallel_grain) work(0, tasks);
  else parallel_for(tasks, std::max<std::int64_t>(1, parallel_grain / std::max<std::int64_t>(n, 1)), work);
}

template <class Op, int N, class T>
constexpr FoldFn fold_for() {
  if constexpr (N == 2 && ops::has_loop<Op, N, T>) {
    if constexpr (ops::nout_v<Op, N, T> == 1 && ops::is_same_v<ops::op_input_t<Op, T, 1>, T> &&
                  ops::is_same_v<ops::stored_result_t<Op, N, T>, T>)
      return &fold<Op, T>;
  }
  return nullptr;
}

template <class Op, int N, class T>
constexpr LoopFn loop_for() {
  if constexpr (ops::has_loop<Op, N, T>) return &elementwise<Op, T, N>;
  else return nullptr;
}

template <class Op, int N, class... T>
void add_op(LoopTable& table, ops::UfuncId id, ops::type_list<T...>) {
  LoopFn fns[] = {loop_for<Op, N, T>()...};
  FoldFn folds[] = {fold_for<Op, N, T>()...};
  for (int d = 0; d < num_dtypes; ++d) {
    table.fn[static_cast<int>(id)][d] = fns[d];
    table.fold[static_cast<int>(id)][d] = folds[d];
  }
}

}  // namespace loops

// Registers every loop of one op with n inputs: COPPER_ADD_OP_LOOPS(table, 2, add).
#define COPPER_ADD_OP_LOOPS(table, n, name) \
  ::copper::backend::cpu::loops::add_op<::copper::ops::name, n>(table, ::copper::ops::UfuncId::name, ::copper::ops::all_types{});

}  // namespace copper::backend::cpu
