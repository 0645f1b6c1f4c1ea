// Stream compaction on the CPU (x[mask], nonzero, compress): tiles of the flags are
// counted in parallel, their exclusive offsets summed on one thread, then each tile
// writes its selected elements from its own offset, so no thread waits on another.
#include "backend/collapse_dims.h"
#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/cpu_indexing.h"
#include "backend/cpu/element_load.h"
#include "backend/cpu/thread_pool.h"
#include "ops/dtype_traits.h"

namespace copper::backend::cpu {

namespace {

using namespace indexing;

constexpr std::int64_t kTile = 1 << 16;

// NumPy's truth of one element: nonzero, so NaN is true and -0.0 false; complex
// numbers are true when either part is.
template <class T>
inline bool truth(const char* p) {
  const T v = load_element<T>(p);
  if constexpr (ops::is_same_v<T, ops::half>) return (v.bits & 0x7fff) != 0;
  else if constexpr (ops::is_same_v<T, ops::complex<float>> || ops::is_same_v<T, ops::complex<double>>)
    return v.re != 0 || v.im != 0;
  else return v != 0;
}

std::int64_t tiles_of(std::int64_t n) { return (n + kTile - 1) / kTile; }

// Whether flags (and src, when given) are flat: one collapsed dimension of unit stride.
bool flat(const ArrayView& flags, const ArrayView* src) {
  if (flags.shape.empty()) return true;
  std::vector<const Strides*> s{&flags.strides};
  if (src) s.push_back(&src->strides);
  CollapsedDims c = collapse_dims(flags.shape, s);
  if (c.shape.size() != 1) return false;
  if (c.strides[0][0] != static_cast<std::int64_t>(itemsize(flags.dtype)) && c.shape[0] != 1) return false;
  return !src || c.strides[1][0] == static_cast<std::int64_t>(itemsize(src->dtype)) || c.shape[0] == 1;
}

// Calls visit(t, begin, end) for each tile of the flags, in parallel.
template <class F>
void for_tiles(std::int64_t n, F&& visit) {
  parallel_for(tiles_of(n), 1, [&](std::int64_t t0, std::int64_t t1) {
    for (std::int64_t t = t0; t < t1; ++t) visit(t, t * kTile, std::min(n, (t + 1) * kTile));
  });
}

// The hot loops take everything as arguments (locals): stores through char* could alias
// captured references, which the compiler would then reload every element.
template <class T, int Bytes>
void select_flat_tile(const char* f, const char* src, char* out, std::int64_t ostride, std::int64_t begin,
                      std::int64_t end, std::int64_t k, std::int64_t last) {
  // Branch-free: every element is written at the next free place, which only the selected
  // ones advance; the loop ends once the tile's share is written.
  for (std::int64_t i = begin; i < end && k < last; ++i) {
    std::memcpy(out + k * ostride, src + i * Bytes, Bytes);
    k += truth<T>(f + i * sizeof(T));
  }
}

// Coordinates of the true elements of flat flags from `begin`: the last coordinate counts
// up and carries into the others.
template <class T>
void coordinates_flat_tile(const char* f, const std::int64_t* shape, int ndim, char* out, std::int64_t rstride,
                           std::int64_t dstride, std::int64_t begin, std::int64_t end, std::int64_t k,
                           std::int64_t last) {
  std::int64_t coord[64];
  std::int64_t rest = begin;
  for (int d = ndim - 1; d >= 0; --d) {
    coord[d] = rest % shape[d];
    rest /= shape[d];
  }
  if (ndim == 1) {  // branch-free, as in select_flat_tile: positions are the coordinates
    for (std::int64_t i = begin; i < end && k < last; ++i) {
      std::memcpy(out + k * rstride, &i, 8);
      k += truth<T>(f + i * sizeof(T));
    }
    return;
  }
  const std::int64_t inner = shape[ndim - 1];
  for (std::int64_t i = begin; i < end; ++i) {
    if (truth<T>(f + i * sizeof(T))) {
      char* row = out + k * rstride;
      for (int d = 0; d < ndim; ++d) std::memcpy(row + d * dstride, &coord[d], 8);
      ++k;
    }
    if (++coord[ndim - 1] == inner) {
      coord[ndim - 1] = 0;
      for (int d = ndim - 2; d >= 0 && ++coord[d] == shape[d]; --d) coord[d] = 0;
    }
  }
}

const std::int64_t* offsets_of(const Selection& sel) { return static_cast<const std::int64_t*>(sel.tile_offsets->data()); }

}  // namespace

Selection CpuBackend::select_count(const ArrayView& flags) {
  const std::int64_t n = shape_size(flags.shape);
  const std::int64_t tiles = tiles_of(n);
  Selection sel;
  sel.tile_offsets = allocate(static_cast<std::size_t>(tiles + 1) * sizeof(std::int64_t));
  auto* off = static_cast<std::int64_t*>(sel.tile_offsets->data());
  const bool is_flat = flat(flags, nullptr);
  const char* base = static_cast<const char*>(flags.data);
  ops::visit_dtype(flags.dtype, [&]<class T>() {
    for_tiles(n, [&](std::int64_t t, std::int64_t begin, std::int64_t end) {
      std::int64_t c = 0;
      if (is_flat && ops::is_same_v<T, bool>) {  // a plain count of nonzero bytes vectorizes
        const auto* p = reinterpret_cast<const unsigned char*>(base) + begin;
        for (std::int64_t i = 0; i < end - begin; ++i) c += p[i] != 0;
      } else if (is_flat) {
        for (std::int64_t i = begin; i < end; ++i) c += truth<T>(base + i * sizeof(T));
      } else {
        Odometer odo(flags.shape, {&flags.strides}, begin);
        for (std::int64_t i = begin; i < end; ++i, odo.next()) c += truth<T>(base + odo.offset(0));
      }
      off[t + 1] = c;
    });
  });
  off[0] = 0;
  for (std::int64_t t = 0; t < tiles; ++t) off[t + 1] += off[t];
  sel.count = off[tiles];
  return sel;
}

void CpuBackend::select_values(const ArrayView& flags, const Selection& sel, const ArrayView& src,
                               const ArrayView& out) {
  if (sel.count == 0) return;
  const std::int64_t n = shape_size(flags.shape);
  const std::int64_t* off = offsets_of(sel);
  const bool is_flat = flat(flags, &src);
  const char* fbase = static_cast<const char*>(flags.data);
  const char* sbase = static_cast<const char*>(src.data);
  char* obase = static_cast<char*>(out.data);
  const std::int64_t ostride = out.strides.empty() ? 0 : out.strides[0];
  ops::visit_dtype(flags.dtype, [&]<class T>() {
    visit_item_size(itemsize(src.dtype), [&]<int Bytes>() {
      for_tiles(n, [&](std::int64_t t, std::int64_t begin, std::int64_t end) {
        std::int64_t k = off[t];
        const std::int64_t last = off[t + 1];
        if (k == last) return;
        if (is_flat) {
          select_flat_tile<T, Bytes>(fbase, sbase, obase, ostride, begin, end, k, last);
        } else {
          Odometer odo(flags.shape, {&flags.strides, &src.strides}, begin);
          for (std::int64_t i = begin; i < end && k < last; ++i, odo.next()) {
            if (!truth<T>(fbase + odo.offset(0))) continue;
            std::memcpy(obase + k * ostride, sbase + odo.offset(1), Bytes);
            ++k;
          }
        }
      });
    });
  });
}

void CpuBackend::select_coordinates(const ArrayView& flags, const Selection& sel, const ArrayView& out) {
  if (sel.count == 0 || flags.shape.empty()) return;  // a 0-d array's positions have no coordinates
  const std::int64_t n = shape_size(flags.shape);
  const std::int64_t* off = offsets_of(sel);
  const char* fbase = static_cast<const char*>(flags.data);
  char* obase = static_cast<char*>(out.data);
  const std::int64_t rstride = out.strides[0], dstride = out.strides.size() > 1 ? out.strides[1] : 0;
  const int ndim = static_cast<int>(flags.shape.size());
  const bool is_flat = flat(flags, nullptr);
  ops::visit_dtype(flags.dtype, [&]<class T>() {
    for_tiles(n, [&](std::int64_t t, std::int64_t begin, std::int64_t end) {
      std::int64_t k = off[t];
      if (k == off[t + 1]) return;
      if (is_flat && ndim <= 64) {
        coordinates_flat_tile<T>(fbase, flags.shape.data(), ndim, obase, rstride, dstride, begin, end, k, off[t + 1]);
        return;
      }
      Odometer odo(flags.shape, {&flags.strides}, begin);
      for (std::int64_t i = begin; i < end; ++i, odo.next()) {
        if (!truth<T>(fbase + odo.offset(0))) continue;
        char* row = obase + k * rstride;
        for (int d = 0; d < ndim; ++d) *reinterpret_cast<std::int64_t*>(row + d * dstride) = odo.coord()[d];
        ++k;
      }
    });
  });
}

}  // namespace copper::backend::cpu
