// Elementwise kernels: ufuncs, casting copies, fills and where, generated as CUDA
// source per (operation, dtypes, operand kinds, layout class) and compiled by NVRTC.
// Layout classes, fastest first: every array operand contiguous (one flat loop with
// 16-byte vector loads and stores when the pointers allow, 32-bit indices when the
// size fits); then general strided (dimensions collapsed, fast division).
// Scalars from Python/C++ travel by value in the parameter block; one-element
// broadcast device operands are loaded once per thread.
#include <cstring>

#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_codegen.h"
#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_transpose.h"
#include "backend/cuda/cuda_fp_errors.h"
#include "backend/cuda/elementwise_launch.h"
#include "copper/errstate.hpp"
#include "ops/catalogue.h"

namespace copper::backend::cuda {

std::string ufunc_expression(unsigned op, int nin) {
  const auto& info = ops::info(static_cast<ops::UfuncId>(op));
  const std::string functor = "copper::ops::" + std::string(info.name);
  std::string e = info.nout == 2 ? "copper::ops::invoke2<" + functor + ", R, R2>(y1" : "copper::ops::invoke<" + functor + ", R>(";
  for (int k = 0; k < nin; ++k) e += (k || info.nout == 2 ? ", x" : "x") + std::to_string(k);
  return e + ")";
}

void CudaBackend::elementwise(ops::UfuncId op, DType loop, std::span<const ArrayView> in, const ArrayView& out) {
  elementwise_multi(op, loop, in, std::span<const ArrayView>(&out, 1));
}

bool ufunc_reports_fp(ops::UfuncId op, DType loop, DType out) {
  const bool int_division = (op == ops::UfuncId::floor_divide || op == ops::UfuncId::remainder ||
                             op == ops::UfuncId::fmod || op == ops::UfuncId::divmod) &&
                            is_integer(loop);
  return is_inexact(out) || int_division;
}

void run_ufunc(int device, ops::UfuncId op, DType loop, std::span<const ArrayView> in, std::span<const ArrayView> out,
               unsigned fp_mask) {
  EwJob job;
  job.family = EwFamily::ufunc;
  job.op = static_cast<unsigned>(op);
  job.name = ops::info(op).name.data();
  job.nin = static_cast<int>(in.size());
  for (int k = 0; k < job.nin; ++k) job.in[k] = &in[k];
  job.out = &out[0];
  if (out.size() > 1) job.out2 = &out[1];
  job.expression = [op, nin = job.nin] { return ufunc_expression(static_cast<unsigned>(op), nin); };
  // errstate: watched flags make the checked variant, for results that can carry them.
  if (fp_mask && ufunc_reports_fp(op, loop, out[0].dtype) && fp_error_slots_ready(device)) {
    job.fp_check = true;
    job.fp_mask = fp_mask;
  }
  run_elementwise(device, job);
}

void CudaBackend::elementwise_multi(ops::UfuncId op, DType loop, std::span<const ArrayView> in,
                                    std::span<const ArrayView> out) {
  run_ufunc(index_, op, loop, in, out, fp_watch_mask());
}

void CudaBackend::copy(const ArrayView& src, const ArrayView& dst) {
  if (shape_size(dst.shape) == 0) return;
  if (src.dtype == dst.dtype && !src.host_value && is_c_contiguous_view(src) && is_c_contiguous_view(dst)) {
    make_current(index_);
    check(driver().cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst.data), reinterpret_cast<CUdeviceptr>(src.data),
                                 static_cast<std::size_t>(shape_size(dst.shape) * itemsize(dst.dtype)),
                                 current_stream_handle(index_)),
          "cuMemcpyAsync (device to device)");
    return;
  }
  if (src.dtype == DType::bool_ && dst.dtype == DType::bool_) {
    // A bool copy moves bytes, as NumPy's: the cast kernel would read each as true or false.
    ArrayView s = src, d = dst;
    s.dtype = d.dtype = DType::uint8;
    return copy(s, d);
  }
  if (try_transpose_copy(index_, src, dst)) return;  // transposed views: tiled, coalesced both ways
  EwJob job;
  job.family = EwFamily::cast;
  job.name = "astype";
  job.nin = 1;
  job.in[0] = &src;
  job.out = &dst;
  job.expression = [] { return std::string("copper::ops::cast<R>(x0)"); };
  run_elementwise(index_, job);
}

void CudaBackend::fill(const ArrayView& dst, const Scalar& value) {
  const std::int64_t n = shape_size(dst.shape);
  if (n == 0) return;
  alignas(16) unsigned char bytes[16] = {};
  value.store(dst.dtype, bytes);
  const std::size_t size = static_cast<std::size_t>(itemsize(dst.dtype));
  if (is_c_contiguous_view(dst) && try_memset(index_, dst.data, bytes, size, static_cast<std::size_t>(n))) return;
  ArrayView v{bytes, dst.dtype, dst.shape, Strides(dst.shape.size(), 0), true};
  EwJob job;
  job.family = EwFamily::fill;
  job.name = "fill";
  job.nin = 1;
  job.in[0] = &v;
  job.out = &dst;
  job.expression = [] { return std::string("x0"); };
  run_elementwise(index_, job);
}

void CudaBackend::where(const ArrayView& cond, const ArrayView& x, const ArrayView& y, const ArrayView& out) {
  EwJob job;
  job.family = EwFamily::where;
  job.name = "where";
  job.nin = 3;
  job.in[0] = &cond;
  job.in[1] = &x;
  job.in[2] = &y;
  job.out = &out;
  job.expression = [] { return std::string("(x0 ? x1 : x2)"); };
  run_elementwise(index_, job);
}

}  // namespace copper::backend::cuda
