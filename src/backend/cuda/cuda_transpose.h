// Transposing copies: dst (C-contiguous) = src where src is a (batched) transposed view,
// i.e. src is unit-stride along an axis other than dst's innermost one. The generic
// elementwise copy reads such a source a whole row apart per lane (uncoalesced); this
// path moves 32x32 tiles through shared memory so reads and writes are both coalesced.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "backend/backend.h"

namespace copper::backend::cuda {

// dst[b, i, j] = src[b, i, j] (cast to dst's dtype) with byte offsets
//   src: b * src_batch + i * itemsize(src) + j * src_col   (unit-stride along i)
//   dst: b * dst_batch + i * dst_row + j * itemsize(dst)   (unit-stride along j)
struct TransposePlan {
  std::int64_t batch = 1, rows = 0, cols = 0;
  std::int64_t src_batch = 0, src_col = 0;
  std::int64_t dst_batch = 0, dst_row = 0;
  // Same dtype: elements move as `align`-byte words (itemsize / align of them), so any
  // layout aligned to a divisor of the itemsize qualifies. Casts use the natural types.
  int align = 1;
};

// The plan for copying src into dst as a tiled transpose, or nothing where the copy is
// not one (or not one this path handles: negative or zero strides, misaligned data,
// more than one batch dimension, a non-C-contiguous dst, a host scalar source).
std::optional<TransposePlan> plan_transpose_copy(const ArrayView& src, const ArrayView& dst);

// The kernel source for elements of `from` copied into `to` (a cast where they differ);
// `align` as in TransposePlan (ignored for casts). Entry point: copper_transpose.
std::string transpose_source(DType from, DType to, int align);

// Runs the copy on `device`'s current stream when plan_transpose_copy finds a plan;
// false (nothing enqueued) otherwise.
bool try_transpose_copy(int device, const ArrayView& src, const ArrayView& dst);

}  // namespace copper::backend::cuda
