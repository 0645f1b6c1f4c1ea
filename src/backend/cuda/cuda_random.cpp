// Random numbers on the GPU: one thread per group of counter blocks (grid-stride), the
// same ops/philox.h code as the CPU backend, so raw bits, uniforms and normals match it
// exactly. Each full group leaves as one aligned vector store (16 bytes for uniforms, 32
// and 64 for float32 and float64 normals: 16-byte pieces), so a warp writes 512
// contiguous bytes or more per store.
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

std::string random_source(DType t, ops::philox::Kind kind, int per, bool vector_store) {
  std::string s = source_prologue() + "#include \"ops/philox.h\"\n";
  s += "typedef " + std::string(device_type_name(t)) + " R;\n";
  s += "struct RandomArgs { copper::ops::philox::RandomParams p; void* out; long long n; };\n";
  // The last, partial group goes straight to memory (a local buffer would share its stack
  // slot with the loop's and keep the loop's values in local memory). float32 normals
  // call it out of line: inlined beside their loop it changed how the loop was scheduled
  // (an H200: 1.87 -> 1.58 ms for 1e9). The other kinds keep it inline, where the call's
  // registers cost them occupancy (float64 uniforms: 1.91 -> 2.02 ms out of line).
  const bool tail_out_of_line = kind == ops::philox::Kind::normal && itemsize(t) == 4;
  s += std::string("__device__ ") + (tail_out_of_line ? "__noinline__" : "__forceinline__") +
       " void copper_random_tail(const copper::ops::philox::RandomParams& p, unsigned long long g,"
       " R* out, int count) {\n"
       "  copper::ops::philox::generate_group<R>(static_cast<copper::ops::philox::Kind>(" +
       std::to_string(static_cast<unsigned>(kind)) + "u), p, g, out, count);\n}\n";
  s += "extern \"C\" __global__ void __launch_bounds__(256) copper_random(RandomArgs a) {\n"
       "  const copper::ops::philox::Kind kind = static_cast<copper::ops::philox::Kind>(" +
       std::to_string(static_cast<unsigned>(kind)) + "u);\n  constexpr int per = " + std::to_string(per) + ";\n";
  s += "  typedef copper::kern::Vec<R, per> V;\n"
       "  R* out = reinterpret_cast<R*>(a.out);\n"
       "  const long long full = a.n / per;\n"
       "  const long long step = static_cast<long long>(gridDim.x) * blockDim.x;\n"
       "  const long long tid = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;\n"
       "  for (long long b = tid; b < full; b += step) {\n"
       "    V v;\n"
       "    copper::ops::philox::generate_group<R>(kind, a.p, static_cast<unsigned long long>(b), v.v, per);\n";
  s += vector_store ? "    *reinterpret_cast<V*>(out + b * per) = v;\n"
                    : "#pragma unroll\n    for (int k = 0; k < per; ++k) out[b * per + k] = v.v[k];\n";
  s += "  }\n"
       "  const int rest = static_cast<int>(a.n - full * per);\n"
       "  if (rest > 0 && tid == 0) copper_random_tail(a.p, static_cast<unsigned long long>(full), out + full * per, rest);\n"
       "}\n";
  return s;
}

void CudaBackend::random(ops::philox::Kind kind, const ops::philox::RandomParams& p, const ArrayView& out) {
  const std::int64_t n = shape_size(out.shape);
  if (n == 0) return;
  if (out.dtype == DType::float16 || copper::kind(out.dtype) == Kind::complex_)
    throw TypeError("random: unsupported output dtype " + std::string(name(out.dtype)));
  const int per = ops::philox::elements_per_group(kind, static_cast<int>(itemsize(out.dtype)), p.range);
  const std::size_t block_bytes = static_cast<std::size_t>(per) * itemsize(out.dtype);
  // Vec<R, per> is aligned to its size up to 16 bytes; an out= view may start anywhere.
  // per: elements per group of counter blocks (ops::philox::blocks_per_group).
  const bool vector_store = aligned(out.data, block_bytes < 16 ? block_bytes : 16) && (block_bytes & (block_bytes - 1)) == 0;
  RandomArgs a{p, out.data, n};
  KeyBuilder key;
  key.add(kFamilyRandom).add(static_cast<unsigned>(out.dtype)).add(static_cast<unsigned>(kind)).add(static_cast<unsigned>(per));
  key.add(vector_store ? 1u : 0u);
  CUfunction fn = get_kernel(
      index_, key.key(), [&] { return random_source(out.dtype, kind, per, vector_store); }, "copper_random");
  void* args[] = {&a};
  // Exactly the resident blocks (no second partial wave of a grid-stride loop).
  const unsigned grid = grid_for(index_, (n + per - 1) / per, 256, resident_blocks_per_sm(fn, 256));
  launch(index_, fn, grid, 256, args, "random");
}

}  // namespace copper::backend::cuda
