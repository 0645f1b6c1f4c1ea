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

// Mirrors the struct in random_params_source() for `N` parameters (1 to 3).
template <int N> struct ParamArgs {
  ops::philox::RandomParams p;
  void* out;
  long long n;
  const void* params[N];
  StridedLayoutParam<N> layout;
};

template <int N>
void launch_params(int index, CUfunction fn, unsigned grid, const ops::philox::RandomParams& p,
                   std::span<const ArrayView> params, const ArrayView& out, const CollapsedLayout& layout) {
  ParamArgs<N> a{p, out.data, shape_size(out.shape), {}, strided_param<N>(layout)};
  for (int k = 0; k < N; ++k) a.params[k] = params[k].data;
  void* args[] = {&a};
  launch(index, fn, grid, 256, args, "random");
}

}  // namespace

std::string random_params_source(DType t, ops::philox::Kind kind, int per, bool index32, int nparams) {
  const std::string np = std::to_string(nparams);
  std::string s = source_prologue() + "#include \"ops/philox_samplers.h\"\n";
  s += "typedef " + std::string(device_type_name(t)) + " R;\n";
  s += std::string("typedef ") + (index32 ? "unsigned" : "long long") + " I;\n";
  s += "struct ParamArgs { copper::ops::philox::RandomParams p; void* out; long long n; const void* pv[" + np +
       "];\n  copper::kern::StridedLayout<" + np + "> l; };\n"
       "template <class V> __device__ __forceinline__ V param(const void* base, long long off) {\n"
       "  return *reinterpret_cast<const V*>(static_cast<const char*>(base) + off);\n}\n";
  s += "extern \"C\" __global__ void __launch_bounds__(256) copper_random_params(ParamArgs a) {\n"
       "  namespace philox = copper::ops::philox;\n"
       "  constexpr philox::Kind kind = static_cast<philox::Kind>(" +
       std::to_string(static_cast<unsigned>(kind)) + "u);\n  constexpr int per = " + std::to_string(per) + ";\n";
  s += "  R* out = reinterpret_cast<R*>(a.out);\n"
       "  const long long step = static_cast<long long>(gridDim.x) * blockDim.x;\n"
       "  const long long tid = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;\n";
  if (ops::philox::is_stream_kind(kind)) {
    s += "  for (long long i = tid; i < a.n; i += step) {\n"
         "    long long off[" + np + "];\n"
         "    copper::kern::offsets<" + np + ", I>(a.l, static_cast<I>(i), off);\n"
         "    double x[3] = {0.0, 0.0, 0.0};\n"
         "    long long n[3] = {0, 0, 0};\n";
    for (int k = 0; k < nparams; ++k) {
      const std::string ks = std::to_string(k);
      s += ops::philox::param_is_int(kind, k) ? "    n[" + ks + "] = param<long long>(a.pv[" + ks + "], off[" + ks + "]);\n"
                                               : "    x[" + ks + "] = param<double>(a.pv[" + ks + "], off[" + ks + "]);\n";
    }
    s += "    out[i] = philox::sample_element<R>(kind, a.p, static_cast<unsigned>(i), x, n);\n"
         "  }\n}\n";
    return s;
  }
  s += "  const void* pa = a.pv[0];\n  const void* pb = a.pv[1];\n"
       "  const long long nblocks = (a.n + per - 1) / per;\n"
       "  for (long long b = tid; b < nblocks; b += step) {\n"
       "    const long long first = b * per;\n"
       "    const int count = static_cast<int>(a.n - first < per ? a.n - first : per);\n"
       "    double va[per], vb[per];\n"
       "    unsigned long long lo[per], hi[per];\n"
       "    R v[per];\n"
       "    for (int k = 0; k < count; ++k) {\n"
       "      long long off[2];\n"
       "      copper::kern::offsets<2, I>(a.l, static_cast<I>(first + k), off);\n"
       "      if constexpr (copper::ops::is_float_v<R>) {\n"
       "        va[k] = param<double>(pa, off[0]);\n"
       "        vb[k] = param<double>(pb, off[1]);\n"
       "      } else {\n"
       "        lo[k] = param<unsigned long long>(pa, off[0]);\n"
       "        hi[k] = param<unsigned long long>(pb, off[1]);\n"
       "      }\n"
       "    }\n"
       "    philox::generate_group_with<R>(kind, a.p, static_cast<unsigned long long>(b), v, count, va, vb, lo, hi);\n"
       "    for (int k = 0; k < count; ++k) out[first + k] = v[k];\n"
       "  }\n}\n";
  return s;
}

void CudaBackend::random_params(ops::philox::Kind kind, const ops::philox::RandomParams& p,
                                std::span<const ArrayView> params, const ArrayView& out) {
  const std::int64_t n = shape_size(out.shape);
  if (n == 0) return;
  const bool stream = ops::philox::is_stream_kind(kind);
  if (stream ? params.empty() || params.size() > 3 : params.size() != 2)
    throw RuntimeError("random_params: wrong number of parameter views");
  for (const ArrayView& v : params)
    if (v.host_value) throw RuntimeError("random_params: parameters must be in device memory");
  const copper::Kind k = copper::kind(out.dtype);
  if (out.dtype == DType::float16 || k == Kind::complex_ || (!stream && k == Kind::float_ && out.dtype != DType::float64))
    throw TypeError("random: unsupported output dtype " + std::string(name(out.dtype)));
  const int nparams = static_cast<int>(params.size());
  const Strides* strides[3] = {};
  for (int j = 0; j < nparams; ++j) strides[j] = &params[static_cast<std::size_t>(j)].strides;
  const CollapsedLayout layout = collapse(out.shape, std::span<const Strides* const>(strides, params.size()));
  bool index32 = n <= 0xffffffffLL;
  for (std::int64_t d : layout.shape) index32 = index32 && d <= 0xffffffffLL;
  const int per = stream ? 1 : ops::philox::elements_per_group(kind, static_cast<int>(itemsize(out.dtype)), p.range);
  KeyBuilder key;
  key.add(kFamilyRandomParams).add(static_cast<unsigned>(out.dtype)).add(static_cast<unsigned>(kind));
  key.add(static_cast<unsigned>(per)).add(index32 ? 1u : 0u).add(static_cast<unsigned>(nparams));
  CUfunction fn = get_kernel(
      index_, key.key(), [&] { return random_params_source(out.dtype, kind, per, index32, nparams); },
      "copper_random_params");
  const unsigned grid = grid_for(index_, (n + per - 1) / per, 256, resident_blocks_per_sm(fn, 256));
  if (nparams == 1) launch_params<1>(index_, fn, grid, p, params, out, layout);
  else if (nparams == 2) launch_params<2>(index_, fn, grid, p, params, out, layout);
  else launch_params<3>(index_, fn, grid, p, params, out, layout);
}

}  // namespace copper::backend::cuda
