// Batched matrix products on the GPU: floating and complex types through cuBLAS
// (float16 on tensor cores accumulating in float32, float32 in full float32 unless
// TF32 was asked for), integers and bool through a generated kernel.
#include <algorithm>

#include "backend/cuda/kernel_families.h"
#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_codegen.h"
#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_cublas.h"
#include "backend/cuda/cuda_matmul.h"
#include "backend/cuda/cuda_memory.h"
#include "backend/matmul_layout.h"
#include "backend/matmul_precision.h"

namespace copper::backend::cuda {

std::string matmul_source(DType t) {
  std::string s = source_prologue();
  s += "typedef " + std::string(device_type_name(t)) + " T;\n";
  s += "struct MatmulKernelArgs { const void* a; const void* b; void* out;\n"
       "  long long m, n, k, a_rs, a_cs, b_rs, b_cs, total; copper::kern::StridedLayout<2> batch; };\n";
  if (t == DType::bool_) {
    s += "typedef bool Acc;\n"
         "__device__ __forceinline__ void mac(Acc& acc, T x, T y) { acc = acc || (x && y); }\n";
  } else {
    // Integers wrap: unsigned 64-bit sums give NumPy's bits modulo 2^width.
    s += "typedef unsigned long long Acc;\n"
         "__device__ __forceinline__ Acc widen(T x) {\n"
         "  if constexpr (copper::ops::is_signed_int_v<T>) return static_cast<Acc>(static_cast<long long>(x));\n"
         "  else return static_cast<Acc>(x);\n}\n"
         "__device__ __forceinline__ void mac(Acc& acc, T x, T y) { acc += widen(x) * widen(y); }\n";
  }
  s += "extern \"C\" __global__ void __launch_bounds__(256) copper_matmul(MatmulKernelArgs p) {\n"
       "  const long long step = static_cast<long long>(gridDim.x) * blockDim.x;\n"
       "  for (long long idx = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; idx < p.total; idx += step) {\n"
       "    const long long j = idx % p.n, rest = idx / p.n, i = rest % p.m, batch = rest / p.m;\n"
       "    long long off[2];\n"
       "    copper::kern::offsets(p.batch, batch, off);\n"
       "    const char* a = static_cast<const char*>(p.a) + off[0] + i * p.a_rs;\n"
       "    const char* b = static_cast<const char*>(p.b) + off[1] + j * p.b_cs;\n"
       "    Acc acc = Acc(0);\n"
       "    for (long long q = 0; q < p.k; ++q)\n"
       "      mac(acc, copper::kern::load_element<T>(a + q * p.a_cs), copper::kern::load_element<T>(b + q * p.b_rs));\n"
       "    static_cast<T*>(p.out)[idx] = static_cast<T>(acc);\n"
       "  }\n}\n";
  return s;
}

namespace {

struct MatmulKernelArgs {  // mirrors the struct in matmul_source()
  const void* a;
  const void* b;
  void* out;
  long long m, n, k, a_rs, a_cs, b_rs, b_cs, total;
  StridedLayoutParam<2> batch;
};

void integer_matmul(int device, const ArrayView& a, const ArrayView& b, const ArrayView& out, std::int64_t m,
                    std::int64_t n, std::int64_t k) {
  const int nd = static_cast<int>(out.shape.size());
  const Shape batch_shape(out.shape.begin(), out.shape.end() - 2);
  const Strides sa(a.strides.begin(), a.strides.end() - 2), sb(b.strides.begin(), b.strides.end() - 2);
  const Strides* strides[] = {&sa, &sb};
  MatmulKernelArgs p{};
  p.a = a.data;
  p.b = b.data;
  p.out = out.data;
  p.m = m, p.n = n, p.k = k;
  p.a_rs = a.strides[nd - 2], p.a_cs = a.strides[nd - 1];
  p.b_rs = b.strides[nd - 2], p.b_cs = b.strides[nd - 1];
  p.total = shape_size(out.shape);
  p.batch = strided_param<2>(collapse(batch_shape, strides));
  KeyBuilder key;
  key.add(kFamilyIntegerMatmul).add(static_cast<unsigned>(out.dtype));
  CUfunction fn = get_kernel(device, key.key(), [&] { return matmul_source(out.dtype); }, "copper_matmul");
  void* args[] = {&p};
  launch(device, fn, grid_for(device, p.total, 256), 256, args, "matmul");
}

struct GemmTypes {
  cudaDataType data;
  cublasComputeType_t compute;
  bool float_scale;  // alpha/beta are float (float16/float32 compute) rather than the data type
};

GemmTypes gemm_types(DType t) {
  switch (t) {
    case DType::float16: return {CUDA_R_16F, CUBLAS_COMPUTE_32F, true};
    case DType::float32:
      return {CUDA_R_32F, matmul_allows_tf32().load() ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F, true};
    case DType::float64: return {CUDA_R_64F, CUBLAS_COMPUTE_64F, false};
    case DType::complex64: return {CUDA_C_32F, CUBLAS_COMPUTE_32F, false};
    default: return {CUDA_C_64F, CUBLAS_COMPUTE_64F, false};
  }
}

constexpr std::int64_t kInt32Max = 0x7fffffff;

}  // namespace

void CudaBackend::matmul(const ArrayView& a_in, const ArrayView& b_in, const ArrayView& out) {
  const int nd = static_cast<int>(out.shape.size());
  const std::int64_t m = out.shape[nd - 2], n = out.shape[nd - 1], k = a_in.shape[nd - 1];
  if (shape_size(out.shape) == 0) return;
  if (k == 0) {
    fill(out, Scalar(0));
    return;
  }
  make_current(index_);
  if (!is_inexact(out.dtype)) {
    integer_matmul(index_, a_in, b_in, out, m, n, k);
    return;
  }
  if (m > kInt32Max || n > kInt32Max || k > kInt32Max)
    throw NotImplementedError("matmul: matrix dimensions above 2**31 - 1 are not supported on the GPU");
  const int nbatch = nd - 2;
  const std::int64_t w = itemsize(out.dtype);
  ArrayView a = a_in, b = b_in;
  std::shared_ptr<Buffer> keep_a, keep_b;
  auto ga = gemm_operand(m, k, a.strides[nd - 2], a.strides[nd - 1], w);
  if (!ga || ga->ld > kInt32Max || !aligned(a.data, w)) {
    a = compact_for_gemm(*this, a_in, nbatch, keep_a);
    ga = gemm_operand(m, k, a.strides[nd - 2], a.strides[nd - 1], w);
  }
  auto gb = gemm_operand(k, n, b.strides[nd - 2], b.strides[nd - 1], w);
  if (!gb || gb->ld > kInt32Max || !aligned(b.data, w)) {
    b = compact_for_gemm(*this, b_in, nbatch, keep_b);
    gb = gemm_operand(k, n, b.strides[nd - 2], b.strides[nd - 1], w);
  }
  // cuBLAS takes one uniform stride per operand: the innermost batch dimension runs
  // inside one call, the outer ones (after collapsing) loop here.
  Shape batch_shape(out.shape.begin(), out.shape.end() - 2);
  const Strides sa(a.strides.begin(), a.strides.end() - 2), sb(b.strides.begin(), b.strides.end() - 2);
  const Strides so(out.strides.begin(), out.strides.end() - 2);
  const Strides* strides[] = {&so, &sa, &sb};
  const CollapsedLayout layout = collapse(batch_shape, strides);
  const int outer_dims = static_cast<int>(layout.shape.size()) - 1;
  const std::int64_t inner = layout.shape.back();
  std::int64_t outer = 1;
  for (int d = 0; d < outer_dims; ++d) outer *= layout.shape[d];

  const GemmTypes types = gemm_types(out.dtype);
  const double one_d[2] = {1.0, 0.0}, zero_d[2] = {0.0, 0.0};
  const float one_f[2] = {1.0f, 0.0f}, zero_f[2] = {0.0f, 0.0f};
  const bool single = types.float_scale || out.dtype == DType::complex64;
  const void* alpha = single ? static_cast<const void*>(one_f) : one_d;
  const void* beta = single ? static_cast<const void*>(zero_f) : zero_d;
  cublasHandle_t handle = cublas_handle(index_);
  // C^T (n x m) = B^T (n x k) * A^T (k x m), column-major.
  const cublasOperation_t op_b = gb->row_major ? CUBLAS_OP_N : CUBLAS_OP_T;
  const cublasOperation_t op_a = ga->row_major ? CUBLAS_OP_N : CUBLAS_OP_T;
  for (std::int64_t o = 0; o < outer; ++o) {
    std::int64_t off_out = 0, off_a = 0, off_b = 0, rest = o;
    for (int d = outer_dims - 1; d >= 0; --d) {
      const std::int64_t i = rest % layout.shape[d];
      rest /= layout.shape[d];
      off_out += i * layout.strides[0][d], off_a += i * layout.strides[1][d], off_b += i * layout.strides[2][d];
    }
    for (std::int64_t first = 0; first < inner; first += kInt32Max) {
      const int count = static_cast<int>(std::min(inner - first, kInt32Max));
      const char* ap = static_cast<const char*>(a.data) + off_a + first * layout.strides[1].back();
      const char* bp = static_cast<const char*>(b.data) + off_b + first * layout.strides[2].back();
      char* cp = static_cast<char*>(out.data) + off_out + first * layout.strides[0].back();
      check_cublas(cublas().gemm_strided_batched(
                       handle, op_b, op_a, static_cast<int>(n), static_cast<int>(m), static_cast<int>(k), alpha, bp,
                       types.data, static_cast<int>(gb->ld), layout.strides[2].back() / w, ap, types.data,
                       static_cast<int>(ga->ld), layout.strides[1].back() / w, beta, cp, types.data,
                       static_cast<int>(std::max<std::int64_t>(n, 1)), layout.strides[0].back() / w, count,
                       types.compute, CUBLAS_GEMM_DEFAULT),
                   "cublasGemmStridedBatchedEx (matmul)");
    }
  }
}

}  // namespace copper::backend::cuda
