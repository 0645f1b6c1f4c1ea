// Evaluates the functors of src/ops/scalar_ops.h on inputs written by
// tests/python/scalar_ops_oracle.py, which compares the results with NumPy.
//
//   g++ -std=c++20 -O1 -I src tests/cpp/scalar_ops_check.cpp -o scalar_ops_check
//   scalar_ops_check types          # per op and dtype: input and output dtypes, or '- -'
//   scalar_ops_check eval IN OUT    # IN: records "op dtype n\n" + n raw values per input (arg-major,
//                                   #     each in its input dtype)
//                                   # OUT: records "op dtype outdtypes n\n" + n raw values per output
// float16 is evaluated as the loops do it: inputs widened to float32, the
// float32 functor called, a float32 result rounded back to float16.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "../../include/copper/ufunc_list.hpp"
#include "ops/functor_traits.h"
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

// Loops, input types, outputs and float16 handling as the backends see them.
template <class Op, int N, class T> constexpr bool supports() { return has_loop<Op, N, T>; }

template <class Op, int N, class T, int K> using in_t = op_input_t<Op, T, (K < N ? K : 0)>;

template <class Op, int N, class T>
void eval_one(const char* op, std::FILE* in, std::FILE* out, size_t n) {
  using A = in_t<Op, N, T, 0>;
  using B = in_t<Op, N, T, 1>;
  using C = in_t<Op, N, T, 2>;
  std::unique_ptr<A[]> a(new A[n + 1]);  // not std::vector: vector<bool> has no data()
  std::unique_ptr<B[]> b(new B[n + 1]);
  std::unique_ptr<C[]> c(new C[n + 1]);
  auto read = [&](void* dst, size_t size) {
    if (n && std::fread(dst, size, n, in) != n) {
      std::fprintf(stderr, "short read for %s %s\n", op, dtype_name<T>);
      std::exit(2);
    }
  };
  read(a.get(), sizeof(A));
  if (N > 1) read(b.get(), sizeof(B));
  if (N > 2) read(c.get(), sizeof(C));
  if constexpr (supports<Op, N, T>()) {
    using O = stored_result_t<Op, N, T>;
    using O2 = stored_result2_t<Op, N, T>;
    constexpr bool two = nout_v<Op, N, T> == 2;
    std::unique_ptr<O[]> res(new O[n + 1]);
    std::unique_ptr<O2[]> res2(new O2[n + 1]);
    for (size_t i = 0; i < n; ++i) {
      if constexpr (two) {
        if constexpr (N == 1) res[i] = invoke2<Op, O, O2>(res2[i], a[i]);
        else res[i] = invoke2<Op, O, O2>(res2[i], a[i], b[i]);
      } else if constexpr (N == 1) {
        res[i] = invoke<Op, O>(a[i]);
      } else if constexpr (N == 2) {
        res[i] = invoke<Op, O>(a[i], b[i]);
      } else {
        res[i] = invoke<Op, O>(a[i], b[i], c[i]);
      }
    }
    if constexpr (two) std::fprintf(out, "%s %s %s,%s %zu\n", op, dtype_name<T>, dtype_name<O>, dtype_name<O2>, n);
    else std::fprintf(out, "%s %s %s %zu\n", op, dtype_name<T>, dtype_name<O>, n);
    if (n) std::fwrite(res.get(), sizeof(O), n, out);
    if (two && n) std::fwrite(res2.get(), sizeof(O2), n, out);
  } else {
    std::fprintf(out, "%s %s unsupported 0\n", op, dtype_name<T>);
  }
}

template <class Op, int N, class... T>
bool eval_dispatch(const char* op, const std::string& dtype, std::FILE* in, std::FILE* out, size_t n, types<T...>) {
  return ((dtype == dtype_name<T> ? (eval_one<Op, N, T>(op, in, out, n), true) : false) || ...);
}

// "op dtype inputs outputs": inputs and outputs comma-separated, '-' when no loop.
template <class Op, int N, class T> void print_type(const char* op) {
  if constexpr (supports<Op, N, T>()) {
    std::string ins;
    ins += dtype_name<in_t<Op, N, T, 0>>;
    if (N > 1) ins += std::string(",") + dtype_name<in_t<Op, N, T, 1>>;
    if (N > 2) ins += std::string(",") + dtype_name<in_t<Op, N, T, 2>>;
    std::string outs = dtype_name<stored_result_t<Op, N, T>>;
    if (nout_v<Op, N, T> == 2) outs += std::string(",") + dtype_name<stored_result2_t<Op, N, T>>;
    std::printf("%s %s %s %s\n", op, dtype_name<T>, ins.c_str(), outs.c_str());
  } else {
    std::printf("%s %s - -\n", op, dtype_name<T>);
  }
}
template <class Op, int N, class... T> void print_types(const char* op, types<T...>) { (print_type<Op, N, T>(op), ...); }

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "types") == 0) {
#define COPPER_T1(name) print_types<ops::name, 1>(#name, storage_types{});
#define COPPER_T2(name) print_types<ops::name, 2>(#name, storage_types{});
#define COPPER_T3(name) print_types<ops::name, 3>(#name, storage_types{});
    namespace ops = copper::ops;
    COPPER_UNARY_UFUNCS(COPPER_T1) COPPER_BINARY_UFUNCS(COPPER_T2) COPPER_TERNARY_UFUNCS(COPPER_T3)
    COPPER_UNARY2_UFUNCS(COPPER_T1) COPPER_BINARY2_UFUNCS(COPPER_T2)
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
    COPPER_UNARY2_UFUNCS(COPPER_E1) COPPER_BINARY2_UFUNCS(COPPER_E2)
    if (!found) {
      std::fprintf(stderr, "unknown op %s\n", op);
      return 2;
    }
  }
  std::fclose(out);
  return 0;
}
