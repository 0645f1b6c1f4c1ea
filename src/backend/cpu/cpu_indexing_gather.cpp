// CpuBackend::gather and CpuBackend::scatter: one loop over the index space B (split
// across threads), each position moving the block of the non-indexed axes R. A flat
// index into a flat operand (x[idx], take) gets a typed loop of its own.
#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/cpu_indexing.h"
#include "backend/collapse_dims.h"
#include "backend/cpu/thread_pool.h"

namespace copper::backend::cpu {

namespace {

using namespace indexing;

// x[idx] with one index array and nothing moved per position but one element, the
// index array and out both flat: out[b] = src[idx[b]].
template <int Bytes, class I>
void gather_flat(const ArrayView& src, const ArrayView& idx, std::int64_t ostride, char* out, std::int64_t nb,
                 IndexMode mode, int axis, FirstBadIndex& bad) {
  const char* base = static_cast<const char*>(src.data);
  const std::int64_t n = src.shape[0], sstride = src.strides[0], istride = idx.strides.empty() ? 0 : idx.strides[0];
  const char* ip = static_cast<const char*>(idx.data);
  parallel_for(nb, 32768, [=, &bad](std::int64_t b0, std::int64_t b1) {
    // Everything in locals: stores through char* could alias captured references, which
    // would reload them and serialize the random loads (3x slower).
    const char* const in = base;
    const char* const ind = ip;
    char* const o = out;
    const std::int64_t size = n, ss = sstride, is = istride, os = ostride;
    for (std::int64_t b = b0; b < b1; ++b) {
      const I raw = *reinterpret_cast<const I*>(ind + b * is);
      std::int64_t i = raw;
      if (mode == IndexMode::raise) {
        if (i < 0) i += size;
        if (static_cast<std::uint64_t>(i) >= static_cast<std::uint64_t>(size)) {
          bad.note(b, raw, axis, size);
          continue;
        }
      } else {
        normalize_index(i, size, mode);
      }
      std::memcpy(o + b * os, in + i * ss, Bytes);
    }
  });
}

// x[idx] = v in the same flat layout: dst[idx[b]] = values[b] over [b0, b1), indices
// already checked (raise mode) or brought in range by the mode.
template <int Bytes, class I>
void scatter_flat_range(char* dst, std::int64_t n, std::int64_t dstride, const char* ind, std::int64_t istride,
                        const char* vals, std::int64_t vstride, IndexMode mode, std::int64_t b0, std::int64_t b1) {
  for (std::int64_t b = b0; b < b1; ++b) {
    std::int64_t i = *reinterpret_cast<const I*>(ind + b * istride);
    if (mode == IndexMode::raise) {
      if (i < 0) i += n;
    } else {
      normalize_index(i, n, mode);
    }
    std::memcpy(dst + i * dstride, vals + b * vstride, Bytes);
  }
}

// The flat layout gather_flat handles: one index array and B collapsing to one
// dimension in both it and out, and a single element per position.
bool flat_gather_layout(const IndexJob& j, const IndexArrays& index) {
  if (index.arrays.size() != 1 || j.nr != 1) return false;
  const Strides* s[] = {&j.other_b, &index.arrays[0].strides};
  CollapsedDims c = collapse_dims(j.b_shape, s);
  return c.shape.size() == 1;
}

}  // namespace

void CpuBackend::gather(const ArrayView& src, const IndexArrays& index, const ArrayView& out) {
  IndexJob j = make_job(src, index, out);
  if (j.nb == 0 || j.nr == 0) return;
  FirstBadIndex bad;
  visit_item_size(itemsize(src.dtype), [&]<int Bytes>() {
    if (flat_gather_layout(j, index)) {
      const Strides* s[] = {&j.other_b, &index.arrays[0].strides};
      CollapsedDims c = collapse_dims(j.b_shape, s);
      ArrayView idx = index.arrays[0];
      idx.strides = {c.strides[1][0]};
      char* o = static_cast<char*>(out.data);
      if (idx.dtype == DType::int32)
        gather_flat<Bytes, std::int32_t>(src, idx, c.strides[0][0], o, j.nb, index.mode, index.axes[0], bad);
      else
        gather_flat<Bytes, std::int64_t>(src, idx, c.strides[0][0], o, j.nb, index.mode, index.axes[0], bad);
      return;
    }
    char* const obase = static_cast<char*>(out.data);
    char* const sbase = static_cast<char*>(src.data);
    parallel_for(j.nb, std::max<std::int64_t>(1, 32768 / j.nr), [&](std::int64_t b0, std::int64_t b1) {
      Odometer odo(j.b_shape, j.odometer_strides, b0);
      for (std::int64_t b = b0; b < b1; ++b, odo.next()) {
        std::int64_t off;
        if (indexed_offset(odo, index, src, b, off, &bad))
          move_block<Bytes, false>(obase + odo.offset(0), sbase + off, j.block);
      }
    });
  });
  bad.raise_if_any();
}

void CpuBackend::scatter(const ArrayView& dst, const IndexArrays& index, const ArrayView& values, bool unique_targets) {
  IndexJob j = make_job(dst, index, values);
  if (j.nb == 0 || j.nr == 0) return;
  check_all_indices(j, index, dst);  // before the first write
  // Repeated targets keep NumPy's order (the last write wins) unless every position
  // writes the same values, or the caller knows targets are unique.
  bool same_values = true;
  for (std::int64_t s : j.other_b) same_values = same_values && s == 0;
  const bool any_order = unique_targets || same_values || j.nb == 1;
  visit_item_size(itemsize(dst.dtype), [&]<int Bytes>() {
    if (flat_gather_layout(j, index)) {
      const Strides* s[] = {&j.other_b, &index.arrays[0].strides};
      CollapsedDims c = collapse_dims(j.b_shape, s);
      char* const d = static_cast<char*>(dst.data);
      const char* const ind = static_cast<const char*>(index.arrays[0].data);
      const char* const vals = static_cast<const char*>(values.data);
      const std::int64_t n = dst.shape[0], ds = dst.strides[0], is = c.strides[1][0], vs = c.strides[0][0];
      const IndexMode mode = index.mode;
      const bool i32 = index.arrays[0].dtype == DType::int32;
      auto range = [=](std::int64_t b0, std::int64_t b1) {
        if (i32) scatter_flat_range<Bytes, std::int32_t>(d, n, ds, ind, is, vals, vs, mode, b0, b1);
        else scatter_flat_range<Bytes, std::int64_t>(d, n, ds, ind, is, vals, vs, mode, b0, b1);
      };
      if (any_order) parallel_for(j.nb, 32768, range);
      else range(0, j.nb);
      return;
    }
    char* const vbase = static_cast<char*>(values.data);
    char* const dbase = static_cast<char*>(dst.data);
    auto body = [&](std::int64_t b0, std::int64_t b1) {
      Odometer odo(j.b_shape, j.odometer_strides, b0);
      std::int64_t off;
      for (std::int64_t b = b0; b < b1; ++b, odo.next()) {
        indexed_offset(odo, index, dst, b, off, nullptr);
        move_block<Bytes, true>(vbase + odo.offset(0), dbase + off, j.block);
      }
    };
    if (any_order) parallel_for(j.nb, std::max<std::int64_t>(1, 32768 / j.nr), body);
    else body(0, j.nb);
  });
}

}  // namespace copper::backend::cpu
