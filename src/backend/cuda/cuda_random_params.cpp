// Random numbers with per-element (broadcast) parameters on the GPU: the same
// ops/philox_samplers.h code as the CPU backend. Block kinds take one thread per counter
// block; stream kinds (gamma, beta, binomial, poisson: rejection loops) one thread per
// element, reading the element's own counter stream.
#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_codegen.h"
#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_random.h"
#include "backend/cuda/kernel_families.h"
#include "ops/philox.h"

namespace copper::backend::cuda {
namespace {

struct ParamArgs {  // mirrors the struct in random_params_source()
  ops::philox::RandomParams p;
  void* out;
  long long n;
  const void* pa;
  const void* pb;
  StridedLayoutParam<2> layout;
};

}  // namespace

std::string random_params_source(DType t, ops::philox::Kind kind, int per, bool index32) {
  std::string s = source_prologue() + "#include \"ops/philox_samplers.h\"\n";
  s += "typedef " + std::string(device_type_name(t)) + " R;\n";
  s += std::string("typedef ") + (index32 ? "unsigned" : "long long") + " I;\n";
  s += "struct ParamArgs { copper::ops::philox::RandomParams p; void* out; long long n; const void* pa;\n"
       "  const void* pb; copper::kern::StridedLayout<2> l; };\n"
       "template <class V> __device__ __forceinline__ V param(const void* base, long long off) {\n"
       "  return *reinterpret_cast<const V*>(static_cast<const char*>(base) + off);\n}\n";
  s += "extern \"C\" __global__ void __launch_bounds__(256) copper_random_params(ParamArgs a) {\n"
       "  namespace philox = copper::ops::philox;\n"
       "  const philox::Kind kind = static_cast<philox::Kind>(" +
       std::to_string(static_cast<unsigned>(kind)) + "u);\n  constexpr int per = " + std::to_string(per) + ";\n";
  s += "  R* out = reinterpret_cast<R*>(a.out);\n"
       "  const long long step = static_cast<long long>(gridDim.x) * blockDim.x;\n"
       "  const long long tid = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;\n";
  if (ops::philox::is_stream_kind(kind)) {
    const bool int_first = kind == ops::philox::Kind::binomial;
    s += "  for (long long i = tid; i < a.n; i += step) {\n"
         "    long long off[2];\n"
         "    copper::kern::offsets<2, I>(a.l, static_cast<I>(i), off);\n";
    s += int_first ? "    const long long n = param<long long>(a.pa, off[0]);\n"
                     "    const double pa = param<double>(a.pb, off[1]), pb = 0.0;\n"
                   : "    const long long n = 0;\n"
                     "    const double pa = param<double>(a.pa, off[0]), pb = param<double>(a.pb, off[1]);\n";
    s += "    out[i] = philox::sample_element<R>(kind, a.p, static_cast<unsigned>(i), pa, pb, n);\n"
         "  }\n}\n";
    return s;
  }
  s += "  const long long nblocks = (a.n + per - 1) / per;\n"
       "  for (long long b = tid; b < nblocks; b += step) {\n"
       "    const long long first = b * per;\n"
       "    const int count = static_cast<int>(a.n - first < per ? a.n - first : per);\n"
       "    double pa[per], pb[per];\n"
       "    unsigned long long lo[per], hi[per];\n"
       "    R v[per];\n"
       "    for (int k = 0; k < count; ++k) {\n"
       "      long long off[2];\n"
       "      copper::kern::offsets<2, I>(a.l, static_cast<I>(first + k), off);\n"
       "      if constexpr (copper::ops::is_float_v<R>) {\n"
       "        pa[k] = param<double>(a.pa, off[0]);\n"
       "        pb[k] = param<double>(a.pb, off[1]);\n"
       "      } else {\n"
       "        lo[k] = param<unsigned long long>(a.pa, off[0]);\n"
       "        hi[k] = param<unsigned long long>(a.pb, off[1]);\n"
       "      }\n"
       "    }\n"
       "    philox::generate_group_with<R>(kind, a.p, static_cast<unsigned long long>(b), v, count, pa, pb, lo, hi);\n"
       "    for (int k = 0; k < count; ++k) out[first + k] = v[k];\n"
       "  }\n}\n";
  return s;
}

void CudaBackend::random_params(ops::philox::Kind kind, const ops::philox::RandomParams& p,
                                std::span<const ArrayView> params, const ArrayView& out) {
  const std::int64_t n = shape_size(out.shape);
  if (n == 0) return;
  if (params.size() != 2) throw RuntimeError("random_params: expected two parameter views");
  if (params[0].host_value || params[1].host_value)
    throw RuntimeError("random_params: parameters must be in device memory");
  const bool stream = ops::philox::is_stream_kind(kind);
  const copper::Kind k = copper::kind(out.dtype);
  if (out.dtype == DType::float16 || k == Kind::complex_ || (!stream && k == Kind::float_ && out.dtype != DType::float64))
    throw TypeError("random: unsupported output dtype " + std::string(name(out.dtype)));
  const Strides* strides[] = {&params[0].strides, &params[1].strides};
  const CollapsedLayout layout = collapse(out.shape, strides);
  bool index32 = n <= 0xffffffffLL;
  for (std::int64_t d : layout.shape) index32 = index32 && d <= 0xffffffffLL;
  const int per = stream ? 1 : ops::philox::elements_per_group(kind, static_cast<int>(itemsize(out.dtype)), p.range);
  ParamArgs a{p, out.data, n, params[0].data, params[1].data, strided_param<2>(layout)};
  KeyBuilder key;
  key.add(kFamilyRandomParams).add(static_cast<unsigned>(out.dtype)).add(static_cast<unsigned>(kind));
  key.add(static_cast<unsigned>(per)).add(index32 ? 1u : 0u);
  CUfunction fn = get_kernel(
      index_, key.key(), [&] { return random_params_source(out.dtype, kind, per, index32); }, "copper_random_params");
  void* args[] = {&a};
  const unsigned grid = grid_for(index_, (n + per - 1) / per, 256, resident_blocks_per_sm(fn, 256));
  launch(index_, fn, grid, 256, args, "random");
}

}  // namespace copper::backend::cuda
