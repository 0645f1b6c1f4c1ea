// Random numbers on the GPU: one thread per counter block (grid-stride), the same
// ops/philox.h code as the CPU backend, so raw bits and uniforms match it exactly.
#include "backend/cuda/kernel_families.h"
#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_codegen.h"
#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_random.h"
#include "ops/philox.h"

namespace copper::backend::cuda {
namespace {

struct RandomArgs {  // mirrors the struct in random_source()
  ops::philox::RandomParams p;
  void* out;
  long long n;
};

}  // namespace

std::string random_source(DType t, ops::philox::Kind kind, int per) {
  std::string s = source_prologue() + "#include \"ops/philox.h\"\n";
  s += "typedef " + std::string(device_type_name(t)) + " R;\n";
  s += "struct RandomArgs { copper::ops::philox::RandomParams p; void* out; long long n; };\n";
  s += "extern \"C\" __global__ void __launch_bounds__(256) copper_random(RandomArgs a) {\n"
       "  const copper::ops::philox::Kind kind = static_cast<copper::ops::philox::Kind>(" +
       std::to_string(static_cast<unsigned>(kind)) + "u);\n  const long long per = " + std::to_string(per) + ";\n";
  s += "  const long long nblocks = (a.n + per - 1) / per;\n"
       "  const long long step = static_cast<long long>(gridDim.x) * blockDim.x;\n"
       "  for (long long b = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; b < nblocks; b += step) {\n"
       "    const long long first = b * per;\n"
       "    const int count = static_cast<int>(a.n - first < per ? a.n - first : per);\n"
       "    copper::ops::philox::generate_block<R>(kind, a.p, static_cast<unsigned long long>(b),\n"
       "                                           reinterpret_cast<R*>(a.out) + first, count);\n"
       "  }\n}\n";
  return s;
}

void CudaBackend::random(ops::philox::Kind kind, const ops::philox::RandomParams& p, const ArrayView& out) {
  const std::int64_t n = shape_size(out.shape);
  if (n == 0) return;
  if (out.dtype == DType::float16 || copper::kind(out.dtype) == Kind::complex_)
    throw TypeError("random: unsupported output dtype " + std::string(name(out.dtype)));
  const int per = ops::philox::elements_per_block(kind, static_cast<int>(itemsize(out.dtype)), p.range);
  RandomArgs a{p, out.data, n};
  KeyBuilder key;
  key.add(kFamilyRandom).add(static_cast<unsigned>(out.dtype)).add(static_cast<unsigned>(kind)).add(static_cast<unsigned>(per));
  CUfunction fn = get_kernel(index_, key.key(), [&] { return random_source(out.dtype, kind, per); }, "copper_random");
  void* args[] = {&a};
  launch(index_, fn, grid_for(index_, (n + per - 1) / per, 256), 256, args, "random");
}

}  // namespace copper::backend::cuda
