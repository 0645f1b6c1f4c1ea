// Compiles the CUDA sources of ElementwiseKernel and ReductionKernel (cuda_user_kernel*.cpp)
// with NVRTC for sm_90, for CuPy's documented kernels and every layout class, dtype and
// feature the generator has (raw arrays, scalars, float16, complex, preamble/loop_prep/
// after_loop, -D options, 64-bit indices, reductions with and without identity and with a
// struct reduce type, the vector variant of contiguous elementwise kernels for every dtype
// and its one-element fallback); also checks that a compile error names the user's line
// and which variant each call shape gets. No GPU needed.
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "backend/cuda/cuda_user_kernel.h"
#include "backend/cuda/kernel_cache.h"
#include "copper/errors.hpp"
#include "user_kernel_test_args.h"

using namespace copper;
using namespace copper::backend;
using namespace copper::backend::test_args;

namespace {

// The same argument `elements` elements further on (unaligned for the vector variant).
UserKernelArg shifted(UserKernelArg a, std::int64_t elements = 1) {
  a.view.data = static_cast<char*>(a.view.data) + elements * itemsize(a.dtype);
  return a;
}

struct Case {
  std::string what;
  std::function<std::string()> source;
};

UserKernelCode code(const std::string& name, const std::string& operation) {
  UserKernelCode c;
  c.id = next_user_kernel_id();
  c.name = name;
  c.operation = operation;
  return c;
}

std::vector<UserKernelCode>& codes() {
  static std::vector<UserKernelCode> all;
  all.reserve(512);  // jobs point into it
  return all;
}

std::string elementwise(UserKernelCode c, UserTypedefs typedefs, std::vector<UserKernelArg> args, Shape shape) {
  codes().push_back(std::move(c));
  UserElementwiseJob job;
  job.code = &codes().back();
  job.typedefs = std::move(typedefs);
  job.args = std::move(args);
  job.shape = std::move(shape);
  return cuda::user_elementwise_source(job);
}

std::string reduction(UserKernelCode c, UserTypedefs typedefs, std::vector<UserKernelArg> args, int nin, Shape kept,
                      Shape reduced) {
  codes().push_back(std::move(c));
  UserReductionJob job;
  job.code = &codes().back();
  job.typedefs = std::move(typedefs);
  job.args = std::move(args);
  job.nin = nin;
  job.kept = std::move(kept);
  job.reduced = std::move(reduced);
  return cuda::user_reduction_source(job);
}

UserKernelCode reduce_code(const std::string& name, const std::string& map, const std::string& reduce,
                           const std::string& post, const std::string& identity, const std::string& reduce_type) {
  UserKernelCode c = code(name, "");
  c.map_expr = map;
  c.reduce_expr = reduce;
  c.post_map_expr = post;
  c.identity = identity;
  c.reduce_type = reduce_type;
  return c;
}

std::vector<Case> cases() {
  std::vector<Case> v;
  const auto A = UserArgKind::array, R = UserArgKind::raw;
  const DType f32 = DType::float32;
  // CuPy's documentation examples.
  v.push_back({"squared_diff typed", [=] {
                 return elementwise(code("squared_diff", "z = (x - y) * (x - y)"), {},
                                    {arg("x", f32, "float", A, {2, 5}), arg("y", f32, "float", A, {2, 5}, {0, 4}),
                                     arg("z", f32, "float", A, {2, 5}, {}, false)},
                                    {2, 5});
               }});
  v.push_back({"squared_diff generic, scalar", [=] {
                 return elementwise(code("squared_diff_generic", "T diff = x - y;\nz = diff * diff;"),
                                    {{"T", DType::float64}},
                                    {arg("x", DType::float64, "T", A, {4, 3}, {-8, 64}), scalar("y", DType::float64, "T"),
                                     arg("z", DType::float64, "T", A, {4, 3}, {}, false)},
                                    {4, 3});
               }});
  v.push_back({"add_reverse raw", [=] {
                 return elementwise(code("add_reverse", "z = x + y[_ind.size() - i - 1]"), {{"T", f32}},
                                    {arg("x", f32, "T", A, {5}), arg("y", f32, "T", R, {5}, {-4}),
                                     arg("z", f32, "T", A, {5}, {}, false)},
                                    {5});
               }});
  v.push_back({"raw 2-d multi-index, raw output, size=", [=] {
                 UserKernelCode c = code("raw_index", "ptrdiff_t idx[2] = {i / 3, i % 3};\nout[i] = m[idx] + m.shape()[0];");
                 return elementwise(c, {},
                                    {arg("m", DType::int32, "int", R, {4, 3}, {4, 16}),
                                     arg("out", DType::int64, "long long", R, {12}, {}, false)},
                                    {12});
               }});
  v.push_back({"float16 arithmetic", [=] {
                 return elementwise(code("half_ops", "z = x * y + 1.0f;\nz += x;\nz = max(z, x) - min(x, y);"),
                                    {{"T", DType::float16}},
                                    {arg("x", DType::float16, "T", A, {7}), arg("y", DType::float16, "T", A, {7}),
                                     arg("z", DType::float16, "T", A, {7}, {}, false)},
                                    {7});
               }});
  for (DType t : {DType::complex64, DType::complex128})
    v.push_back({"complex arithmetic and functions", [=] {
                   return elementwise(
                       code("complex_ops",
                            "z = x * x + conj(x) * 2.0f - 1;\nz += exp(x) / sqrt(x);\nz.imag(abs(x) + real(x) + x.imag());\n"
                            "z = z == x ? pow(z, 2.0f) : z;"),
                       {{"T", t}},
                       {arg("x", t, "T", A, {3, 4}, {16 * 2 * (t == DType::complex64 ? 1 : 2), -(t == DType::complex64 ? 8 : 16)}),
                        arg("z", t, "T", A, {3, 4}, {}, false)},
                       {3, 4});
                 }});
  for (int k = 0; k < 14; ++k) {
    const DType t = static_cast<DType>(k);
    // Aligned: the vector variant (one-element for 16-byte types); shifted: one element each.
    v.push_back({"copy " + std::string(name(t)), [=] {
                   return elementwise(code("copy_kernel", "y = x"), {{"T", t}},
                                      {arg("x", t, "T", A, {6}), arg("y", t, "T", A, {6}, {}, false)}, {6});
                 }});
    v.push_back({"copy unaligned " + std::string(name(t)), [=] {
                   return elementwise(code("copy_kernel", "y = x"), {{"T", t}},
                                      {shifted(arg("x", t, "T", A, {6})), arg("y", t, "T", A, {6}, {}, false)}, {6});
                 }});
    // Read-modify-write of the output, an index and a raw side effect per element.
    v.push_back({"vector read-modify-write " + std::string(name(t)), [=] {
                   return elementwise(code("rmw_kernel", "y += x;\nif (i % 3 == 0) y = x;\ncount[i % 4] = y;"),
                                      {{"T", t}},
                                      {arg("x", t, "T", A, {2, 37}), arg("y", t, "T", A, {2, 37}, {}, false),
                                       arg("count", t, "T", R, {4}, {}, false)},
                                      {2, 37});
                 }});
  }
  for (DType t : {DType::float32, DType::float64, DType::float16, DType::int8, DType::complex64})
    v.push_back({"vector squared_diff, 64-bit indices " + std::string(name(t)), [=] {
                   const long long n = 3000000001LL;
                   return elementwise(code("squared_diff_big", "z = (x - y) * (x - y)"), {{"T", t}},
                                      {arg("x", t, "T", A, {n}), arg("y", t, "T", A, {n}),
                                       arg("z", t, "T", A, {n}, {}, false)},
                                      {n});
                 }});
  v.push_back({"vector mixed itemsizes, scalar, unused input", [=] {
                 return elementwise(code("mixed", "z = x * s + y; w = static_cast<short>(i)"), {},
                                    {arg("x", DType::float64, "double", A, {9}), arg("y", DType::int8, "signed char", A, {9}),
                                     scalar("s", f32, "float"), arg("unused", DType::int16, "short", A, {9}),
                                     arg("z", f32, "float", A, {9}, {}, false), arg("w", DType::int16, "short", A, {9}, {}, false)},
                                    {9});
               }});
  v.push_back({"vector histogram with atomics, loop_prep and after_loop", [=] {
                 UserKernelCode c = code("vec_histogram", "atomicAdd(&hist[x & 15], 1);\nacc += x;");
                 c.loop_prep = "long long acc = 0";
                 c.after_loop = "atomicAdd(&hist[16], static_cast<int>(acc))";
                 return elementwise(c, {},
                                    {arg("x", DType::int32, "int", A, {1000}),
                                     arg("hist", DType::int32, "int", R, {18}, {}, false)},
                                    {1000});
               }});
  v.push_back({"preamble, loop_prep, after_loop, -D", [=] {
                 UserKernelCode c = code("with_extras", "acc += f(x);\ny = acc * SCALE;");
                 c.preamble = "__device__ float f(float v) { return v * v; }";
                 c.loop_prep = "float acc = 0";
                 c.after_loop = "(void)acc";
                 c.defines = "#define SCALE 2\n";
                 return elementwise(c, {},
                                    {arg("x", f32, "float", A, {100}), arg("y", f32, "float", A, {100}, {}, false)}, {100});
               }});
  v.push_back({"64-bit indices, strided", [=] {
                 return elementwise(code("big", "y = x + i"), {{"T", DType::float64}},
                                    {arg("x", DType::float64, "T", A, {3000000000LL}, {0}),
                                     arg("y", DType::float64, "T", A, {3000000000LL}, {}, false)},
                                    {3000000000LL});
               }});
  v.push_back({"atomics in a raw output", [=] {
                 return elementwise(code("histogram", "atomicAdd(&hist[x], 1)"), {},
                                    {arg("x", DType::int32, "int", A, {1000}),
                                     arg("hist", DType::int32, "int", R, {16}, {}, false)},
                                    {1000});
               }});
  v.push_back({"non-const input", [=] {
                 return elementwise(code("nonconst", "x = x + 1; y = x"), {},
                                    {arg("x", f32, "float", A, {10}, {}, false), arg("y", f32, "float", A, {10}, {}, false)},
                                    {10});
               }});
  // Reductions.
  for (long long n : {3LL, 50LL, 100LL, 1000LL, 1LL << 22})
    v.push_back({"l2norm rows of " + std::to_string(n), [=] {
                   return reduction(reduce_code("l2norm", "x * x", "a + b", "y = sqrt(a)", "0", "T"), {{"T", f32}},
                                    {arg("x", f32, "T", A, {2, n}), arg("y", f32, "T", A, {2}, {}, false)}, 1, {2}, {n});
                 }});
  v.push_back({"strided sum over two axes, keepdims-style output", [=] {
                 return reduction(reduce_code("sum2", "x", "a + b", "y = a", "0", "double"), {{"T", DType::float64}},
                                  {arg("x", DType::float64, "T", A, {3, 4, 5}, {8, 0, 96}),
                                   arg("y", DType::float64, "T", A, {3}, {-8}, false)},
                                  1, {3}, {4, 5});
               }});
  for (DType t : {DType::int32, DType::float16, DType::uint8})
    v.push_back({"max without identity " + std::string(name(t)), [=] {
                   return reduction(reduce_code("rmax", "x", "max(a, b)", "y = a", "", "T"), {{"T", t}},
                                    {arg("x", t, "T", A, {1000}), arg("y", t, "T", A, {}, {}, false)}, 1, {}, {1000});
                 }});
  v.push_back({"complex sum", [=] {
                 return reduction(reduce_code("csum", "x", "a + b", "y = a", "0", "T"), {{"T", DType::complex128}},
                                  {arg("x", DType::complex128, "T", A, {10, 10}), arg("y", DType::complex128, "T", A, {10}, {}, false)},
                                  1, {10}, {10});
               }});
  v.push_back({"mean with indexers, several inputs and outputs, scalar", [=] {
                 return reduction(
                     reduce_code("wmean", "x * w * s", "a + b",
                                 "y = a / (_in_ind.size() / _out_ind.size());\nc = a", "0", "double"),
                     {{"T", f32}},
                     {arg("x", f32, "T", A, {6, 7}), arg("w", f32, "T", A, {6, 7}, {0, 4}), scalar("s", f32, "float"),
                      arg("y", f32, "T", A, {6}, {}, false), arg("c", DType::float64, "double", A, {6}, {}, false)},
                     3, {6}, {7});
               }});
  v.push_back({"struct reduce type without identity", [=] {
                 UserKernelCode c = reduce_code("minmax", "MinMax{x, x}", "MinMax{min(a.lo, b.lo), max(a.hi, b.hi)}",
                                                "lo = a.lo; hi = a.hi", "", "MinMax");
                 c.preamble = "struct MinMax { float lo, hi; };";
                 return reduction(c, {},
                                  {arg("x", f32, "float", A, {5, 300}), arg("lo", f32, "float", A, {5}, {}, false),
                                   arg("hi", f32, "float", A, {5}, {}, false)},
                                  1, {5}, {300});
               }});
  return v;
}

bool check_error_lines() {
  // A user error on line 2 of the operation: NVRTC must report "<name>(2)".
  std::string source = elementwise(code("broken_kernel", "z = x;\nz = undefined_name + 1;"), {},
                                   {arg("x", DType::float32, "float", UserArgKind::array, {4}),
                                    arg("z", DType::float32, "float", UserArgKind::array, {4}, {}, false)},
                                   {4});
  try {
    cuda::compile_cubin(source, 90);
  } catch (const CompileError& e) {
    if (e.log.find("broken_kernel(2)") != std::string::npos && e.log.find("undefined_name") != std::string::npos)
      return true;
    std::fprintf(stderr, "compile error without the user's line number:\n%s\n", e.log.c_str());
    return false;
  }
  std::fprintf(stderr, "a broken kernel compiled\n");
  return false;
}

// Elements per thread in a generated source (1: the one-element loop).
int vector_width_of(const std::string& source) {
  const std::string marker = "// vector variant: ";
  const std::size_t at = source.find(marker);
  return at == std::string::npos ? 1 : std::stoi(source.substr(at + marker.size()));
}
bool loads(const std::string& source, const std::string& operand) {
  return source.find("_vec_" + operand + " = reinterpret_cast") != std::string::npos;
}
bool stores(const std::string& source, const std::string& operand) {
  return source.find("_raw_" + operand + ")[_k] = _vec_" + operand) != std::string::npos;
}

// Which variant each call shape gets, and which operands the vector loop reads and writes.
int check_variants() {
  const auto A = UserArgKind::array, R = UserArgKind::raw;
  int failures = 0;
  auto expect = [&](const std::string& what, bool ok) {
    if (!ok) ++failures;
    std::printf("%s  variant: %s\n", ok ? "ok  " : "FAIL", what.c_str());
  };
  // z = f(x, y) over n elements of t, the operands given (x, y, z).
  auto binary = [&](const std::string& op, DType t, UserKernelArg x, UserKernelArg y, UserKernelArg z) {
    const Shape shape = z.view.shape;
    return elementwise(code("variant_probe", op), {{"T", t}}, {std::move(x), std::move(y), std::move(z)}, shape);
  };
  auto xyz = [&](const std::string& op, DType t, std::int64_t n = 1000) {
    return binary(op, t, arg("x", t, "T", A, {n}), arg("y", t, "T", A, {n}), arg("z", t, "T", A, {n}, {}, false));
  };
  const std::string sq = "z = (x - y) * (x - y)";
  const struct {
    DType t;
    int vec;
  } widths[] = {{DType::bool_, 16}, {DType::int8, 16},     {DType::uint16, 8},     {DType::float16, 8},
                {DType::int32, 4},  {DType::float32, 4},  {DType::float64, 2},    {DType::int64, 2},
                {DType::uint64, 2}, {DType::complex64, 2}, {DType::complex128, 1}};
  for (const auto& w : widths)
    expect(std::string(name(w.t)) + " takes " + std::to_string(w.vec) + " per thread",
           vector_width_of(xyz("z = x + y", w.t)) == w.vec);
  {
    const std::string s = xyz(sq, DType::float32);
    expect("a plain assignment is not read", loads(s, "x") && loads(s, "y") && !loads(s, "z") && stores(s, "z") &&
                                                 !stores(s, "x"));
  }
  for (const char* op : {"z += x * y", "if (x > y) z = x", "z = x; z = z * y", "z.imag(x.imag()); z = y + x"}) {
    const DType t = std::string(op).find("imag") != std::string::npos ? DType::complex64 : DType::float32;
    const std::string s = xyz(op, t);
    expect(std::string("the output is read for: ") + op, vector_width_of(s) > 1 && loads(s, "z") && stores(s, "z"));
  }
  {
    const std::string s = xyz("#if 1\nz = x + y;\n#endif", DType::float32);
    expect("conditional compilation in the operation: outputs read", vector_width_of(s) == 4 && loads(s, "z"));
  }
  for (const char* op : {"if (x < 0) return; z = x", "for (;;) { z = x; break; }", "if (x < 0) continue; z = y",
                         "atomicAdd(&z, x + y)", "const float* p = &x; z = p[1] + y", "z = x + threadIdx.x + y",
                         "z = __shfl_down_sync(0xffffffff, x, 1) + y", "z = x + y; }{",
                         "asm volatile(\"\"); z = x + y"})
    expect(std::string("one element per thread for: ") + op, vector_width_of(xyz(op, DType::float32)) == 1);
  {
    UserKernelCode c = code("macro_probe", "SET(x + y)");
    c.preamble = "#define SET(v) z = v";
    const std::string s = elementwise(c, {{"T", DType::float32}},
                                      {arg("x", DType::float32, "T", A, {64}), arg("y", DType::float32, "T", A, {64}),
                                       arg("z", DType::float32, "T", A, {64}, {}, false)},
                                      {64});
    expect("a macro naming an operand: one element per thread", vector_width_of(s) == 1);
    UserKernelCode pasted = code("paste_probe", "PASTE(z, 1) = x + y");
    pasted.preamble = "#define PASTE(a, b) a##b";
    const std::string p = elementwise(pasted, {{"T", DType::float32}},
                                      {arg("x", DType::float32, "T", A, {64}), arg("y", DType::float32, "T", A, {64}),
                                       arg("z1", DType::float32, "T", A, {64}, {}, false)},
                                      {64});
    expect("token pasting in a macro: one element per thread", vector_width_of(p) == 1);
    cuda::compile_cubin(p, 90);
  }
  {
    UserKernelCode c = code("ref_atomic_probe", "bump(z, x + y)");
    c.preamble = "__device__ void bump(float& r, float v) { atomicAdd(&r, v); }";
    const std::string s = elementwise(c, {},
                                      {arg("x", DType::float32, "float", A, {64}), arg("y", DType::float32, "float", A, {64}),
                                       arg("z", DType::float32, "float", A, {64}, {}, false)},
                                      {64});
    expect("a preamble atomic through a reference: one element per thread", vector_width_of(s) == 1);
  }
  // Alignment: one element off, two off (8 bytes for float32: 2 per thread).
  {
    const DType t = DType::float32;
    expect("unaligned input: one element per thread",
           vector_width_of(binary(sq, t, shifted(arg("x", t, "T", A, {100})), arg("y", t, "T", A, {100}),
                                  arg("z", t, "T", A, {100}, {}, false))) == 1);
    expect("8-byte aligned output: two per thread",
           vector_width_of(binary(sq, t, arg("x", t, "T", A, {100}), arg("y", t, "T", A, {100}),
                                  shifted(arg("z", t, "T", A, {100}, {}, false), 2))) == 2);
    expect("broadcast input: the strided loop",
           vector_width_of(binary(sq, t, arg("x", t, "T", A, {4, 25}, {0, 4}), arg("y", t, "T", A, {4, 25}),
                                  arg("z", t, "T", A, {4, 25}, {}, false))) == 1);
  }
  {
    // Mixed itemsizes: 16 bytes over the widest (float64: 2 per thread).
    const std::string s = elementwise(code("mixed_probe", "z = x + y"), {},
                                      {arg("x", DType::float64, "double", A, {77}), arg("y", DType::int8, "signed char", A, {77}),
                                       arg("z", DType::float32, "float", A, {77}, {}, false)},
                                      {77});
    expect("mixed float64/int8/float32: two per thread", vector_width_of(s) == 2);
  }
  {
    // An unused operand is neither read nor written, nor counts for the width.
    const std::string s = elementwise(code("unused_probe", "z = x"), {},
                                      {arg("x", DType::float32, "float", A, {77}), arg("u", DType::float64, "double", A, {77}),
                                       arg("z", DType::float32, "float", A, {77}, {}, false)},
                                      {77});
    expect("an unused float64 input: four per thread, not read", vector_width_of(s) == 4 && !loads(s, "u"));
  }
  {
    // In place: the output is the input's memory.
    const DType t = DType::float32;
    UserKernelArg x = arg("x", t, "T", A, {100}), y = arg("y", t, "T", A, {100}), z = arg("z", t, "T", A, {100}, {}, false);
    z.view.data = x.view.data;
    expect("in place, inputs read before the one assignment: vector", vector_width_of(binary(sq, t, x, y, z)) == 4);
    expect("in place, input read after the assignment: one element",
           vector_width_of(binary("z = y; z = z + x", t, x, y, z)) == 1);
    expect("in place, input read after a comma: one element", vector_width_of(binary("z = y, (void)x", t, x, y, z)) == 1);
    UserKernelArg z4 = shifted(x, 4);
    z4.name = "z";
    z4.is_const = false;
    expect("output 4 floats after the input: vector", vector_width_of(binary(sq, t, x, y, z4)) == 4);
    UserKernelArg w = shifted(z4, 4);
    w.name = "w";
    const std::string two = elementwise(code("two_outputs_probe", "z = x; w = y"), {{"T", t}}, {x, y, z4, w}, {100});
    expect("two overlapping outputs: one element", vector_width_of(two) == 1);
    UserKernelArg raw_alias = arg("r", t, "T", R, {100}, {}, false);
    raw_alias.view.data = y.view.data;
    const std::string s = elementwise(code("raw_alias_probe", "z = x + y; r[i] = 0"), {{"T", t}},
                                      {x, y, arg("z", t, "T", A, {100}, {}, false), raw_alias}, {100});
    expect("a written raw array over an input: one element", vector_width_of(s) == 1);
  }
  {
    // A side effect per element, i and _ind.size() per element.
    const std::string s = elementwise(code("side_effect_probe", "atomicAdd(&hist[x % 8], 1); out[i] = _ind.size() - i"),
                                      {},
                                      {arg("x", DType::int32, "int", A, {50}), arg("hist", DType::int32, "int", R, {8}, {}, false),
                                       arg("out", DType::int64, "long long", R, {50}, {}, false)},
                                      {50});
    expect("raw side effects: vector, nothing stored", vector_width_of(s) == 4 && loads(s, "x") && !stores(s, "x"));
  }
  return failures;
}

}  // namespace

int main() {
  int failures = 0;
  for (const Case& c : cases()) {
    const std::string source = c.source();
    try {
      cuda::compile_cubin(source, 90);
      std::printf("ok    %s\n", c.what.c_str());
    } catch (const CompileError& e) {
      ++failures;
      std::printf("FAIL  %s\n%s\n--- source ---\n%s\n", c.what.c_str(), e.log.c_str(), source.c_str());
    }
  }
  failures += check_variants();
  if (!check_error_lines()) ++failures;
  else std::printf("ok    compile errors carry the user's line numbers\n");
  std::printf("%d failure(s)\n", failures);
  return failures ? 1 : 0;
}
