// Pieces shared by the CPU gathers, scatters and compaction (cpu_indexing_*.cpp):
// odometers over strided operands, index normalization by mode, the first
// out-of-bounds index across threads, and element moves by item size.
#pragma once
#include <cstdint>
#include <cstring>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "backend/collapse_dims.h"
#include "backend/cpu/strided_loop.h"
#include "backend/cpu/thread_pool.h"

namespace copper::backend::cpu::indexing {

// Walks a shape in C order from a flat position, keeping the byte offset of the current
// element in each operand (one stride vector per operand, over the same shape).
class Odometer {
 public:
  Odometer(const Shape& shape, std::vector<const Strides*> strides, std::int64_t start)
      : shape_(shape), strides_(std::move(strides)), off_(strides_.size(), 0), coord_(shape.size(), 0) {
    std::int64_t rest = start;
    for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
      if (shape[d] == 0) break;
      coord_[d] = rest % shape[d];
      rest /= shape[d];
      for (std::size_t k = 0; k < strides_.size(); ++k) off_[k] += coord_[d] * (*strides_[k])[d];
    }
  }
  std::int64_t offset(int k) const { return off_[k]; }
  const std::vector<std::int64_t>& coord() const { return coord_; }
  void next() {
    for (int d = static_cast<int>(shape_.size()) - 1; d >= 0; --d) {
      for (std::size_t k = 0; k < strides_.size(); ++k) off_[k] += (*strides_[k])[d];
      if (++coord_[d] < shape_[d]) return;
      for (std::size_t k = 0; k < strides_.size(); ++k) off_[k] -= shape_[d] * (*strides_[k])[d];
      coord_[d] = 0;
    }
  }

 private:
  const Shape& shape_;
  std::vector<const Strides*> strides_;
  std::vector<std::int64_t> off_;
  std::vector<std::int64_t> coord_;
};

// The value of an int32 or int64 index element.
inline std::int64_t load_index(const void* p, DType t) {
  if (t == DType::int32) {
    std::int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  std::int64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// Brings i into [0, n) as `mode` says; false when it is out of bounds (raise mode).
inline bool normalize_index(std::int64_t& i, std::int64_t n, IndexMode mode) {
  if (mode == IndexMode::raise) {
    if (i < 0) i += n;
    return i >= 0 && i < n;
  }
  if (mode == IndexMode::wrap) {
    i %= n;
    if (i < 0) i += n;
    return true;
  }
  i = i < 0 ? 0 : (i >= n ? n - 1 : i);
  return true;
}

// The out-of-bounds index with the lowest position b that any thread saw; raised as
// NumPy's IndexError once the threads are done.
class FirstBadIndex {
 public:
  void note(std::int64_t b, std::int64_t value, int axis, std::int64_t size) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (b >= b_) return;
    b_ = b;
    value_ = value;
    axis_ = axis;
    size_ = size;
  }
  void raise_if_any() const {
    if (b_ == std::numeric_limits<std::int64_t>::max()) return;
    throw IndexError("index " + std::to_string(value_) + " is out of bounds for axis " + std::to_string(axis_) +
                     " with size " + std::to_string(size_));
  }

 private:
  std::mutex mutex_;
  std::int64_t b_ = std::numeric_limits<std::int64_t>::max(), value_ = 0, size_ = 0;
  int axis_ = 0;
};

// Sums the normalized indices of position b (odometer offsets 1..k) times the indexed
// axes' strides into a byte offset; false (noting the first bad index) when one is out
// of bounds in raise mode.
inline bool indexed_offset(const Odometer& odo, const IndexArrays& index, const ArrayView& indexed, std::int64_t b,
                    std::int64_t& offset, FirstBadIndex* bad) {
  offset = 0;
  for (std::size_t j = 0; j < index.arrays.size(); ++j) {
    const ArrayView& ia = index.arrays[j];
    const std::int64_t raw = load_index(static_cast<const char*>(ia.data) + odo.offset(static_cast<int>(j) + 1), ia.dtype);
    std::int64_t i = raw;
    if (!normalize_index(i, indexed.shape[j], index.mode)) {
      if (bad) bad->note(b, raw, index.axes[j], indexed.shape[j]);
      return false;
    }
    offset += i * indexed.strides[j];
  }
  return true;
}

// A fixed-size element, so copies by item size compile to plain loads and stores.
template <int Bytes> struct Item {
  unsigned char b[Bytes];
};

// Calls f.template operator()<Bytes>() for an item size of 1, 2, 4, 8 or 16 bytes.
template <class F>
decltype(auto) visit_item_size(std::int64_t itemsize, F&& f) {
  switch (itemsize) {
    case 1: return f.template operator()<1>();
    case 2: return f.template operator()<2>();
    case 4: return f.template operator()<4>();
    case 8: return f.template operator()<8>();
    default: return f.template operator()<16>();
  }
}

// The pieces of a gather or scatter: B (index space) and R (the whole axes moved per
// index position), with the other operand's strides split between them.
struct IndexJob {
  Shape b_shape, r_shape;
  Strides other_b, other_r, indexed_r;  // other: out (gather) or values (scatter)
  std::int64_t nb = 0, nr = 0;
  Layout<2> block;  // R collapsed: [0] the other operand, [1] the indexed one
  std::vector<const Strides*> odometer_strides;  // other over B, then each index array
};

inline IndexJob make_job(const ArrayView& indexed, const IndexArrays& index, const ArrayView& other) {
  IndexJob j;
  const std::size_t k = index.arrays.size();
  const std::size_t nbd = other.shape.size() - (indexed.shape.size() - k);
  j.b_shape.assign(other.shape.begin(), other.shape.begin() + nbd);
  j.r_shape.assign(indexed.shape.begin() + k, indexed.shape.end());
  j.other_b.assign(other.strides.begin(), other.strides.begin() + nbd);
  j.other_r.assign(other.strides.begin() + nbd, other.strides.end());
  j.indexed_r.assign(indexed.strides.begin() + k, indexed.strides.end());
  j.nb = shape_size(j.b_shape);
  j.nr = shape_size(j.r_shape);
  j.block = collapse<2>(j.r_shape, {&j.other_r, &j.indexed_r});
  j.odometer_strides.push_back(&j.other_b);
  for (const ArrayView& a : index.arrays) j.odometer_strides.push_back(&a.strides);
  return j;
}

// Moves one R block between the other operand (at `other`) and the indexed one.
template <int Bytes, bool ToIndexed>
void move_block(char* other, char* indexed, const Layout<2>& L, std::size_t d = 0) {
  if (L.shape.empty()) {
    if constexpr (ToIndexed) std::memcpy(indexed, other, Bytes);
    else std::memcpy(other, indexed, Bytes);
    return;
  }
  const std::int64_t n = L.shape[d];
  const auto s = L.strides[d];
  if (d + 1 < L.shape.size()) {
    for (std::int64_t i = 0; i < n; ++i) move_block<Bytes, ToIndexed>(other + i * s[0], indexed + i * s[1], L, d + 1);
    return;
  }
  if (s[0] == Bytes && s[1] == Bytes) {
    if constexpr (ToIndexed) std::memcpy(indexed, other, static_cast<std::size_t>(n * Bytes));
    else std::memcpy(other, indexed, static_cast<std::size_t>(n * Bytes));
    return;
  }
  for (std::int64_t i = 0; i < n; ++i) {
    if constexpr (ToIndexed) std::memcpy(indexed + i * s[1], other + i * s[0], Bytes);
    else std::memcpy(other + i * s[0], indexed + i * s[1], Bytes);
  }
}

// Raise mode: checks every index of the job before anything is written (IndexError
// naming the first bad one in C order).
template <class I>
void check_flat_range(const char* ind, std::int64_t istride, std::int64_t n, int axis, std::int64_t b0,
                      std::int64_t b1, FirstBadIndex& bad) {
  for (std::int64_t b = b0; b < b1; ++b) {
    const std::int64_t v = *reinterpret_cast<const I*>(ind + b * istride);
    if (v < -n || v >= n) {
      bad.note(b, v, axis, n);
      return;
    }
  }
}

inline void check_all_indices(const IndexJob& j, const IndexArrays& index, const ArrayView& indexed) {
  if (index.mode != IndexMode::raise) return;
  FirstBadIndex bad;
  if (index.arrays.size() == 1) {  // one index array: walk it flat where its layout allows
    const Strides* s[] = {&index.arrays[0].strides};
    CollapsedDims c = collapse_dims(j.b_shape, s);
    if (c.shape.size() == 1) {
      const char* ind = static_cast<const char*>(index.arrays[0].data);
      const std::int64_t is = c.strides[0][0], n = indexed.shape[0];
      const int axis = index.axes[0];
      const bool i32 = index.arrays[0].dtype == DType::int32;
      parallel_for(j.nb, 32768, [=, &bad](std::int64_t b0, std::int64_t b1) {
        if (i32) check_flat_range<std::int32_t>(ind, is, n, axis, b0, b1, bad);
        else check_flat_range<std::int64_t>(ind, is, n, axis, b0, b1, bad);
      });
      bad.raise_if_any();
      return;
    }
  }
  parallel_for(j.nb, 32768, [&](std::int64_t b0, std::int64_t b1) {
    Odometer odo(j.b_shape, j.odometer_strides, b0);
    std::int64_t off;
    for (std::int64_t b = b0; b < b1; ++b, odo.next()) indexed_offset(odo, index, indexed, b, off, &bad);
  });
  bad.raise_if_any();
}

}  // namespace copper::backend::cpu::indexing
