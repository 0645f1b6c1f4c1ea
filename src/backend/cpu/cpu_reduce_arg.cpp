// argmin and argmax: the index of the first extreme element, counted in C order over
// the reduced axes. NaN counts as the extreme (the first NaN wins), as in NumPy.
// Walks the reduced axes in logical order (an index depends on it); along an outer
// axis whole rows are compared at once so memory is still read sequentially.
#include <type_traits>

#include "backend/cpu/cpu_reduce_families.h"
#include "backend/cpu/cpu_reduce_kernels.h"
#include "backend/cpu/cpu_reduce_reducers.h"
#include "backend/cpu/cpu_reduce_simd.h"

namespace copper::backend::cpu {
namespace {

using std::int64_t;
using reduce_kernels::chunk_elements;
using reduce_kernels::Cursor;
using reduce_kernels::load_at;
using reduce_kernels::row_block;

// Whether v replaces the current best; strict, so the first of equal values stays.
template <bool IsMax, class V>
inline bool better(V v, V best) {
  if (reducers::detail::isnan(best)) return false;
  if (reducers::detail::isnan(v)) return true;
  return IsMax ? reducers::detail::greater(v, best) : reducers::detail::greater(best, v);
}

// The first index of m (an element of p[0, n)), or of the first NaN when m is NaN.
template <class T>
int64_t first_index_of(const T* p, int64_t n, T m) {
#ifdef COPPER_HAVE_SSE2_EXTREMUM
  if constexpr (ops::is_same_v<T, float> || ops::is_same_v<T, double>) return reduce_simd::first_index_of(p, n, m);
  else if constexpr (sizeof(T) == 4) return reduce_simd::first_index_of_int32(p, n, m);
#endif
  const bool nan = m != m;
  int64_t k = 0;
  while (k < n && !(nan ? p[k] != p[k] : p[k] == m)) ++k;
  return k;
}

template <class V>
struct Best {
  V value{};
  int64_t index = -1;
};

template <bool IsMax, class T>
void arg_reduce(const ArrayView& in, int nreduce, const ArrayView& out) {
  using V = ops::compute_t<T>;
  const int nkeep = static_cast<int>(in.shape.size()) - nreduce;
  auto value = [](const char* p) { return ops::cast<V>(load_at<T>(p)); };
  // Reduced axes in logical order; drop length-1 axes, merge axes contiguous in C order.
  Shape rshape;
  std::vector<std::array<int64_t, 1>> rst;
  for (int d = nkeep; d < static_cast<int>(in.shape.size()); ++d) {
    if (in.shape[d] == 1) continue;
    if (!rshape.empty() && rst.back()[0] == in.strides[d] * in.shape[d]) {
      rshape.back() *= in.shape[d];
      rst.back()[0] = in.strides[d];
    } else {
      rshape.push_back(in.shape[d]);
      rst.push_back({in.strides[d]});
    }
  }
  if (rshape.empty()) {
    rshape = {1};
    rst = {{static_cast<int64_t>(sizeof(T))}};
  }
  const int64_t nred = shape_size(rshape);
  Shape kshape(in.shape.begin(), in.shape.begin() + nkeep);
  Strides kin(in.strides.begin(), in.strides.begin() + nkeep), kout(out.strides.begin(), out.strides.end());
  Layout<2> K = collapse<2>(kshape, {&kin, &kout});
  const int64_t nout = shape_size(kshape);
  if (nout == 0) return;
  const char* ibase = static_cast<const char*>(in.data);
  char* obase = static_cast<char*>(out.data);
  auto store = [](char* p, int64_t v) { *reinterpret_cast<int64_t*>(p) = v; };

  // Scans flat reduced indices [lo, hi) of one output, updating b.
  auto scan = [&](const char* base, int64_t lo, int64_t hi, Best<V>& b) {
    // Contiguous floats and integers: the extreme first (the min/max loops: vectorized, the
    // first NaN when there is one), then the first element equal to it. Two fast passes
    // instead of one compare-and-branch per element (2-4x NumPy's time before).
    if constexpr ((ops::is_int_v<T> || ops::is_same_v<T, float> || ops::is_same_v<T, double>) && ops::is_same_v<V, T>) {
      if (rshape.size() == 1 && rst[0][0] == static_cast<int64_t>(sizeof(T)) && hi > lo) {
        using R = std::conditional_t<IsMax, reducers::Max<T>, reducers::Min<T>>;
        const T* x = reinterpret_cast<const T*>(base) + lo;
        const T m = reduce_kernels::reduce_run<R, T, true>(reinterpret_cast<const char*>(x), hi - lo, sizeof(T));
        if (b.index < 0 || better<IsMax>(V(m), b.value)) b = {V(m), lo + first_index_of(x, hi - lo, m)};
        return;
      }
    }
    if (rshape.size() == 1) {
      const int64_t s = rst[0][0];
      for (int64_t i = lo; i < hi; ++i) {
        V v = value(base + i * s);
        if (b.index < 0 || better<IsMax>(v, b.value)) b = {v, i};
        if (reducers::detail::isnan(b.value)) return;
      }
      return;
    }
    Cursor<1> c(rshape, rst);
    c.seek(lo);
    for (int64_t i = lo; i < hi; ++i, c.next()) {
      V v = value(base + c.off[0]);
      if (b.index < 0 || better<IsMax>(v, b.value)) b = {v, i};
      if (reducers::detail::isnan(b.value)) return;
    }
  };

  // Outer layout: one reduced axis, a wide kept axis innermost in memory.
  if (rshape.size() == 1 && !K.shape.empty() && std::abs(K.strides.back()[0]) < std::abs(rst[0][0]) &&
      K.shape.back() >= 8) {
    const int64_t m = K.shape.back(), cs = K.strides.back()[0], os = K.strides.back()[1], rs = rst[0][0];
    Shape kouter(K.shape.begin(), K.shape.end() - 1);
    std::vector<std::array<int64_t, 2>> kouter_st(K.strides.begin(), K.strides.end() - 1);
    const int64_t nblocks = (m + row_block - 1) / row_block, items = shape_size(kouter) * nblocks;
    parallel_for(items, std::max<int64_t>(1, parallel_grain * items / (nout * nred)), [&](int64_t begin, int64_t end) {
      auto best = reduce_kernels::make_buffer<V>(row_block);
      auto idx = reduce_kernels::make_buffer<int64_t>(row_block);
      Cursor<2> c(kouter, kouter_st);
      for (int64_t t = begin; t < end; ++t) {
        c.seek(t / nblocks);
        int64_t c0 = (t % nblocks) * row_block, w = std::min(row_block, m - c0);
        const char* p = ibase + c.off[0] + c0 * cs;
        for (int64_t j = 0; j < w; ++j) best[j] = value(p + j * cs), idx[j] = 0;
        for (int64_t r = 1; r < nred; ++r) {
          const char* row = p + r * rs;
          for (int64_t j = 0; j < w; ++j) {
            V v = value(row + j * cs);
            if (better<IsMax>(v, best[j])) best[j] = v, idx[j] = r;
          }
        }
        char* o = obase + c.off[1] + c0 * os;
        for (int64_t j = 0; j < w; ++j) store(o + j * os, idx[j]);
      }
    });
    return;
  }

  const int64_t nchunks = (nred + chunk_elements - 1) / chunk_elements;
  if (nchunks == 1 || nout >= 4 * num_threads()) {
    parallel_for(nout, std::max<int64_t>(1, parallel_grain / nred), [&](int64_t begin, int64_t end) {
      Cursor<2> c(K.shape, K.strides);
      c.seek(begin);
      for (int64_t o = begin; o < end; ++o, c.next()) {
        Best<V> b;
        scan(ibase + c.off[0], 0, nred, b);
        store(obase + c.off[1], b.index);
      }
    });
    return;
  }
  // Few outputs: chunks in parallel; a later chunk wins only when strictly better.
  std::vector<Best<V>> partial(nout * nchunks);
  parallel_for(nout * nchunks, 1, [&](int64_t begin, int64_t end) {
    Cursor<2> c(K.shape, K.strides);
    for (int64_t t = begin; t < end; ++t) {
      c.seek(t / nchunks);
      int64_t lo = (t % nchunks) * chunk_elements;
      scan(ibase + c.off[0], lo, std::min(nred, lo + chunk_elements), partial[t]);
    }
  });
  Cursor<2> c(K.shape, K.strides);
  for (int64_t o = 0; o < nout; ++o, c.next()) {
    Best<V> b = partial[o * nchunks];
    for (int64_t k = 1; k < nchunks; ++k) {
      const Best<V>& q = partial[o * nchunks + k];
      if (better<IsMax>(q.value, b.value)) b = q;
    }
    store(obase + c.off[1], b.index);
  }
}

}  // namespace

bool reduce_arg_family(ops::ReduceOp op, const ArrayView& in, int nreduce, const ArrayView& out) {
  if (out.dtype != DType::int64) return false;
  ops::visit_dtype(in.dtype, [&]<class T>() {
    if (op == ops::ReduceOp::argmax) arg_reduce<true, T>(in, nreduce, out);
    else arg_reduce<false, T>(in, nreduce, out);
  });
  return true;
}

}  // namespace copper::backend::cpu
