// Compiles, with NVRTC for sm_90 (no GPU needed), user kernels shaped as copper.fuse
// generates them (python/copper/_fusion_codegen.py): the op functors' source
// (user_ops_source()) in the preamble, ops types loaded from CuPy's parameter types
// (float16 bits, complex<R>::ops()), copper::ops::invoke/cast chains, stores back, and
// reductions whose map and post_map call __device__ helpers of the preamble. The
// operations below are what the generator printed for representative functions; the CPU
// side of the same text is compiled by tests/python/test_fuse.py (COPPER_FUSE_CPU=compile).
#include <cstdio>
#include <string>
#include <vector>

#include "backend/cuda/cuda_user_kernel.h"
#include "backend/cuda/kernel_cache.h"
#include "backend/user_kernel_source.h"
#include "copper/errors.hpp"
#include "user_kernel_test_args.h"

using namespace copper;
using namespace copper::backend;

namespace {

UserKernelArg arg(const std::string& name, DType t, const std::string& ctype, const Shape& shape, bool is_const) {
  return test_args::arg(name, t, ctype, UserArgKind::array, shape, {}, is_const);
}
using test_args::scalar;

std::vector<UserKernelCode> codes(32);  // jobs point into it
int used = 0;

UserKernelCode& code(const std::string& name, const std::string& preamble) {
  UserKernelCode& c = codes[used++];
  c.id = next_user_kernel_id();
  c.name = name;
  c.preamble = user_ops_source() + preamble;
  return c;
}

std::string elementwise(UserKernelCode& c, const std::string& operation, std::vector<UserKernelArg> args, Shape shape) {
  c.operation = operation;
  UserElementwiseJob job;
  job.code = &c;
  job.args = std::move(args);
  job.shape = std::move(shape);
  return cuda::user_elementwise_source(job);
}

std::string reduction(UserKernelCode& c, const std::string& map, const std::string& reduce, const std::string& post,
                      const std::string& identity, const std::string& reduce_type, std::vector<UserKernelArg> args,
                      int nin, Shape kept, Shape reduced) {
  c.map_expr = map;
  c.reduce_expr = reduce;
  c.post_map_expr = post;
  c.identity = identity;
  c.reduce_type = reduce_type;
  UserReductionJob job;
  job.code = &c;
  job.args = std::move(args);
  job.nin = nin;
  job.kept = std::move(kept);
  job.reduced = std::move(reduced);
  return cuda::user_reduction_source(job);
}

struct Case {
  const char* what;
  std::string source;
};

std::vector<Case> cases() {
  std::vector<Case> v;
  const DType f16 = DType::float16, c64 = DType::complex64, f64 = DType::float64;
  // (x * y + s, where(x > s, x, -x).astype(int8), x >= 1) of float16 x, complex64 y, float s.
  v.push_back({"float16 and complex64 in, three outputs, weak scalars",
               elementwise(code("fused_mixed", ""),
                           "const copper::ops::half _f0 = copper::ops::half{in0.bits};\n"
                           "const copper::ops::complex<float> _f1 = in1.ops();\n"
                           "const copper::ops::complex<float> _f2 = copper::ops::invoke<copper::ops::multiply, "
                           "copper::ops::complex<float>>(copper::ops::cast<copper::ops::complex<float>>(_f0), _f1);\n"
                           "const double _f3 = s2;\n"
                           "const copper::ops::complex<float> _f4 = copper::ops::invoke<copper::ops::add, "
                           "copper::ops::complex<float>>(_f2, copper::ops::cast<copper::ops::complex<float>>(_f3));\n"
                           "const bool _f5 = copper::ops::invoke<copper::ops::greater, bool>(_f0, "
                           "copper::ops::cast<copper::ops::half>(_f3));\n"
                           "const copper::ops::half _f6 = copper::ops::invoke<copper::ops::negative, copper::ops::half>(_f0);\n"
                           "const copper::ops::half _f7 = _f5 ? _f0 : _f6;\n"
                           "const int8_t _f8 = copper::ops::cast<int8_t>(_f7);\n"
                           "const int64_t _f9 = s3;\n"
                           "const bool _f10 = copper::ops::invoke<copper::ops::greater_equal, bool>(_f0, "
                           "copper::ops::cast<copper::ops::half>(_f9));\n"
                           "out0 = _f4;\nout1 = _f8;\nout2 = _f10;\nout3.bits = _f7.bits;",
                           {arg("in0", f16, "float16", {8}, true), arg("in1", c64, "complex<float>", {8}, true),
                            scalar("s2", f64, "double"), scalar("s3", DType::int64, "long long"),
                            arg("out0", c64, "complex<float>", {8}, false),
                            arg("out1", DType::int8, "signed char", {8}, false),
                            arg("out2", DType::bool_, "bool", {8}, false), arg("out3", f16, "float16", {8}, false)},
                           {8})});
  // x *= 5; x *= x; x += x on float32, x written in place (an output read first).
  v.push_back({"in-place chain",
               elementwise(code("fused_chain", ""),
                           "const float _f0 = out0;\nconst int64_t _f1 = s0;\n"
                           "const float _f2 = copper::ops::invoke<copper::ops::multiply, float>(_f0, "
                           "copper::ops::cast<float>(_f1));\n"
                           "const float _f3 = copper::ops::invoke<copper::ops::multiply, float>(_f2, _f2);\n"
                           "const float _f4 = copper::ops::invoke<copper::ops::add, float>(_f3, _f3);\nout0 = _f4;",
                           {scalar("s0", DType::int64, "long long"), arg("out0", DType::float32, "float", {1000}, false)},
                           {1000})});
  // sqrt(sum(x ** 2, axis=-1)) of float64.
  v.push_back({"sqrt(sum(x**2, axis=-1))",
               reduction(code("fused_norm",
                              "__device__ inline double _fused_map(double in0) {\n"
                              "  const double _f0 = in0;\n"
                              "  const double _f1 = copper::ops::invoke<copper::ops::square, double>(_f0);\n"
                              "  return _f1;\n}\n"
                              "__device__ inline double _fused_post(double _acc) {\n"
                              "  const double _r = _acc;\n"
                              "  const double _f1 = copper::ops::invoke<copper::ops::sqrt, double>(_r);\n"
                              "  return _f1;\n}\n"),
                         "_fused_map(in0)", "copper::ops::invoke<copper::ops::add, double>(a, b)",
                         "out0 = _fused_post(a);", "0", "double",
                         {arg("in0", f64, "double", {100, 1000}, true), arg("out0", f64, "double", {100}, false)}, 1,
                         {100}, {1000})});
  // max(x * s, axis=0) + s of float16 x, Python int s: a float accumulator, no identity.
  v.push_back({"float16 max without identity, scalar in map and post_map",
               reduction(code("fused_hmax",
                              "__device__ inline float _fused_map(float16 in0, int64_t s1) {\n"
                              "  const copper::ops::half _f0 = copper::ops::half{in0.bits};\n"
                              "  const int64_t _f1 = s1;\n"
                              "  const copper::ops::half _f2 = copper::ops::invoke<copper::ops::multiply, "
                              "copper::ops::half>(_f0, copper::ops::cast<copper::ops::half>(_f1));\n"
                              "  return copper::ops::cast<float>(_f2);\n}\n"
                              "__device__ inline copper::ops::half _fused_post(float _acc, int64_t s1) {\n"
                              "  const copper::ops::half _r = copper::ops::cast<copper::ops::half>(_acc);\n"
                              "  const int64_t _f1 = s1;\n"
                              "  const copper::ops::half _f2 = copper::ops::invoke<copper::ops::add, "
                              "copper::ops::half>(_r, copper::ops::cast<copper::ops::half>(_f1));\n"
                              "  return _f2;\n}\n"),
                         "_fused_map(in0, s1)", "copper::ops::invoke<copper::ops::maximum, float>(a, b)",
                         "{ const copper::ops::half _h = _fused_post(a, s1); out0.bits = _h.bits; }", "", "float",
                         {arg("in0", f16, "float16", {8, 5}, true), scalar("s1", DType::int64, "long long"),
                          arg("out0", f16, "float16", {8}, false)},
                         2, {8}, {5})});
  // sum(x * 1j, axis=1) of complex64: an ops::complex accumulator through warp shuffles.
  v.push_back({"complex64 sum, weak complex scalar",
               reduction(code("fused_csum",
                              "__device__ inline copper::ops::complex<float> _fused_map(complex<float> in0, "
                              "complex<double> s1) {\n"
                              "  const copper::ops::complex<float> _f0 = in0.ops();\n"
                              "  const copper::ops::complex<double> _f1 = s1.ops();\n"
                              "  const copper::ops::complex<float> _f2 = copper::ops::invoke<copper::ops::multiply, "
                              "copper::ops::complex<float>>(_f0, copper::ops::cast<copper::ops::complex<float>>(_f1));\n"
                              "  return _f2;\n}\n"
                              "__device__ inline copper::ops::complex<float> _fused_post(copper::ops::complex<float> "
                              "_acc, complex<double> s1) {\n"
                              "  const copper::ops::complex<float> _r = _acc;\n  return _r;\n}\n"),
                         "_fused_map(in0, s1)",
                         "copper::ops::invoke<copper::ops::add, copper::ops::complex<float>>(a, b)",
                         "out0 = _fused_post(a, s1);", "0", "copper::ops::complex<float>",
                         {arg("in0", c64, "complex<float>", {2, 4}, true),
                          scalar("s1", DType::complex128, "complex<double>"), arg("out0", c64, "complex<float>", {2}, false)},
                         2, {2}, {4})});
  // all(x % 3, axis=0) of int8: a bool accumulator, logical reduce.
  v.push_back({"all of int8 remainders",
               reduction(code("fused_all",
                              "__device__ inline bool _fused_map(int8_t in0, int64_t s1) {\n"
                              "  const int8_t _f0 = in0;\n  const int64_t _f1 = s1;\n"
                              "  const int8_t _f2 = copper::ops::invoke<copper::ops::remainder, int8_t>(_f0, "
                              "copper::ops::cast<int8_t>(_f1));\n"
                              "  return copper::ops::cast<bool>(_f2);\n}\n"
                              "__device__ inline bool _fused_post(bool _acc, int64_t s1) {\n"
                              "  const bool _r = _acc;\n  return _r;\n}\n"),
                         "_fused_map(in0, s1)", "a && b", "out0 = _fused_post(a, s1);", "true", "bool",
                         {arg("in0", DType::int8, "signed char", {4, 2}, true), scalar("s1", DType::int64, "long long"),
                          arg("out0", DType::bool_, "bool", {4}, false)},
                         2, {4}, {2})});
  return v;
}

}  // namespace

int main() {
  int failures = 0;
  for (const Case& c : cases()) {
    try {
      cuda::compile_cubin(c.source, 90);
      std::printf("ok    %s\n", c.what);
    } catch (const CompileError& e) {
      ++failures;
      std::printf("FAIL  %s\n%s\n", c.what, e.log.c_str());
    }
  }
  std::printf("%d failure(s)\n", failures);
  return failures ? 1 : 0;
}
