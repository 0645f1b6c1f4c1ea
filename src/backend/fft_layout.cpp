#include "backend/fft_layout.h"

#include <algorithm>
#include <cstdlib>

#include "ops/catalogue.h"

namespace copper::backend {

std::int64_t view_size(const ArrayView& v) { return shape_size(v.shape); }

bool has_unusual_strides(const ArrayView& v) {
  for (std::size_t d = 0; d < v.shape.size(); ++d)
    if (v.strides[d] < 0 || (v.strides[d] == 0 && v.shape[d] > 1)) return true;
  return false;
}

ArrayView compact_view(const ArrayView& v, void* data) {
  return ArrayView{data, v.dtype, v.shape, c_strides(v.shape, itemsize(v.dtype))};
}

FftLayout fft_layout(const FftJob& job, const ArrayView& in, const ArrayView& out) {
  FftLayout l;
  const int nd = static_cast<int>(out.shape.size());
  const int first = nd - job.rank;
  const std::int64_t in_size = itemsize(in.dtype), out_size = itemsize(out.dtype);
  auto element_stride = [&](std::int64_t bytes, std::int64_t size) {
    if (bytes % size != 0) l.element_strides = false;
    return bytes / size;
  };
  for (int d = 0; d < nd; ++d) {
    // The logical length: the real side's for r2c (input) and c2r (output).
    const std::int64_t n = job.kind == FftKind::r2c ? in.shape[d] : out.shape[d];
    FftDim dim{n, element_stride(in.strides[d], in_size), element_stride(out.strides[d], out_size)};
    if (d < first) {
      if (n != 1) l.batch.push_back(dim);
    } else {
      l.dims.push_back(dim);
    }
  }

  // Transform dimensions: drop length-1 ones and sort the rest by input stride (the
  // halved dimension of a real transform stays last).
  const bool real = job.kind != FftKind::c2c;
  std::vector<FftDim> sortable(l.dims.begin(), l.dims.end() - (real ? 1 : 0));
  sortable.erase(std::remove_if(sortable.begin(), sortable.end(), [](const FftDim& d) { return d.n == 1; }),
                 sortable.end());
  std::stable_sort(sortable.begin(), sortable.end(),
                   [](const FftDim& a, const FftDim& b) { return std::abs(a.in_stride) > std::abs(b.in_stride); });
  if (real) sortable.push_back(l.dims.back());
  if (sortable.empty()) sortable.push_back(l.dims.back());  // a c2c transform of length 1
  l.dims = std::move(sortable);

  // Batch dimensions: any order is the same batch; merge neighbours that are contiguous
  // in both views.
  std::stable_sort(l.batch.begin(), l.batch.end(),
                   [](const FftDim& a, const FftDim& b) { return std::abs(a.out_stride) > std::abs(b.out_stride); });
  std::vector<FftDim> merged;
  for (const FftDim& d : l.batch) {
    if (!merged.empty() && merged.back().in_stride == d.in_stride * d.n &&
        merged.back().out_stride == d.out_stride * d.n) {
      merged.back().n *= d.n;
      merged.back().in_stride = d.in_stride;
      merged.back().out_stride = d.out_stride;
    } else {
      merged.push_back(d);
    }
  }
  l.batch = std::move(merged);
  for (const FftDim& d : l.batch) l.batch_count *= d.n;
  return l;
}

void scale_view(Backend& backend, const ArrayView& view, double scale) {
  if (scale == 1.0 || view_size(view) == 0) return;
  // Complex elements become (..., 2) real views: each part is scaled by a real factor.
  ArrayView v = view;
  if (v.dtype == DType::complex64 || v.dtype == DType::complex128) {
    v.dtype = v.dtype == DType::complex64 ? DType::float32 : DType::float64;
    v.shape.push_back(2);
    v.strides.push_back(itemsize(v.dtype));
  }
  alignas(16) unsigned char value[16];
  Scalar(scale).store(v.dtype, value);
  const ArrayView factor{value, v.dtype, v.shape, Strides(v.shape.size(), 0),
                         backend.device().type != DeviceType::cpu};
  const ArrayView inputs[2] = {v, factor};
  backend.elementwise(ops::UfuncId::multiply, v.dtype, inputs, v);
}

}  // namespace copper::backend
