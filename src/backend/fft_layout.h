// The layout of an FFT job as both FFT libraries want it: transform dimensions and batch
// dimensions with strides in elements (of the input's and the output's own type).
#pragma once
#include <cstdint>
#include <vector>

#include "backend/backend.h"

namespace copper::backend {

struct FftDim {
  std::int64_t n;           // transform: logical length (r2c/c2r: the real length); batch: count
  std::int64_t in_stride;   // elements of in.dtype
  std::int64_t out_stride;  // elements of out.dtype
};

struct FftLayout {
  // Transform dimensions, largest input stride first; for c2c any order is the same
  // transform, for r2c/c2r the halved dimension stays last. Length-1 dimensions are
  // dropped (but one always remains).
  std::vector<FftDim> dims;
  // Batch dimensions with length-1 ones dropped and contiguous neighbours merged,
  // largest output stride first (none: a single transform).
  std::vector<FftDim> batch;
  std::int64_t batch_count = 1;
  // Every stride is a whole number of elements (false: the caller copies first).
  bool element_strides = true;
};

FftLayout fft_layout(const FftJob& job, const ArrayView& in, const ArrayView& out);

// A view's elements in C order in fresh memory `data` (same dtype and shape).
ArrayView compact_view(const ArrayView& v, void* data);
// Whether a view has a negative stride, or a zero stride along a dimension longer than 1.
bool has_unusual_strides(const ArrayView& v);
std::int64_t view_size(const ArrayView& v);

}  // namespace copper::backend
