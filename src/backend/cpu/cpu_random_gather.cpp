// take_rows on the CPU: out[i, ...] = src[rows[i], ...] for choice, permutation and
// shuffle; rows split over threads, a memcpy per row when src's rows are contiguous.
#include <cstring>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/thread_pool.h"

namespace copper::backend::cpu {

namespace {

// Copies `count` elements of `Bytes` bytes each from a strided source row (shape and
// byte strides of the row's dimensions) into contiguous `out`.
template <std::size_t Bytes> struct Element {
  unsigned char b[Bytes];
};

template <std::size_t Bytes>
void copy_row(const char* src, const Shape& shape, const Strides& strides, char* out, std::int64_t count) {
  using E = Element<Bytes>;
  E* o = reinterpret_cast<E*>(out);
  if (shape.empty()) {
    std::memcpy(o, src, Bytes);
    return;
  }
  std::vector<std::int64_t> index(shape.size(), 0);
  const std::size_t inner = shape.size() - 1;
  std::int64_t offset = 0;
  for (std::int64_t k = 0; k < count;) {
    for (std::int64_t j = 0; j < shape[inner]; ++j, ++k) std::memcpy(o + k, src + offset + j * strides[inner], Bytes);
    std::size_t d = inner;
    while (d-- > 0) {
      offset += strides[d];
      if (++index[d] < shape[d]) break;
      offset -= strides[d] * shape[d];
      index[d] = 0;
    }
  }
}

}  // namespace

void CpuBackend::take_rows(const ArrayView& src, const ArrayView& rows, const ArrayView& out) {
  const std::int64_t m = shape_size(rows.shape);
  const Shape row_shape(src.shape.begin() + 1, src.shape.end());
  const Strides row_strides(src.strides.begin() + 1, src.strides.end());
  const std::int64_t row_elems = shape_size(row_shape);
  if (m == 0 || row_elems == 0) return;
  const std::int64_t item = static_cast<std::int64_t>(itemsize(src.dtype));
  const std::int64_t row_bytes = row_elems * item;
  const auto* idx = static_cast<const std::int64_t*>(rows.data);
  const char* base = static_cast<const char*>(src.data);
  char* dst = static_cast<char*>(out.data);
  // Rows contiguous in C order: one memcpy each.
  bool contiguous = true;
  std::int64_t expect = item;
  for (std::size_t d = row_shape.size(); d-- > 0;) {
    if (row_shape[d] != 1 && row_strides[d] != expect) contiguous = false;
    expect *= row_shape[d];
  }
  if (row_shape.empty() && (item == 4 || item == 8)) {  // 1-D: a typed gather, no memcpy per element
    parallel_for(m, 16384, [&](std::int64_t begin, std::int64_t end) {
      for (std::int64_t i = begin; i < end; ++i) {
        if (item == 8) std::memcpy(dst + i * 8, base + idx[i] * src.strides[0], 8);
        else std::memcpy(dst + i * 4, base + idx[i] * src.strides[0], 4);
      }
    });
    return;
  }
  const std::int64_t grain = std::max<std::int64_t>(1, 65536 / row_bytes);
  parallel_for(m, grain, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) {
      const char* s = base + idx[i] * src.strides[0];
      char* o = dst + i * row_bytes;
      if (contiguous) {
        std::memcpy(o, s, static_cast<std::size_t>(row_bytes));
        continue;
      }
      switch (item) {
        case 1: copy_row<1>(s, row_shape, row_strides, o, row_elems); break;
        case 2: copy_row<2>(s, row_shape, row_strides, o, row_elems); break;
        case 4: copy_row<4>(s, row_shape, row_strides, o, row_elems); break;
        case 8: copy_row<8>(s, row_shape, row_strides, o, row_elems); break;
        default: copy_row<16>(s, row_shape, row_strides, o, row_elems); break;
      }
    }
  });
}

}  // namespace copper::backend::cpu
