// Evaluates the functors of src/ops/scalar_ops.h on inputs written by
// tests/python/scalar_ops_oracle.py, which compares the results with NumPy.
//
//   g++ -std=c++20 -O1 -I src tests/cpp/scalar_ops_check.cpp -o scalar_ops_check
//   scalar_ops_check types          # per op and dtype: output dtype, or '-' if unsupported
//   scalar_ops_check eval IN OUT    # IN: records "op dtype n\n" + n*arity raw inputs (arg-major)
//                                   # OUT: records "op dtype outdtype n\n" + n raw outputs
// float16 is evaluated as the loops do it: inputs widened to float32, the
// float32 functor called, a float32 result rounded back to float16.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "../../include/copper/ufunc_list.hpp"
#include "ops/scalar_ops.h"

using namespace copper::ops;

template <class T> constexpr const char* dtype_name = "?";
template <> constexpr const char* dtype_name<bool> = "bool";
template <> constexpr const char* dtype_name<int8_t> = "int8";
template <> constexpr const char* dtype_name<uint8_t> = "uint8";
template <> constexpr const char* dtype_name<int16_t> = "int16";
template <> constexpr const char* dtype_name<uint16_t> = "uint16";
template <> constexpr const char* dtype_name<int32_t> = "int32";
template <> constexpr const char* dtype_name<uint32_t> = "uint32";
template <> constexpr const char* dtype_name<int64_t> = "int64";
template <> constexpr const char* dtype_name<uint64_t> = "uint64";
template <> constexpr const char* dtype_name<half> = "float16";
template <> constexpr const char* dtype_name<float> = "float32";
template <> constexpr const char* dtype_name<double> = "float64";
template <> constexpr const char* dtype_name<complex64> = "complex64";
template <> constexpr const char* dtype_name<complex128> = "complex128";

template <class... T> struct types {};
using storage_types = types<bool, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t, half,
                            float, double, complex64, complex128>;

template <class T> T make();

// Whether Op has a loop for T (float16 through float32), and the stored output type.
template <class Op, int N, class C> constexpr bool supports() {
  if constexpr (N == 1) return requires { Op::call(make<C>()); };
  else if constexpr (N == 2) return requires { Op::call(make<C>(), make<C>()); };
  else return requires { Op::call(make<C>(), make<C>(), make<C>()); };
}
template <class Op, int N, class C> auto result_of() {
  if constexpr (N == 1) return Op::call(make<C>());
  else if constexpr (N == 2) return Op::call(make<C>(), make<C>());
  else return Op::call(make<C>(), make<C>(), make<C>());
}
template <class T, class R> struct stored { using type = R; };
template <> struct stored<half, float> { using type = half; };

template <class T> compute_t<T> widen(T x) {
  if constexpr (is_same_v<T, half>) return half_to_float(x);
  else return x;
}
template <class O, class R> O narrow(R r) {
  if constexpr (is_same_v<O, half>) return float_to_half(r);
  else return r;
}

template <class Op, int N, class T>
void eval_one(const char* op, std::FILE* in, std::FILE* out, size_t n) {
  std::unique_ptr<T[]> args[N];  // not std::vector: vector<bool> has no data()
  for (int k = 0; k < N; ++k) {
    args[k].reset(new T[n + 1]);
    if (n && std::fread(args[k].get(), sizeof(T), n, in) != n) {
      std::fprintf(stderr, "short read for %s %s\n", op, dtype_name<T>);
      std::exit(2);
    }
  }
  using C = compute_t<T>;
  if constexpr (supports<Op, N, C>()) {
    using R = decltype(result_of<Op, N, C>());
    using O = typename stored<T, R>::type;
    std::unique_ptr<O[]> res(new O[n + 1]);
    for (size_t i = 0; i < n; ++i) {
      if constexpr (N == 1) res[i] = narrow<O>(Op::call(widen(args[0][i])));
      else if constexpr (N == 2) res[i] = narrow<O>(Op::call(widen(args[0][i]), widen(args[1][i])));
      else res[i] = narrow<O>(Op::call(widen(args[0][i]), widen(args[1][i]), widen(args[2][i])));
    }
    std::fprintf(out, "%s %s %s %zu\n", op, dtype_name<T>, dtype_name<O>, n);
    if (n) std::fwrite(res.get(), sizeof(O), n, out);
  } else {
    std::fprintf(out, "%s %s unsupported 0\n", op, dtype_name<T>);
  }
}

template <class Op, int N, class... T>
bool eval_dispatch(const char* op, const std::string& dtype, std::FILE* in, std::FILE* out, size_t n, types<T...>) {
  return ((dtype == dtype_name<T> ? (eval_one<Op, N, T>(op, in, out, n), true) : false) || ...);
}

template <class Op, int N, class... T>
void print_types(const char* op, types<T...>) {
  ((std::printf("%s %s %s\n", op, dtype_name<T>, [] {
     using C = compute_t<T>;
     if constexpr (supports<Op, N, C>()) return dtype_name<typename stored<T, decltype(result_of<Op, N, C>())>::type>;
     else return "-";
   }())),
   ...);
}

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "types") == 0) {
#define COPPER_T1(name) print_types<ops::name, 1>(#name, storage_types{});
#define COPPER_T2(name) print_types<ops::name, 2>(#name, storage_types{});
#define COPPER_T3(name) print_types<ops::name, 3>(#name, storage_types{});
    namespace ops = copper::ops;
    COPPER_UNARY_UFUNCS(COPPER_T1) COPPER_BINARY_UFUNCS(COPPER_T2) COPPER_TERNARY_UFUNCS(COPPER_T3)
    return 0;
  }
  if (argc != 4 || std::strcmp(argv[1], "eval") != 0) {
    std::fprintf(stderr, "usage: %s types | eval IN OUT\n", argv[0]);
    return 2;
  }
  std::FILE* in = std::fopen(argv[2], "rb");
  std::FILE* out = std::fopen(argv[3], "wb");
  if (!in || !out) {
    std::perror("open");
    return 2;
  }
  char op[64], dtype[32];
  size_t n;
  while (std::fscanf(in, "%63s %31s %zu", op, dtype, &n) == 3) {
    std::fgetc(in);  // the newline before the raw data
    std::string name = op, dt = dtype;
    bool found = false;
    namespace ops = copper::ops;
#define COPPER_E(name_, N)                                                           \
  if (!found && name == #name_) {                                                    \
    found = true;                                                                    \
    if (!eval_dispatch<ops::name_, N>(op, dt, in, out, n, storage_types{})) {        \
      std::fprintf(stderr, "unknown dtype %s\n", dtype);                             \
      return 2;                                                                      \
    }                                                                                \
  }
#define COPPER_E1(name_) COPPER_E(name_, 1)
#define COPPER_E2(name_) COPPER_E(name_, 2)
#define COPPER_E3(name_) COPPER_E(name_, 3)
    COPPER_UNARY_UFUNCS(COPPER_E1) COPPER_BINARY_UFUNCS(COPPER_E2) COPPER_TERNARY_UFUNCS(COPPER_E3)
    if (!found) {
      std::fprintf(stderr, "unknown op %s\n", op);
      return 2;
    }
  }
  std::fclose(out);
  return 0;
}
