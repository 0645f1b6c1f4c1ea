// iota: dst[i] = start + i * step, computed as the CPU backend does (int64 for integer
// starts and steps, double or complex<double> otherwise), without FMA contraction.
#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_codegen.h"
#include "backend/cuda/cuda_context.h"
#include "backend/cuda/elementwise_launch.h"
#include "backend/cuda/kernel_families.h"

namespace copper::backend::cuda {
namespace {

struct IotaArgs {  // mirrors copper::kern::IotaArgs
  void* out;
  long long n;
  long long start_int, step_int;
  double start_re, start_im, step_re, step_im;
};

enum class IotaMode : unsigned { integer = 0, real = 1, complex = 2 };

std::string iota_source(DType t, IotaMode mode) {
  std::string s = source_prologue() + "#include \"copper_kernels/elementwise.cuh\"\n";
  s += "typedef " + std::string(device_type_name(t)) + " R;\n";
  s += "extern \"C\" __global__ void __launch_bounds__(256) copper_iota(copper::kern::IotaArgs a) {\n"
       "  const long long step = static_cast<long long>(gridDim.x) * blockDim.x;\n"
       "  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < a.n; i += step) {\n";
  switch (mode) {
    case IotaMode::integer:
      s += "    const long long v = static_cast<long long>(static_cast<unsigned long long>(a.start_int) +\n"
           "        static_cast<unsigned long long>(i) * static_cast<unsigned long long>(a.step_int));\n"
           "    reinterpret_cast<R*>(a.out)[i] = copper::ops::cast<R>(static_cast<int64_t>(v));\n";
      break;
    case IotaMode::real:
      s += "    const double v = __dadd_rn(a.start_re, __dmul_rn(static_cast<double>(i), a.step_re));\n"
           "    reinterpret_cast<R*>(a.out)[i] = copper::ops::cast<R>(v);\n";
      break;
    case IotaMode::complex:
      s += "    const double d = static_cast<double>(i);\n"
           "    const copper::ops::complex128 v(__dadd_rn(a.start_re, __dmul_rn(d, a.step_re)),\n"
           "                                    __dadd_rn(a.start_im, __dmul_rn(d, a.step_im)));\n"
           "    reinterpret_cast<R*>(a.out)[i] = copper::ops::cast<R>(v);\n";
      break;
  }
  return s + "  }\n}\n";
}

}  // namespace

void CudaBackend::iota(const ArrayView& dst, const Scalar& start, const Scalar& step) {
  const std::int64_t n = shape_size(dst.shape);
  if (n == 0) return;
  const bool int_like = dst.dtype == DType::bool_ || kind(dst.dtype) == Kind::int_ || kind(dst.dtype) == Kind::uint_;
  IotaMode mode = IotaMode::real;
  if (int_like && start.kind() != Kind::float_ && step.kind() != Kind::float_) mode = IotaMode::integer;
  else if (kind(dst.dtype) == Kind::complex_) mode = IotaMode::complex;
  IotaArgs a{dst.data, n, 0, 0, 0, 0, 0, 0};
  if (mode == IotaMode::integer) {
    a.start_int = start.to_int64();
    a.step_int = step.to_int64();
  } else if (mode == IotaMode::complex) {
    auto s0 = start.to_complex(), ds = step.to_complex();
    a.start_re = s0.real(), a.start_im = s0.imag(), a.step_re = ds.real(), a.step_im = ds.imag();
  } else {
    a.start_re = start.to_double();
    a.step_re = step.to_double();
  }
  KeyBuilder key;
  key.add(kFamilyIota).add(static_cast<unsigned>(dst.dtype)).add(static_cast<unsigned>(mode));
  CUfunction fn = get_kernel(index_, key.key(), [&] { return iota_source(dst.dtype, mode); }, "copper_iota");
  void* args[] = {&a};
  launch(index_, fn, grid_for(index_, n, 256), 256, args, "arange");
}

}  // namespace copper::backend::cuda
