// Copies to the host only what a print shows: for a summarized array, each corner block
// is a strided view of the device array, copied on its own and placed into one buffer.
#include <cstring>

#include "core/format_internal.h"

namespace copper::format {

namespace {

// A run of indices [start, start + length) of one axis, placed at `dest` in the copy.
struct Segment {
  std::int64_t start, length, dest;
};

// The segments NumPy's _leading_trailing keeps along an axis of length n. Note a[-0:]
// is the whole axis in Python, so edgeitems == 0 keeps everything after an empty lead.
std::vector<Segment> axis_segments(std::int64_t n, bool summarize, std::int64_t edge) {
  if (!summarize || n <= 2 * edge) return {{0, n, 0}};
  if (edge == 0) return {{0, n, 0}};
  return {{0, edge, 0}, {n - edge, edge, edge}};
}

// Scatters a C-ordered block of shape `lens` into `out` (C order of `out_shape`) at `origin`.
void scatter_block(const unsigned char* block, const Shape& lens, const Shape& origin, const Shape& out_shape,
                   std::int64_t itemsize, unsigned char* out) {
  const int nd = static_cast<int>(lens.size());
  if (nd == 0) {
    std::memcpy(out, block, itemsize);
    return;
  }
  Strides out_strides = c_strides(out_shape, itemsize);
  const std::int64_t row_bytes = lens[nd - 1] * itemsize;
  std::int64_t rows = 1;
  for (int d = 0; d < nd - 1; ++d) rows *= lens[d];
  std::vector<std::int64_t> idx(nd, 0);
  for (std::int64_t r = 0; r < rows; ++r) {
    std::int64_t off = origin[nd - 1] * out_strides[nd - 1];
    for (int d = 0; d < nd - 1; ++d) off += (origin[d] + idx[d]) * out_strides[d];
    std::memcpy(out + off, block + r * row_bytes, row_bytes);
    for (int d = nd - 2; d >= 0; --d) {  // next row index, odometer style
      if (++idx[d] < lens[d]) break;
      idx[d] = 0;
    }
  }
}

}  // namespace

PrintedData gather_printed(const ndarray& a, bool summarize, int edgeitems) {
  PrintedData out;
  out.dtype = a.dtype();
  const int nd = a.ndim();
  const std::int64_t itemsize = a.itemsize();
  std::vector<std::vector<Segment>> segments(nd);
  bool whole = true;
  for (int d = 0; d < nd; ++d) {
    segments[d] = axis_segments(a.shape()[d], summarize, edgeitems);
    std::int64_t len = 0;
    for (const auto& s : segments[d]) len += s.length;
    out.shape.push_back(len);
    whole = whole && segments[d].size() == 1;
  }
  out.bytes.resize(static_cast<std::size_t>(shape_size(out.shape) * itemsize));
  if (out.bytes.empty()) return out;
  if (whole) {
    a.copy_to_host(out.bytes.data());
    return out;
  }
  // Every combination of one segment per axis is one corner block.
  std::vector<std::size_t> pick(nd, 0);
  std::vector<unsigned char> block;
  while (true) {
    Shape lens(nd), origin(nd);
    std::int64_t offset = a.offset();
    for (int d = 0; d < nd; ++d) {
      const Segment& s = segments[d][pick[d]];
      lens[d] = s.length;
      origin[d] = s.dest;
      offset += s.start * a.strides()[d];
    }
    ndarray corner = a.view_as(a.dtype(), lens, a.strides(), offset);
    block.resize(static_cast<std::size_t>(corner.nbytes()));
    corner.copy_to_host(block.data());
    scatter_block(block.data(), lens, origin, out.shape, itemsize, out.bytes.data());
    int d = nd - 1;
    for (; d >= 0; --d) {
      if (++pick[d] < segments[d].size()) break;
      pick[d] = 0;
    }
    if (d < 0) break;
  }
  return out;
}

}  // namespace copper::format
