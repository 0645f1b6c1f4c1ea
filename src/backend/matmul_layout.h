// How a BLAS-style GEMM can read one strided matrix operand, shared by the CPU
// (Fortran BLAS) and CUDA (cuBLAS) backends: both are column-major, so a row-major
// C = A B is computed as C^T = B^T A^T with no data movement.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>

#include "backend/backend.h"

namespace copper::backend {

// A (rows x cols) matrix with byte strides, as GEMM sees it: `row_major` with leading
// dimension `ld` (elements between rows), or column-major (elements between columns).
struct GemmOperand {
  bool row_major;
  std::int64_t ld;
};

// The GEMM reading of a matrix, or nullopt when it needs a compact copy first
// (negative or interleaved strides). Strides of length-1 dimensions do not matter.
inline std::optional<GemmOperand> gemm_operand(std::int64_t rows, std::int64_t cols, std::int64_t row_stride,
                                               std::int64_t col_stride, std::int64_t itemsize) {
  const auto fits = [&](std::int64_t stride, std::int64_t min_ld) -> std::optional<std::int64_t> {
    if (stride <= 0 || stride % itemsize != 0 || stride / itemsize < min_ld) return std::nullopt;
    return stride / itemsize;
  };
  const std::int64_t r1 = std::max<std::int64_t>(rows, 1), c1 = std::max<std::int64_t>(cols, 1);
  if (cols <= 1 || col_stride == itemsize) {
    if (rows <= 1) return GemmOperand{true, c1};
    if (auto ld = fits(row_stride, c1)) return GemmOperand{true, *ld};
  }
  if (rows <= 1 || row_stride == itemsize) {
    if (cols <= 1) return GemmOperand{false, r1};
    if (auto ld = fits(col_stride, r1)) return GemmOperand{false, *ld};
  }
  return std::nullopt;
}

// Element offsets of batch `index` (C order over the batch dimensions) in bytes, for
// up to three operands sharing the batch shape (the leading ndim - 2 dimensions).
struct BatchWalker {
  const ArrayView* views[3];
  int nbatch;
  void offsets(std::int64_t index, std::int64_t out[3]) const {
    out[0] = out[1] = out[2] = 0;
    const Shape& shape = views[2]->shape;
    for (int d = nbatch - 1; d >= 0 && index > 0; --d) {
      const std::int64_t i = index % shape[d];
      index /= shape[d];
      for (int k = 0; k < 3; ++k) out[k] += i * views[k]->strides[d];
    }
  }
};

// A copy of `v` that GEMM can read: C-contiguous matrices on `be`'s device, with
// zero-stride (broadcast) batch dimensions kept at stride 0 so the copy is no larger
// than the data. `keep` owns the copy.
inline ArrayView compact_for_gemm(Backend& be, const ArrayView& v, int nbatch, std::shared_ptr<Buffer>& keep) {
  ArrayView src = v, dst = v;
  for (int d = 0; d < nbatch; ++d)
    if (v.strides[d] == 0) src.shape[d] = 1;
  const std::int64_t w = itemsize(v.dtype);
  keep = be.allocate(static_cast<std::size_t>(std::max<std::int64_t>(shape_size(src.shape), 1) * w));
  ArrayView tmp{keep->data(), v.dtype, src.shape, c_strides(src.shape, w)};
  be.copy(src, tmp);
  dst.data = tmp.data;
  dst.strides = tmp.strides;
  for (int d = 0; d < nbatch; ++d)
    if (v.strides[d] == 0) dst.strides[d] = 0;
  return dst;
}

}  // namespace copper::backend
