// CpuBackend::histogram: the sample is cut into a fixed number of ranges (set by its
// length, not by the thread count, so float sums are reproducible); each range counts
// into its own copy of the histogram, block by block (flat bin indices of a block
// first, axis by axis, then the additions), and the copies are summed in range order.
// A bool histogram marks the bins that are hit (its "sum" is OR).
#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/element_load.h"
#include "backend/cpu/thread_pool.h"
#include "ops/casting.h"
#include "ops/dtype_traits.h"
#include "ops/scalar_histogram.h"

namespace copper::backend::cpu {
namespace {

using std::int64_t;

constexpr int64_t kBlock = 4096;             // elements whose bin indices are found together
constexpr int64_t kRangeElements = 1 << 16;  // at least this many elements per private copy
constexpr int kMaxRanges = 64;
constexpr int64_t kCopyBudget = 64ll << 20;  // bytes for all private copies together

// flat[i] += bin * stride along one axis, or flat[i] = -1 when the axis drops element i.
template <class X, class E>
void axis_bins(const HistogramAxis& ax, int64_t begin, int64_t count, int64_t stride, int64_t* flat) {
  const char* x = static_cast<const char*>(ax.x.data) + begin * ax.x.strides[0];
  const int64_t xs = ax.x.strides[0];
  if (ax.bins == HistogramBins::index) {
    for (int64_t i = 0; i < count; ++i)
      if (flat[i] >= 0) flat[i] += ops::cast<int64_t>(load_element<X>(x + i * xs)) * stride;
    return;
  }
  const E* e = static_cast<const E*>(ax.edges.data);
  const int64_t n = ax.edges.shape[0] - 1;
  const bool uniform = ax.bins == HistogramBins::uniform_edges;
  const ops::UniformGuess g{static_cast<double>(e[0]),
                            static_cast<double>(n) / (static_cast<double>(e[n]) - static_cast<double>(e[0]))};
  for (int64_t i = 0; i < count; ++i) {
    if (flat[i] < 0) continue;
    long long b;
    if (ops::histogram_bin(ops::cast<E>(load_element<X>(x + i * xs)), e, n, uniform, g, b)) flat[i] += b * stride;
    else flat[i] = -1;
  }
}

void axis_bins_dispatch(const HistogramAxis& ax, int64_t begin, int64_t count, int64_t stride, int64_t* flat) {
  ops::visit_dtype(ax.x.dtype, [&]<class X>() {
    if constexpr (ops::is_complex_v<X>) {
      throw TypeError("histogram: complex samples have no order");
    } else {
      ops::visit_dtype(ax.bins == HistogramBins::index ? DType::int64 : ax.edges.dtype, [&]<class E>() {
        if constexpr (std::is_same_v<E, int64_t> || std::is_same_v<E, uint64_t> || std::is_same_v<E, float> ||
                      std::is_same_v<E, double>)
          axis_bins<X, E>(ax, begin, count, stride, flat);
        else
          throw TypeError("histogram: edges must be int64, uint64, float32 or float64");
      });
    }
  });
}

// The accumulator of a bool histogram: whether a bin was hit. Adding is OR, so the
// per-range copies combine as counts do.
struct Hit {
  std::uint8_t v = 0;  // 0 or 1: a bool's bytes
  Hit() = default;
  explicit Hit(int x) : v(x != 0) {}
  Hit& operator+=(Hit o) {
    v |= o.v;  // branch-free, so merging the copies vectorizes
    return *this;
  }
};
static_assert(sizeof(Hit) == sizeof(bool));

// hist[flat[i]] += weight i (or 1), skipping dropped elements.
template <class A, class W>
void add_block(const ArrayView* weights, int64_t begin, int64_t count, const int64_t* flat, A* hist) {
  if (!weights) {
    for (int64_t i = 0; i < count; ++i)
      if (flat[i] >= 0) hist[flat[i]] += A(1);
    return;
  }
  const char* w = static_cast<const char*>(weights->data) + begin * weights->strides[0];
  const int64_t ws = weights->strides[0];
  for (int64_t i = 0; i < count; ++i)
    if (flat[i] >= 0) hist[flat[i]] += ops::cast<A>(load_element<W>(w + i * ws));
}

template <class A>
void histogram_typed(std::span<const HistogramAxis> axes, const ArrayView* weights, const ArrayView& out) {
  const int64_t n = axes[0].x.shape[0];
  const int64_t total = shape_size(out.shape);
  A* result = static_cast<A*>(out.data);
  std::fill(result, result + total, A(0));
  if (n == 0 || total == 0) return;
  std::vector<int64_t> strides(axes.size());
  for (std::size_t d = axes.size(), s = 1; d-- > 0;) {
    strides[d] = static_cast<int64_t>(s);
    s *= static_cast<std::size_t>(out.shape[d]);
  }
  const int64_t copy_bytes = total * static_cast<int64_t>(sizeof(A));
  int64_t ranges = std::min<int64_t>({(n + kRangeElements - 1) / kRangeElements, kMaxRanges,
                                      std::max<int64_t>(1, kCopyBudget / copy_bytes)});
  std::vector<std::vector<A>> copies(static_cast<std::size_t>(ranges - 1));
  auto count_range = [&](int r) {
    A* hist = result;
    if (r > 0) {
      copies[r - 1].assign(static_cast<std::size_t>(total), A(0));
      hist = copies[r - 1].data();
    }
    const int64_t begin = n * r / ranges, end = n * (r + 1) / ranges;
    std::vector<int64_t> flat(kBlock);
    for (int64_t b = begin; b < end; b += kBlock) {
      const int64_t count = std::min(kBlock, end - b);
      std::fill(flat.begin(), flat.begin() + count, 0);
      for (std::size_t d = 0; d < axes.size(); ++d) axis_bins_dispatch(axes[d], b, count, strides[d], flat.data());
      if (!weights) {
        add_block<A, A>(nullptr, b, count, flat.data(), hist);
      } else if constexpr (!std::is_same_v<A, Hit>) {
        ops::visit_dtype(weights->dtype, [&]<class W>() { add_block<A, W>(weights, b, count, flat.data(), hist); });
      }
    }
  };
  parallel_tasks(static_cast<int>(ranges), count_range);
  if (ranges == 1) return;
  parallel_for(total, 4096, [&](int64_t b0, int64_t b1) {
    for (const auto& c : copies)
      for (int64_t b = b0; b < b1; ++b) result[b] += c[b];
  });
}

}  // namespace

void CpuBackend::histogram(std::span<const HistogramAxis> axes, const ArrayView* weights, const ArrayView& out) {
  switch (out.dtype) {
    case DType::int64:
    case DType::uint64: return histogram_typed<uint64_t>(axes, weights, out);  // wrapping sums
    case DType::float64: return histogram_typed<double>(axes, weights, out);
    case DType::complex128: return histogram_typed<ops::complex<double>>(axes, weights, out);
    case DType::bool_:
      if (weights) throw TypeError("histogram: a bool histogram takes no weights");
      return histogram_typed<Hit>(axes, nullptr, out);
    default: throw TypeError("histogram: the accumulator must be bool, int64, uint64, float64 or complex128");
  }
}

}  // namespace copper::backend::cpu
