// The CPU elementwise kernels: one strided loop per (op functor, loop type), kept in a
// table of function pointers indexed [op][dtype]. Each family file (arithmetic, math,
// comparison, ...) instantiates its own ops, so no single file compiles for minutes.
#pragma once
#include <array>
#include <span>

#include "backend/cpu/strided_loop.h"
#include "ops/catalogue.h"
#include "ops/dtype_traits.h"
#include "ops/functor_traits.h"
#include "ops/scalar_ops.h"

namespace copper::backend::cpu {

using LoopFn = void (*)(std::span<const ArrayView> in, const ArrayView& out);
struct LoopTable {
  LoopFn fn[ops::num_ufuncs][num_dtypes] = {};
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
void add_floating_loops(LoopTable& table);  // signbit, copysign, nextafter, logaddexp(2)

namespace loops {

// float16 is stored as bits and computed in float32: convert at load and store only.
template <class T>
inline ops::compute_t<T> load(T v) {
  if constexpr (ops::is_same_v<T, ops::half>) return ops::half_to_float(v);
  else return v;
}
template <class R, class V>
inline R store(V v) {
  if constexpr (ops::is_same_v<R, ops::half>) return ops::float_to_half(v);
  else return v;
}

// One 1-D run: contiguous operands get a plain indexed loop the compiler vectorizes;
// a broadcast scalar (stride 0) is loaded once; anything else walks byte strides.
template <class Op, class T, int N>
void run(std::array<char*, N + 1> p, std::array<std::int64_t, N + 1> s, std::int64_t n) {
  using R = ops::stored_result_t<Op, N, T>;
  constexpr std::int64_t ts = sizeof(T), rs = sizeof(R);
  R* o = reinterpret_cast<R*>(p[0]);
  const T* a = reinterpret_cast<const T*>(p[1]);
  if constexpr (N == 1) {
    if (s[0] == rs && s[1] == ts) {
      for (std::int64_t i = 0; i < n; ++i) o[i] = store<R>(Op::call(load(a[i])));
    } else {
      for (std::int64_t i = 0; i < n; ++i)
        *reinterpret_cast<R*>(p[0] + i * s[0]) = store<R>(Op::call(load(*reinterpret_cast<const T*>(p[1] + i * s[1]))));
    }
  } else if constexpr (N == 2) {
    const T* b = reinterpret_cast<const T*>(p[2]);
    if (s[0] == rs && s[1] == ts && s[2] == ts) {
      for (std::int64_t i = 0; i < n; ++i) o[i] = store<R>(Op::call(load(a[i]), load(b[i])));
    } else if (s[0] == rs && s[1] == ts && s[2] == 0) {
      const auto bv = load(*b);
      for (std::int64_t i = 0; i < n; ++i) o[i] = store<R>(Op::call(load(a[i]), bv));
    } else if (s[0] == rs && s[1] == 0 && s[2] == ts) {
      const auto av = load(*a);
      for (std::int64_t i = 0; i < n; ++i) o[i] = store<R>(Op::call(av, load(b[i])));
    } else {
      for (std::int64_t i = 0; i < n; ++i)
        *reinterpret_cast<R*>(p[0] + i * s[0]) = store<R>(Op::call(load(*reinterpret_cast<const T*>(p[1] + i * s[1])),
                                                                   load(*reinterpret_cast<const T*>(p[2] + i * s[2]))));
    }
  } else {
    const T* b = reinterpret_cast<const T*>(p[2]);
    const T* c = reinterpret_cast<const T*>(p[3]);
    if (s[0] == rs && s[1] == ts && s[2] == ts && s[3] == ts) {
      for (std::int64_t i = 0; i < n; ++i) o[i] = store<R>(Op::call(load(a[i]), load(b[i]), load(c[i])));
    } else if (s[0] == rs && s[1] == ts && s[2] == 0 && s[3] == 0) {  // clip(x, lo, hi) with scalar bounds
      const auto bv = load(*b), cv = load(*c);
      for (std::int64_t i = 0; i < n; ++i) o[i] = store<R>(Op::call(load(a[i]), bv, cv));
    } else {
      for (std::int64_t i = 0; i < n; ++i)
        *reinterpret_cast<R*>(p[0] + i * s[0]) = store<R>(Op::call(load(*reinterpret_cast<const T*>(p[1] + i * s[1])),
                                                                   load(*reinterpret_cast<const T*>(p[2] + i * s[2])),
                                                                   load(*reinterpret_cast<const T*>(p[3] + i * s[3]))));
    }
  }
}

// Whether every operand is either laid out like the C-contiguous output or a broadcast
// scalar (all strides 0): then the whole call is one flat run, with no layout work.
inline bool is_flat(std::span<const ArrayView> in, const ArrayView& out, std::int64_t out_itemsize) {
  std::int64_t expected = out_itemsize;
  for (int d = static_cast<int>(out.shape.size()) - 1; d >= 0; --d) {
    if (out.shape[d] != 1 && out.strides[d] != expected) return false;
    expected *= out.shape[d];
  }
  for (const ArrayView& v : in) {
    const std::int64_t isz = itemsize(v.dtype);
    bool zero = true, dense = true;
    std::int64_t step = isz;
    for (int d = static_cast<int>(out.shape.size()) - 1; d >= 0; --d) {
      if (out.shape[d] == 1) continue;
      zero = zero && v.strides[d] == 0;
      dense = dense && v.strides[d] == step;
      step *= out.shape[d];
    }
    if (!zero && !dense) return false;
  }
  return true;
}

template <class Op, class T, int N>
void elementwise(std::span<const ArrayView> in, const ArrayView& out) {
  using R = ops::stored_result_t<Op, N, T>;
  if (is_flat(in, out, sizeof(R))) {
    std::int64_t total = 1;
    for (auto d : out.shape) total *= d;
    std::array<std::int64_t, N + 1> s;
    s[0] = sizeof(R);
    for (int k = 0; k < N; ++k) {
      bool zero = true;
      for (auto st : in[k].strides) zero = zero && st == 0;
      s[k + 1] = zero && total > 1 ? 0 : std::int64_t{sizeof(T)};
    }
    auto flat_range = [&](std::int64_t begin, std::int64_t end) {
      std::array<char*, N + 1> p;
      p[0] = static_cast<char*>(out.data) + begin * s[0];
      for (int k = 0; k < N; ++k) p[k + 1] = static_cast<char*>(in[k].data) + begin * s[k + 1];
      run<Op, T, N>(p, s, end - begin);
    };
    if (total <= parallel_grain) flat_range(0, total);
    else parallel_for(total, parallel_grain, flat_range);
    return;
  }
  std::array<const Strides*, N + 1> strides;
  std::array<char*, N + 1> base;
  strides[0] = &out.strides;
  base[0] = static_cast<char*>(out.data);
  for (int k = 0; k < N; ++k) {
    strides[k + 1] = &in[k].strides;
    base[k + 1] = static_cast<char*>(in[k].data);
  }
  for_each_run<N + 1>(out.shape, strides, base, run<Op, T, N>);
}

template <class Op, int N, class T>
constexpr LoopFn loop_for() {
  if constexpr (ops::has_loop<Op, N, T>) return &elementwise<Op, T, N>;
  else return nullptr;
}

template <class Op, int N, class... T>
void add_op(LoopTable& table, ops::UfuncId id, ops::type_list<T...>) {
  LoopFn fns[] = {loop_for<Op, N, T>()...};
  for (int d = 0; d < num_dtypes; ++d) table.fn[static_cast<int>(id)][d] = fns[d];
}

}  // namespace loops

// Registers every loop of one op with n inputs: COPPER_ADD_OP_LOOPS(table, 2, add).
#define COPPER_ADD_OP_LOOPS(table, n, name) \
  ::copper::backend::cpu::loops::add_op<::copper::ops::name, n>(table, ::copper::ops::UfuncId::name, ::copper::ops::all_types{});

}  // namespace copper::backend::cpu
