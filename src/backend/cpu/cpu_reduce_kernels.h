// Reduction loops of the CPU backend, generic over a "reducer" R that says how one
// element is loaded (R::load), how two partial results combine (R::combine) and what
// an empty reduction gives (R::identity). The layouts:
//   inner: the reduced elements of one output are the innermost in memory: each output
//          reduces its runs pairwise (8 vector lanes, halves above 128 elements).
//   outer: a kept axis is innermost: whole rows are accumulated into a buffer, rows
//          combined pairwise, so memory is read sequentially and the loop vectorizes.
// Outputs of more than one chunk of elements (a full reduction) split the reduced range into
// fixed-size chunks across threads and combine the partial results in order. No choice
// depends on the thread count, so neither does any result.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/cpu_reduce_simd.h"
#include "backend/cpu/element_load.h"
#include "backend/cpu/strided_loop.h"
#include "backend/cpu/thread_pool.h"
#include "ops/casting.h"
#include "ops/dtype_traits.h"

namespace copper::backend::cpu::reduce_kernels {

using std::int64_t;

// Reduced elements per parallel chunk: fixed (not derived from the thread count) so a
// result does not depend on how many threads computed it.
inline constexpr int64_t chunk_elements = 1 << 16;
// Columns per row buffer in the outer layout: a few KiB, stays in L1.
inline constexpr int64_t row_block = 512;
// Rows reduced sequentially before the pairwise split kicks in.
inline constexpr int64_t row_leaf = 16;
// Outer layout: with fewer row blocks than this, the rows are split too (at most
// max_row_splits pieces of 256 rows or more), for parallelism. Fixed numbers, not the
// thread count's: how the rows are split decides the result's rounding.
inline constexpr int64_t few_row_blocks = 16;
inline constexpr int64_t max_row_splits = 64;

// Scratch arrays: unique_ptr<T[]>, not vector<T>, since vector<bool> packs bits (and
// threads writing neighbouring bits would race).
template <class T>
std::unique_ptr<T[]> make_buffer(int64_t n) {
  return std::make_unique<T[]>(static_cast<std::size_t>(std::max<int64_t>(n, 1)));
}

template <class T>
inline T load_at(const char* p) {
  return load_element<T>(p);
}

// A strided index space (outermost dimension first), walked by flat index.
template <int N>
struct Cursor {
  const Shape* shape;
  const std::vector<std::array<int64_t, N>>* strides;
  std::vector<int64_t> idx;
  std::array<int64_t, N> off{};

  Cursor(const Shape& s, const std::vector<std::array<int64_t, N>>& st) : shape(&s), strides(&st), idx(s.size(), 0) {}
  void seek(int64_t flat) {
    off = {};
    for (int d = static_cast<int>(shape->size()) - 1; d >= 0; --d) {
      idx[d] = flat % (*shape)[d];
      flat /= (*shape)[d];
      for (int k = 0; k < N; ++k) off[k] += idx[d] * (*strides)[d][k];
    }
  }
  void next() {
    for (int d = static_cast<int>(shape->size()) - 1; d >= 0; --d) {
      for (int k = 0; k < N; ++k) off[k] += (*strides)[d][k];
      if (++idx[d] < (*shape)[d]) return;
      for (int k = 0; k < N; ++k) off[k] -= idx[d] * (*strides)[d][k];
      idx[d] = 0;
    }
  }
};

// The reduced axes, collapsed: outermost first, innermost (smallest stride) last.
struct ReducedLayout {
  Shape shape;
  std::vector<std::array<int64_t, 1>> strides;
  int64_t size() const { return shape_size(shape); }
  int64_t inner_len() const { return shape.back(); }
  int64_t inner_stride() const { return strides.back()[0]; }
};

// ---------------- inner layout: one output from contiguous or strided runs ----------------

// The pairwise base case: eight independent lanes (vectorizable, NumPy's scheme).
template <class R, class In, bool Contig>
inline typename R::Acc lanes_body(const char* p, int64_t n, int64_t stride) {
  using Acc = typename R::Acc;
  auto at = [&](int64_t i) {
    return R::load(load_at<In>(p + i * (Contig ? static_cast<int64_t>(sizeof(In)) : stride)));
  };
  if (n < 8) {
    Acc acc = at(0);
    for (int64_t i = 1; i < n; ++i) acc = R::combine(acc, at(i));
    return acc;
  }
  Acc r[8];
  for (int j = 0; j < 8; ++j) r[j] = at(j);
  int64_t i = 8;
  for (; i + 8 <= n; i += 8)
    for (int j = 0; j < 8; ++j) r[j] = R::combine(r[j], at(i + j));
  Acc acc = R::combine(R::combine(R::combine(r[0], r[1]), R::combine(r[2], r[3])),
                       R::combine(R::combine(r[4], r[5]), R::combine(r[6], r[7])));
  for (; i < n; ++i) acc = R::combine(acc, at(i));
  return acc;
}

// GCC 12 at -O3 miscompiles the loop vectorization of the lanes for integer sums with
// wrapping (unsigned) adds, e.g. int8 -> int64 at some lengths: integer accumulators
// get a copy compiled without it (min and max, which do no arithmetic, never come here:
// see reduce_run). Checked by test_reductions.py::test_sum_run_lengths and
// test_extremum_run_lengths.
#if defined(__GNUC__) && !defined(__clang__)
#define COPPER_NO_LOOP_VECTORIZE __attribute__((optimize("no-tree-loop-vectorize")))
#else
#define COPPER_NO_LOOP_VECTORIZE
#endif
template <class R, class In, bool Contig>
COPPER_NO_LOOP_VECTORIZE typename R::Acc lanes_int(const char* p, int64_t n, int64_t stride) {
  return lanes_body<R, In, Contig>(p, n, stride);
}

// Whether R adds its elements as they are (reducers::Sum, not its NaN-skipping or squaring
// variants), so that an integer sum of them may be taken in any order.
template <class R>
inline constexpr bool plain_sum_v = [] {
  if constexpr (requires { R::plain_sum; }) return R::plain_sum;
  else return false;
}();

template <class R, class In, bool Contig>
typename R::Acc reduce_run(const char* p, int64_t n, int64_t stride) {
#ifdef COPPER_HAVE_SSE2_EXTREMUM
  // max and min of contiguous floats: the whole run at once (order does not change them).
  if constexpr (Contig && (ops::is_same_v<In, float> || ops::is_same_v<In, double>) && requires { R::simd_extremum; }) {
    if constexpr (R::simd_extremum != 0 && ops::is_same_v<typename R::Acc, In>)
      return reduce_simd::extremum_run<(R::simd_extremum > 0)>(reinterpret_cast<const In*>(p), n);
  }
  // An integer sum of contiguous bools is a count: exact in any order, so the whole run at
  // once. (A float sum of bools keeps the pairwise order: its rounding past 2**24 is part of
  // the result.)
  if constexpr (Contig && ops::is_same_v<In, bool> && ops::is_int_v<typename R::Acc> && plain_sum_v<R>)
    return static_cast<typename R::Acc>(reduce_simd::count_nonzero_bytes(reinterpret_cast<const std::uint8_t*>(p), n));
  // So is a 64-bit integer sum into a 64-bit integer: it wraps, exactly, in any order.
  if constexpr (Contig && ops::is_int_v<In> && sizeof(In) == 8 && ops::is_int_v<typename R::Acc> &&
                sizeof(typename R::Acc) == 8 && plain_sum_v<R>)
    return static_cast<typename R::Acc>(reduce_simd::sum_64bit(reinterpret_cast<const unsigned char*>(p), n));
  // And a 32-bit one into a 64-bit integer.
  if constexpr (Contig && ops::is_int_v<In> && sizeof(In) == 4 && ops::is_int_v<typename R::Acc> &&
                sizeof(typename R::Acc) == 8 && plain_sum_v<R>)
    return static_cast<typename R::Acc>(
        reduce_simd::sum_32bit_widening<ops::is_signed_int_v<In>>(reinterpret_cast<const unsigned char*>(p), n));
#endif
  // all and any: the first zero (all) or nonzero (any) decides the run, whatever the order,
  // so it is read a kilobyte at a time (SSE2 compares) and left at the first block that
  // holds one. NumPy reads everything: any() of 5e7 mostly nonzero int8 took 7.8 ms here
  // before, 0.07 ms now (NumPy 2.1 ms); a full read runs at NumPy's speed.
  if constexpr (requires { R::decided_by; }) {
    const int64_t step = Contig ? static_cast<int64_t>(sizeof(In)) : stride;
    int64_t i = 0;
#ifdef COPPER_HAVE_SSE2_EXTREMUM
    constexpr bool simd = Contig && (ops::is_int_v<In> || ops::is_same_v<In, bool> || ops::is_same_v<In, float> ||
                                     ops::is_same_v<In, double>);
    constexpr int64_t block = 1024 / sizeof(In);  // 1 KiB between the checks
    if constexpr (simd) {
      for (; i + block <= n; i += block)
        if (reduce_simd::has_truth<In, R::decided_by>(reinterpret_cast<const unsigned char*>(p + i * step), 1024))
          return R::decided_by;
    } else if constexpr (Contig && ops::is_complex_v<In>) {
      using Part = decltype(In{}.re);
      for (; i + block <= n; i += block)
        if (reduce_simd::has_truth_complex<Part, R::decided_by>(reinterpret_cast<const unsigned char*>(p + i * step), 1024))
          return R::decided_by;
    }
#endif
    for (; i < n; ++i)  // the rest, and half-precision or strided runs
      if (R::load(load_at<In>(p + i * step)) == R::decided_by) return R::decided_by;
    return R::identity();
  }
  // Min and max need no pairwise split (it bounds rounding, which they have none of): one
  // pass of eight lanes over the whole run. With 128-element leaves each lane saw a new
  // extreme in about a fifth of its elements, a branch mispredicted as often (int64 max,
  // not vectorized for SSE2, ran at 7 cycles an element).
  if constexpr (requires { R::order_free; }) return lanes_body<R, In, Contig>(p, n, stride);
  if (n <= 128) {
    if constexpr (ops::is_int_v<typename R::Acc>) return lanes_int<R, In, Contig>(p, n, stride);
    else return lanes_body<R, In, Contig>(p, n, stride);
  }
  int64_t half = n / 2;
  half -= half % 8;
  int64_t step = Contig ? static_cast<int64_t>(sizeof(In)) : stride;
  return R::combine(reduce_run<R, In, Contig>(p, half, stride),
                    reduce_run<R, In, Contig>(p + half * step, n - half, stride));
}

// Reduces the flat range [lo, hi) (hi > lo) of the reduced index space rooted at `base`.
template <class R, class In>
typename R::Acc reduce_range(const char* base, const ReducedLayout& L, int64_t lo, int64_t hi) {
  using Acc = typename R::Acc;
  const int64_t len = L.inner_len(), s = L.inner_stride();
  auto run = [&](const char* p, int64_t n) {
    return s == static_cast<int64_t>(sizeof(In)) ? reduce_run<R, In, true>(p, n, s)
                                                  : reduce_run<R, In, false>(p, n, s);
  };
  if (L.shape.size() == 1) return run(base + lo * s, hi - lo);
  // Several reduced dimensions that do not merge: reduce each run, combine runs in order.
  Shape outer(L.shape.begin(), L.shape.end() - 1);
  std::vector<std::array<int64_t, 1>> outer_strides(L.strides.begin(), L.strides.end() - 1);
  Cursor<1> c(outer, outer_strides);
  c.seek(lo / len);
  int64_t pos = lo, col = lo % len;
  Acc acc{};
  bool first = true;
  while (pos < hi) {
    int64_t n = std::min(len - col, hi - pos);
    Acc r = run(base + c.off[0] + col * s, n);
    acc = first ? r : R::combine(acc, r);
    first = false;
    pos += n;
    col = 0;
    c.next();
  }
  return acc;
}

// ---------------- outer layout: rows accumulated into buffers ----------------

template <class R, class In, bool Contig>
void reduce_rows(typename R::Acc* acc, typename R::Acc* scratch, const char* base, int64_t width, int64_t col_stride,
                 const ReducedLayout& L, int64_t lo, int64_t hi) {
  auto row_ptr = [&](int64_t r) {
    int64_t off = 0;
    for (int d = static_cast<int>(L.shape.size()) - 1; d >= 0; --d) {
      off += (r % L.shape[d]) * L.strides[d][0];
      r /= L.shape[d];
    }
    return base + off;
  };
  const int64_t cs = Contig ? static_cast<int64_t>(sizeof(In)) : col_stride;
  using Acc = typename R::Acc;
  // acc[j] = combine(acc[j], row[j]) for a contiguous row of Acc: SSE2 for float max/min.
  auto combine_row = [&](Acc* a, const Acc* row) {
#ifdef COPPER_HAVE_SSE2_EXTREMUM
    if constexpr ((ops::is_same_v<Acc, float> || ops::is_same_v<Acc, double>) && requires { R::simd_extremum; }) {
      if constexpr (R::simd_extremum != 0) return reduce_simd::extremum_rows<(R::simd_extremum > 0)>(a, row, width);
    }
#endif
    for (int64_t j = 0; j < width; ++j) a[j] = R::combine(a[j], row[j]);
  };
  // Input rows go through combine_row only where loading is the identity (min and max of
  // Acc itself, but bools, whose bytes load_element normalizes); sums of squares,
  // NaN-skipping sums and the like load each element.
  constexpr bool kRowsOfAcc =
      Contig && ops::is_same_v<Acc, In> && !ops::is_same_v<In, bool> && requires { R::order_free; };
  // Min and max take all their rows in order (no pairwise split: no rounding to bound, and
  // short leaves made the scalar int64 select mispredict often, as in reduce_run).
  if (hi - lo <= row_leaf || requires { R::order_free; }) {
    const char* row = row_ptr(lo);
    for (int64_t j = 0; j < width; ++j) acc[j] = R::load(load_at<In>(row + j * cs));
    for (int64_t r = lo + 1; r < hi; ++r) {
      row = row_ptr(r);
      if constexpr (kRowsOfAcc) combine_row(acc, reinterpret_cast<const Acc*>(row));
      else
        for (int64_t j = 0; j < width; ++j) acc[j] = R::combine(acc[j], R::load(load_at<In>(row + j * cs)));
    }
    return;
  }
  // Pairwise over rows: as accurate along an outer axis as along the inner one.
  int64_t mid = lo + (hi - lo) / 2;
  reduce_rows<R, In, Contig>(acc, scratch + width, base, width, col_stride, L, lo, mid);
  reduce_rows<R, In, Contig>(scratch, scratch + width, base, width, col_stride, L, mid, hi);
  combine_row(acc, scratch);
}

inline int64_t row_depth(int64_t nrows) {
  int64_t depth = 1;
  while (nrows > row_leaf) {
    nrows = (nrows + 1) / 2;
    ++depth;
  }
  return depth;
}

// ---------------- driver ----------------

// Flips dimensions with negative input strides (order does not matter to these
// reductions) so that runs walk memory forwards and merge.
inline void flip_negative(Shape& shape, std::vector<std::array<int64_t, 2>>& strides, std::array<char*, 2>& base,
                          int nops) {
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (strides[d][0] < 0 && shape[d] > 1) {
      for (int k = 0; k < nops; ++k) {
        base[k] += (shape[d] - 1) * strides[d][k];
        strides[d][k] = -strides[d][k];
      }
    }
  }
}

template <class R, class In, class Out>
void reduce(const ArrayView& in, int nreduce, const ArrayView& out) {
  using Acc = typename R::Acc;
  const int nkeep = static_cast<int>(in.shape.size()) - nreduce;
  std::array<char*, 2> base = {static_cast<char*>(in.data), static_cast<char*>(out.data)};

  // Kept dimensions: (input stride, output stride); reduced: (input stride, unused).
  Shape kshape(in.shape.begin(), in.shape.begin() + nkeep), rshape(in.shape.begin() + nkeep, in.shape.end());
  std::vector<std::array<int64_t, 2>> kst(nkeep), rst(nreduce);
  for (int d = 0; d < nkeep; ++d) kst[d] = {in.strides[d], out.strides[d]};
  for (int d = 0; d < nreduce; ++d) rst[d] = {in.strides[nkeep + d], 0};
  const int64_t nout = shape_size(kshape), nred = shape_size(rshape);
  if (nout == 0) return;
  auto store = [](char* p, Acc v) {
    if constexpr (requires { R::finish(v); }) v = R::finish(v);  // e.g. the 2-norm's sqrt
    *reinterpret_cast<Out*>(p) = ops::cast<Out>(v);
  };
  if (nred == 0) {
    Acc id = R::identity();
    for_each_run<1>(out.shape, {&out.strides}, {base[1]}, [&](std::array<char*, 1> p, std::array<int64_t, 1> s, int64_t n) {
      for (int64_t i = 0; i < n; ++i) store(p[0] + i * s[0], id);
    });
    return;
  }
  flip_negative(kshape, kst, base, 2);
  {
    std::array<char*, 2> rbase = {base[0], nullptr};
    flip_negative(rshape, rst, rbase, 1);
    base[0] = rbase[0];
  }
  Strides kin(nkeep), kout(nkeep), rin(nreduce);
  for (int d = 0; d < nkeep; ++d) kin[d] = kst[d][0], kout[d] = kst[d][1];
  for (int d = 0; d < nreduce; ++d) rin[d] = rst[d][0];
  Layout<2> K = collapse<2>(kshape, {&kin, &kout});
  Layout<1> Rl = collapse<1>(rshape, {&rin});
  ReducedLayout RL{Rl.shape, Rl.strides};
  if (RL.shape.empty()) {  // every reduced axis has length 1
    RL.shape = {1};
    RL.strides = {{static_cast<int64_t>(sizeof(In))}};
  }
  const int64_t rs = std::abs(RL.inner_stride());
  const int64_t total = nout * nred;

  // Outer layout when a kept axis is innermost in memory and wide enough to vectorize.
  if (!K.shape.empty() && std::abs(K.strides.back()[0]) < rs && K.shape.back() >= 8) {
    const int64_t m = K.shape.back(), cs = K.strides.back()[0], os = K.strides.back()[1];
    Shape kouter(K.shape.begin(), K.shape.end() - 1);
    std::vector<std::array<int64_t, 2>> kouter_st(K.strides.begin(), K.strides.end() - 1);
    const int64_t nko = shape_size(kouter), nblocks = (m + row_block - 1) / row_block;
    const int64_t items = nko * nblocks;
    // Few row blocks but many rows: split the rows too, combine the partial rows after.
    int64_t nsplit = 1;
    if (items < few_row_blocks && total >= parallel_grain) nsplit = std::clamp<int64_t>(nred / 256, 1, max_row_splits);
    const int64_t depth = row_depth((nred + nsplit - 1) / nsplit);
    auto partial = make_buffer<Acc>(nsplit > 1 ? items * nsplit * row_block : 0);
    auto work = [&](int64_t begin, int64_t end) {
      auto acc = make_buffer<Acc>(row_block);
      auto scratch = make_buffer<Acc>(depth * row_block);
      Cursor<2> c(kouter, kouter_st);
      for (int64_t t = begin; t < end; ++t) {
        int64_t item = t / nsplit, split = t % nsplit;
        int64_t ko = item / nblocks, blk = item % nblocks;
        c.seek(ko);
        int64_t c0 = blk * row_block, w = std::min(row_block, m - c0);
        int64_t lo = nred * split / nsplit, hi = nred * (split + 1) / nsplit;
        Acc* dst = nsplit > 1 ? partial.get() + t * row_block : acc.get();
        const char* p = base[0] + c.off[0] + c0 * cs;
        if (cs == static_cast<int64_t>(sizeof(In)))
          reduce_rows<R, In, true>(dst, scratch.get(), p, w, cs, RL, lo, hi);
        else
          reduce_rows<R, In, false>(dst, scratch.get(), p, w, cs, RL, lo, hi);
        if (nsplit == 1) {
          char* o = base[1] + c.off[1] + c0 * os;
          for (int64_t j = 0; j < w; ++j) store(o + j * os, dst[j]);
        }
      }
    };
    const int64_t ntasks = items * nsplit;
    parallel_for(ntasks, std::max<int64_t>(1, parallel_grain * ntasks / std::max<int64_t>(total, 1)), work);
    if (nsplit > 1) {
      Cursor<2> c(kouter, kouter_st);
      for (int64_t item = 0; item < items; ++item) {
        int64_t ko = item / nblocks, blk = item % nblocks;
        c.seek(ko);
        int64_t c0 = blk * row_block, w = std::min(row_block, m - c0);
        Acc* first = partial.get() + item * nsplit * row_block;
        for (int64_t s = 1; s < nsplit; ++s)
          for (int64_t j = 0; j < w; ++j) first[j] = R::combine(first[j], first[s * row_block + j]);
        char* o = base[1] + c.off[1] + c0 * os;
        for (int64_t j = 0; j < w; ++j) store(o + j * os, first[j]);
      }
    }
    return;
  }

  // Inner layout. Outputs of one chunk: one thread reduces whole outputs. (Longer ones
  // always go by chunks, however many outputs and threads there are, so the rounding
  // never depends on the thread count.)
  const int64_t nchunks = (nred + chunk_elements - 1) / chunk_elements;
  if (nchunks == 1) {
    parallel_for(nout, std::max<int64_t>(1, parallel_grain / nred), [&](int64_t begin, int64_t end) {
      Cursor<2> c(K.shape, K.strides);
      c.seek(begin);
      for (int64_t o = begin; o < end; ++o, c.next())
        store(base[1] + c.off[1], reduce_range<R, In>(base[0] + c.off[0], RL, 0, nred));
    });
    return;
  }
  // Few outputs, many elements each: fixed-size chunks in parallel, partials combined in order.
  auto partial = make_buffer<Acc>(nout * nchunks);
  parallel_for(nout * nchunks, 1, [&](int64_t begin, int64_t end) {
    Cursor<2> c(K.shape, K.strides);
    for (int64_t t = begin; t < end; ++t) {
      int64_t o = t / nchunks, k = t % nchunks;
      c.seek(o);
      int64_t lo = k * chunk_elements, hi = std::min(nred, lo + chunk_elements);
      partial[t] = reduce_range<R, In>(base[0] + c.off[0], RL, lo, hi);
    }
  });
  Cursor<2> c(K.shape, K.strides);
  for (int64_t o = 0; o < nout; ++o, c.next()) {
    Acc acc = partial[o * nchunks];
    for (int64_t k = 1; k < nchunks; ++k) acc = R::combine(acc, partial[o * nchunks + k]);
    store(base[1] + c.off[1], acc);
  }
}

}  // namespace copper::backend::cpu::reduce_kernels
