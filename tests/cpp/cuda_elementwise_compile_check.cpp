// Every elementwise kernel family the CUDA backend generates compiles under NVRTC for
// sm_90: each ufunc over each loop dtype it has (contiguous layout), the strided and
// by-value variants, two-output ops in both layouts, the sequential fold behind
// ufunc.reduce/accumulate/reduceat, errstate's checked ufuncs, casts between all dtypes,
// fills and where. Needs NVRTC, no GPU.
// Usage: cuda_elementwise_compile_check [--all]   (default: a representative subset)
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "backend/cuda/cuda_fold.h"
#include "backend/cuda/elementwise_launch.h"
#include "backend/cuda/kernel_cache.h"
#include "ops/catalogue.h"

using namespace copper;
using namespace copper::backend;

namespace {

alignas(256) char fake_memory[1024];

ArrayView contiguous(DType t) { return ArrayView{fake_memory, t, {1000}, {itemsize(t)}}; }
ArrayView strided(DType t) { return ArrayView{fake_memory, t, {10, 100}, {itemsize(t) * 300, itemsize(t) * 2}}; }
ArrayView by_value(DType t) { return ArrayView{fake_memory, t, {1000}, {0}, true}; }

int failures = 0, compiled = 0;

void compile_source(const std::string& source, const std::string& what) {
  try {
    cuda::compile_cubin(source, 90);
    ++compiled;
  } catch (const std::exception& e) {
    ++failures;
    std::printf("FAILED %s:\n%.2000s\n", what.c_str(), e.what());
  }
}

void compile(const cuda::EwJob& job, const std::string& what) { compile_source(cuda::elementwise_source(job), what); }

}  // namespace

int main(int argc, char** argv) {
  const bool all = argc > 1 && std::strcmp(argv[1], "--all") == 0;
  const auto start = std::chrono::steady_clock::now();
  for (int o = 0; o < ops::num_ufuncs; ++o) {
    const auto op = static_cast<ops::UfuncId>(o);
    const auto& info = ops::info(op);
    int done_for_op = 0;
    for (int t = 0; t < num_dtypes; ++t) {
      const auto out = info.out[t];
      if (!out) continue;
      // Subset: the first, a middle and the last loop dtype of each op.
      if (!all && done_for_op++ % 5 != 0 && t != num_dtypes - 1) continue;
      const DType loop = static_cast<DType>(t);
      ArrayView in[3] = {contiguous(ops::input_dtype(op, loop, 0)),
                         o % 2 ? by_value(ops::input_dtype(op, loop, 1)) : contiguous(ops::input_dtype(op, loop, 1)),
                         strided(ops::input_dtype(op, loop, 2))};
      ArrayView result = contiguous(*out);
      cuda::EwJob job{cuda::EwFamily::ufunc, static_cast<unsigned>(o), info.name.data(), info.nin, {}, &result, {}};
      for (int k = 0; k < info.nin; ++k) job.in[k] = &in[k];
      job.expression = [o, n = info.nin] { return cuda::ufunc_expression(static_cast<unsigned>(o), n); };
      // Two-output ops: both layout classes (contiguous, and strided through the first input).
      ArrayView second = contiguous(info.out2[t].value_or(*out)), second_strided = strided(info.out2[t].value_or(*out));
      if (info.nout == 2) job.out2 = &second;
      compile(job, std::string(info.name) + " over " + std::string(name(loop)));
      if (info.nout == 2) {
        ArrayView strided_in = strided(loop);
        job.in[0] = &strided_in;
        job.out2 = &second_strided;
        compile(job, std::string(info.name) + " (strided) over " + std::string(name(loop)));
      }
      // The sequential fold of binary ops whose output dtype is their input dtype.
      if (info.nin == 2 && info.nout == 1 && *out == loop && ops::input_dtype(op, loop, 1) == loop) {
        compile_source(cuda::fold_source(op, loop, o % 2 == 0, o % 3 == 0),
                       "fold of " + std::string(info.name) + " over " + std::string(name(loop)));
      }
    }
  }
  // errstate's checked variant (cuda_fp_errors.h): every loop whose result can carry
  // floating-point flags (inexact results, integer division), contiguous; strided for some.
  for (int o = 0; o < ops::num_ufuncs; ++o) {
    const auto op = static_cast<ops::UfuncId>(o);
    const auto& info = ops::info(op);
    for (int t = 0; t < num_dtypes; ++t) {
      const auto out = info.out[t];
      const DType loop = static_cast<DType>(t);
      const bool int_division = (op == ops::UfuncId::floor_divide || op == ops::UfuncId::remainder ||
                                 op == ops::UfuncId::fmod || op == ops::UfuncId::divmod) && is_integer(loop);
      if (!out || !(is_inexact(*out) || int_division) || (!all && t % 2 != 0 && !int_division)) continue;
      const bool strided_layout = t % 3 == 0;
      ArrayView in[3], result = strided_layout ? strided(*out) : contiguous(*out);
      for (int k = 0; k < info.nin; ++k)
        in[k] = strided_layout && k == 0 ? strided(ops::input_dtype(op, loop, k)) : contiguous(ops::input_dtype(op, loop, k));
      ArrayView second = strided_layout ? strided(info.out2[t].value_or(*out)) : contiguous(info.out2[t].value_or(*out));
      cuda::EwJob job{cuda::EwFamily::ufunc, static_cast<unsigned>(o), info.name.data(), info.nin, {}, &result, {}};
      for (int k = 0; k < info.nin; ++k) job.in[k] = &in[k];
      if (info.nout == 2) job.out2 = &second;
      job.expression = [o, n = info.nin] { return cuda::ufunc_expression(static_cast<unsigned>(o), n); };
      job.fp_check = true;
      job.fp_mask = 15;
      compile(job, "checked " + std::string(info.name) + (strided_layout ? " (strided)" : "") + " over " +
                       std::string(name(loop)));
    }
  }
  for (int a = 0; a < num_dtypes; ++a)
    for (int b = 0; b < num_dtypes; ++b) {
      if (!all && (a + b) % 4 != 0) continue;
      ArrayView src = strided(static_cast<DType>(a)), dst = contiguous(static_cast<DType>(b));
      cuda::EwJob job{cuda::EwFamily::cast, 0, "astype", 1, {&src}, &dst, [] { return std::string("copper::ops::cast<R>(x0)"); }};
      compile(job, "cast " + std::string(name(static_cast<DType>(a))) + " -> " + std::string(name(static_cast<DType>(b))));
    }
  for (DType t : {DType::float64, DType::float16, DType::complex128, DType::bool_}) {
    ArrayView value = by_value(t), dst = strided(t), cond = contiguous(DType::bool_), x = contiguous(t), y = by_value(t);
    cuda::EwJob fill{cuda::EwFamily::fill, 0, "fill", 1, {&value}, &dst, [] { return std::string("x0"); }};
    compile(fill, "fill " + std::string(name(t)));
    cuda::EwJob where{cuda::EwFamily::where, 0, "where", 3, {&cond, &x, &y}, &x, [] { return std::string("(x0 ? x1 : x2)"); }};
    compile(where, "where " + std::string(name(t)));
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%d kernels compiled in %.1f s (%.0f ms each), %d failed\n", compiled, secs, 1000 * secs / (compiled + failures),
              failures);
  return failures ? 1 : 0;
}
