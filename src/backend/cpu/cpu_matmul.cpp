// Batched matrix products on the CPU: float32/64 and complex through the system BLAS
// (loaded at run time), everything else (and floats when no BLAS loads) through a
// row-times-matrix loop whose inner loop walks one row of b and of the output.
#include <cstring>
#include <vector>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/cpu_blas.h"
#include "backend/cpu/element_load.h"
#include "backend/cpu/thread_pool.h"
#include "backend/matmul_layout.h"
#include "ops/dtype_traits.h"

namespace copper::backend::cpu {
namespace {

// The accumulator of each element type: integers wrap in uint64 (the same bits modulo
// 2^width as NumPy's wrapping loops), float16 sums in float32, complex as (re, im).
template <class T> struct Acc {
  using type = T;
  static T load(T x) { return x; }
  static T store(T x) { return x; }
};
template <ops::Int T> struct Acc<T> {
  using type = std::uint64_t;
  static std::uint64_t load(T x) {
    if constexpr (std::is_signed_v<T>) return static_cast<std::uint64_t>(static_cast<std::int64_t>(x));
    else return static_cast<std::uint64_t>(x);
  }
  static T store(std::uint64_t x) { return static_cast<T>(x); }
};
template <> struct Acc<bool> {  // bytes, not std::vector<bool>'s bits
  using type = unsigned char;
  static unsigned char load(bool x) { return x; }
  static bool store(unsigned char x) { return x != 0; }
};
template <> struct Acc<ops::half> {
  using type = float;
  static float load(ops::half x) { return ops::half_to_float(x); }
  static ops::half store(float x) { return ops::float_to_half(x); }
};
template <class R> struct Acc<ops::complex<R>> {
  using type = ops::complex<R>;
  static ops::complex<R> load(ops::complex<R> x) { return x; }
  static ops::complex<R> store(ops::complex<R> x) { return x; }
};

template <class T, class A>
inline void multiply_add(A& acc, const A& a, const A& b) {
  if constexpr (std::is_same_v<T, bool>) acc |= a & b;
  else if constexpr (ops::is_complex_v<T>) {
    acc.re += a.re * b.re - a.im * b.im;
    acc.im += a.re * b.im + a.im * b.re;
  } else acc += a * b;
}

struct MatmulGeometry {
  std::int64_t m, k, n, batches;
  int nbatch;
  BatchWalker walker;
};

// Rows [row_begin, row_end) of the flattened (batch * m) output, by the plain loop.
template <class T>
void loop_rows(const ArrayView& a, const ArrayView& b, const ArrayView& out, const MatmulGeometry& g,
               std::int64_t row_begin, std::int64_t row_end) {
  using A = typename Acc<T>::type;
  const int nd = static_cast<int>(out.shape.size());
  const std::int64_t a_rs = a.strides[nd - 2], a_cs = a.strides[nd - 1];
  const std::int64_t b_rs = b.strides[nd - 2], b_cs = b.strides[nd - 1];
  std::vector<A> acc(static_cast<std::size_t>(g.n));
  std::int64_t off[3] = {0, 0, 0};
  std::int64_t current_batch = -1;
  for (std::int64_t row = row_begin; row < row_end; ++row) {
    const std::int64_t batch = row / g.m, i = row % g.m;
    if (batch != current_batch) g.walker.offsets(current_batch = batch, off);
    const char* a_row = static_cast<const char*>(a.data) + off[0] + i * a_rs;
    const char* b_base = static_cast<const char*>(b.data) + off[1];
    T* out_row = reinterpret_cast<T*>(static_cast<char*>(out.data) + off[2]) + i * g.n;
    std::fill(acc.begin(), acc.end(), A{});
    for (std::int64_t p = 0; p < g.k; ++p) {
      const A av = Acc<T>::load(load_element<T>(a_row + p * a_cs));
      const char* b_row = b_base + p * b_rs;
      if (b_cs == static_cast<std::int64_t>(sizeof(T))) {  // contiguous row: vectorizable
        const T* bp = reinterpret_cast<const T*>(b_row);
        for (std::int64_t j = 0; j < g.n; ++j) multiply_add<T>(acc[j], av, Acc<T>::load(load_element<T>(bp + j)));
      } else {
        for (std::int64_t j = 0; j < g.n; ++j)
          multiply_add<T>(acc[j], av, Acc<T>::load(load_element<T>(b_row + j * b_cs)));
      }
    }
    for (std::int64_t j = 0; j < g.n; ++j) out_row[j] = Acc<T>::store(acc[j]);
  }
}

// The dot product of two contiguous runs of k elements: kLanes independent accumulators, so
// GCC vectorizes the products without reassociating any one sum (no -ffast-math), then the
// lanes are added pairwise. One vector against one vector went through ?gemm_ with m = n = 1
// (3x NumPy's BLAS dot for float64 of 1e6) or the row loop (int64 3-7x).
// With Conj (complex T), the sum of conj(a) b: the real part sums every x[j] y[j], the
// imaginary part is the crossed sum at even j less that at odd j.
template <class T, bool Conj = false>
typename Acc<T>::type dot_run(const T* a, const T* b, std::int64_t k) {
  using A = typename Acc<T>::type;
  if constexpr (ops::is_complex_v<T>) {
    // Over the parts as one real run x, y of 2k: the real part is the sum of x[j] y[j] at even
    // j less that at odd j, the imaginary part the sum of x[j] y[j ^ 1]. Two real sums of
    // kLanes lanes each vectorize where the complex form did not (complex64 3x NumPy's time).
    using R = decltype(T{}.re);
    constexpr int kLanes = 64 / sizeof(R) > 16 ? 16 : 64 / sizeof(R);
    const std::int64_t n = 2 * k;
    const R* x = reinterpret_cast<const R*>(a);
    const R* y = reinterpret_cast<const R*>(b);
    R same[kLanes]{}, crossed[kLanes]{};
    std::int64_t j = 0;
    for (; j + kLanes <= n; j += kLanes)
      for (int l = 0; l < kLanes; ++l) {
        same[l] += load_element<R>(x + j + l) * load_element<R>(y + j + l);
        crossed[l] += load_element<R>(x + j + l) * load_element<R>(y + j + (l ^ 1));
      }
    for (int l = 0; j < n; ++j, ++l) {  // whole elements: j stays even at each pair's start
      same[l] += load_element<R>(x + j) * load_element<R>(y + j);
      crossed[l] += load_element<R>(x + j) * load_element<R>(y + (j ^ 1));
    }
    for (int width = kLanes / 2; width >= 2; width /= 2)
      for (int l = 0; l < width; ++l) same[l] += same[l + width], crossed[l] += crossed[l + width];
    if constexpr (Conj) return A(same[0] + same[1], crossed[0] - crossed[1]);
    else return A(same[0] - same[1], crossed[0] + crossed[1]);
  }
  constexpr int kLanes = sizeof(A) >= 16 ? 4 : 64 / static_cast<int>(sizeof(A)) > 16 ? 16 : 64 / static_cast<int>(sizeof(A));
  A acc[kLanes]{};
  std::int64_t p = 0;
  for (; p + kLanes <= k; p += kLanes)
    for (int l = 0; l < kLanes; ++l) multiply_add<T>(acc[l], Acc<T>::load(load_element<T>(a + p + l)), Acc<T>::load(load_element<T>(b + p + l)));
  for (int l = 0; p < k; ++p, ++l) multiply_add<T>(acc[l], Acc<T>::load(load_element<T>(a + p)), Acc<T>::load(load_element<T>(b + p)));
  for (int width = kLanes / 2; width >= 1; width /= 2)
    for (int l = 0; l < width; ++l) {
      if constexpr (std::is_same_v<T, bool>) acc[l] |= acc[l + width];
      else acc[l] += acc[l + width];
    }
  return acc[0];
}

// 1 of element type T: alpha for the library calls.
template <class T> T unit() {
  if constexpr (ops::is_complex_v<T>) return T{1, 0};
  else return T(1);
}

// The element types the BLAS computes in.
bool is_blas_type(DType t) {
  return t == DType::float32 || t == DType::float64 || t == DType::complex64 || t == DType::complex128;
}

// The library's ?gemv_ for dtype t (null where it has none, or for a type it lacks).
void* gemv_symbol(const Blas& l, DType t) {
  switch (t) {
    case DType::float32: return l.sgemv;
    case DType::float64: return l.dgemv;
    case DType::complex64: return l.cgemv;
    case DType::complex128: return l.zgemv;
    default: return nullptr;
  }
}
template <class T> void* gemv_of(const Blas& l) { return gemv_symbol(l, ops::dtype_v<T>); }

// y = op(A) x: ?gemv_ in the library's integer width (sizes checked to fit an int for LP64).
template <class T>
void call_gemv(const Blas& lib, char trans, std::int64_t m, std::int64_t n, const T* a, std::int64_t lda, const T* x,
               std::int64_t incx, T* y) {
  const T one = unit<T>(), zero{};
  const std::int64_t incy = 1;
  if (lib.ilp64) {
    reinterpret_cast<GemvFn64<T>>(gemv_of<T>(lib))(&trans, &m, &n, &one, a, &lda, x, &incx, &zero, y, &incy, 1);
  } else {
    const int m32 = static_cast<int>(m), n32 = static_cast<int>(n), lda32 = static_cast<int>(lda);
    const int incx32 = static_cast<int>(incx), incy32 = 1;
    reinterpret_cast<GemvFn<T>>(gemv_of<T>(lib))(&trans, &m32, &n32, &one, a, &lda32, x, &incx32, &zero, y, &incy32, 1);
  }
}

// One partial sum of a long product: the library's ?gemv_ for floats and complex where it
// has one (its SIMD kernel for this machine), else the lane loop.
template <class T, bool Conj>
typename Acc<T>::type chunk_dot(const Blas* lib, const T* a, const T* b, std::int64_t n) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || ops::is_complex_v<T>) {
    if (lib && gemv_of<T>(*lib)) {
      T y{};
      call_gemv<T>(*lib, Conj ? 'C' : 'T', n, 1, a, n, b, 1, &y);
      return y;
    }
  }
  return dot_run<T, Conj>(a, b, n);
}

// Elements per partial sum of one long dot product: fixed, so that the result does not
// depend on how many threads ran it (partials are added in order).
constexpr std::int64_t kDotChunk = 1 << 15;

// out[i] = a's row i . b's only column, each contiguous (n == 1: a vector times a vector,
// or a matrix times a vector, batched or not).
template <class T, bool Conj>
void dot_rows(const ArrayView& a, const ArrayView& b, const ArrayView& out, const MatmulGeometry& g,
              const Blas* lib) {
  using A = typename Acc<T>::type;
  const int nd = static_cast<int>(out.shape.size());
  const std::int64_t a_rs = a.strides[nd - 2];
  auto row_ptrs = [&](std::int64_t row, const T*& ap, const T*& bp, T*& op) {
    std::int64_t off[3];
    g.walker.offsets(row / g.m, off);
    const std::int64_t i = row % g.m;
    ap = reinterpret_cast<const T*>(static_cast<const char*>(a.data) + off[0] + i * a_rs);
    bp = reinterpret_cast<const T*>(static_cast<const char*>(b.data) + off[1]);
    op = reinterpret_cast<T*>(static_cast<char*>(out.data) + off[2]) + i;
  };
  const std::int64_t rows_total = g.batches * g.m;
  if (rows_total == 1 && g.k > 2 * kDotChunk) {  // one long product: chunks across threads
    const T *ap, *bp;
    T* op;
    row_ptrs(0, ap, bp, op);
    const std::int64_t chunks = (g.k + kDotChunk - 1) / kDotChunk;
    std::vector<A> partial(static_cast<std::size_t>(chunks));
    parallel_for(chunks, 1, [&](std::int64_t c0, std::int64_t c1) {
      for (std::int64_t c = c0; c < c1; ++c) {
        const std::int64_t p0 = c * kDotChunk;
        partial[c] = chunk_dot<T, Conj>(lib, ap + p0, bp + p0, std::min(kDotChunk, g.k - p0));
      }
    });
    A total{};
    for (const A& x : partial) {
      if constexpr (std::is_same_v<T, bool>) total |= x;
      else total += x;
    }
    *op = Acc<T>::store(total);
    return;
  }
  parallel_for(rows_total, std::max<std::int64_t>(1, (1 << 16) / g.k), [&](std::int64_t r0, std::int64_t r1) {
    for (std::int64_t row = r0; row < r1; ++row) {
      const T *ap, *bp;
      T* op;
      row_ptrs(row, ap, bp, op);
      *op = Acc<T>::store(dot_run<T, Conj>(ap, bp, g.k));
    }
  });
}

// out[i] = a's row i . b's column for every batch, one ?gemv_ per batch: a's rows are
// contiguous with a non-negative row stride, b's column has a positive stride (or k == 1).
// Column-major, a's rows are the columns of a k x m matrix, so out = op(A) x with op = 'T'
// ('C' with Conj: the conjugate transpose).
template <class T, bool Conj>
void gemv_rows(const Blas& lib, const ArrayView& a, const ArrayView& b, const ArrayView& out, const MatmulGeometry& g) {
  const int nd = static_cast<int>(out.shape.size());
  constexpr std::int64_t w = sizeof(T);
  const std::int64_t lda = g.m == 1 ? std::max<std::int64_t>(g.k, 1) : a.strides[nd - 2] / w;
  const std::int64_t incx = g.k == 1 ? 1 : b.strides[nd - 2] / w;
  std::int64_t off[3];
  for (std::int64_t batch = 0; batch < g.batches; ++batch) {
    g.walker.offsets(batch, off);
    call_gemv<T>(lib, Conj ? 'C' : 'T', g.k, g.m, reinterpret_cast<const T*>(static_cast<const char*>(a.data) + off[0]), lda,
                 reinterpret_cast<const T*>(static_cast<const char*>(b.data) + off[1]), incx,
                 reinterpret_cast<T*>(static_cast<char*>(out.data) + off[2]));
  }
}

// The library's ?gemm_ for element type T.
template <class T> void* gemm_of(const Blas& l) {
  if constexpr (std::is_same_v<T, float>) return l.sgemm;
  else if constexpr (std::is_same_v<T, double>) return l.dgemm;
  else if constexpr (std::is_same_v<T, ops::complex<float>>) return l.cgemm;
  else return l.zgemm;
}

// Rows [row_begin, row_end) through ?gemm_, one call per batch segment. a and b are
// GEMM-readable (the caller copied them otherwise); out is C-contiguous.
template <class T>
void blas_rows(const Blas& lib, const ArrayView& a, const ArrayView& b, const ArrayView& out,
               const MatmulGeometry& g, GemmOperand ga, GemmOperand gb, std::int64_t row_begin,
               std::int64_t row_end) {
  const int nd = static_cast<int>(out.shape.size());
  const std::int64_t a_rs = a.strides[nd - 2];
  const T one = unit<T>();
  const T zero{};
  // C^T (n x m) = B^T (n x k) * A^T (k x m) in column-major terms.
  const char transa = gb.row_major ? 'N' : 'T', transb = ga.row_major ? 'N' : 'T';
  const std::int64_t M = g.n, K = g.k, ldc = std::max<std::int64_t>(g.n, 1), lda = gb.ld, ldb = ga.ld;
  // One call in the library's integer width (LP64 sizes were checked to fit an int).
  auto gemm = [&](const T* bp, const T* ap, T* cp, std::int64_t N) {
    if (lib.ilp64) {
      reinterpret_cast<GemmFn64<T>>(gemm_of<T>(lib))(&transa, &transb, &M, &N, &K, &one, bp, &lda, ap, &ldb, &zero, cp,
                                                     &ldc, 1, 1);
    } else {
      const int m32 = static_cast<int>(M), n32 = static_cast<int>(N), k32 = static_cast<int>(K);
      const int lda32 = static_cast<int>(lda), ldb32 = static_cast<int>(ldb), ldc32 = static_cast<int>(ldc);
      reinterpret_cast<GemmFn<T>>(gemm_of<T>(lib))(&transa, &transb, &m32, &n32, &k32, &one, bp, &lda32, ap, &ldb32,
                                                   &zero, cp, &ldc32, 1, 1);
    }
  };
  std::int64_t off[3];
  for (std::int64_t row = row_begin; row < row_end;) {
    const std::int64_t batch = row / g.m, i = row % g.m;
    const std::int64_t rows = std::min(row_end - row, g.m - i);
    g.walker.offsets(batch, off);
    const T* ap = reinterpret_cast<const T*>(static_cast<const char*>(a.data) + off[0] + i * a_rs);
    const T* bp = reinterpret_cast<const T*>(static_cast<const char*>(b.data) + off[1]);
    T* cp = reinterpret_cast<T*>(static_cast<char*>(out.data) + off[2]) + i * g.n;
    gemm(bp, ap, cp, rows);
    row += rows;
  }
}

constexpr std::int64_t kInt32Max = 0x7fffffff;

// A column of dot products (n == 1: vector . vector, matrix @ vector, vecdot) over rows of a
// that are contiguous; with Conj, of conj(a) (complex). Floats and complex go to the
// library's ?gemv_ when each batch has enough work to cover a call (its SIMD kernels,
// threaded, where ?gemm_ with n = 1 was 2-4x slower); everything else, and short batches, to
// the dot kernel. False (nothing written) for other layouts. g: matmul's geometry, k > 0.
template <bool Conj>
bool dot_column(const ArrayView& a_in, const ArrayView& b_in, const ArrayView& out, MatmulGeometry& g) {
  const int nd = static_cast<int>(out.shape.size());
  const std::int64_t w = itemsize(out.dtype);
  if (a_in.strides[nd - 1] != w) return false;
  const Blas* lib = blas();
  const std::int64_t a_rs = a_in.strides[nd - 2], b_rs = b_in.strides[nd - 2];
  const bool unit_b = g.k == 1 || b_rs == w;
  // One long product: partial sums across copper's threads (the library's ?gemv_ with one
  // column runs on one thread), each partial through the library where it can.
  const bool long_single = unit_b && g.batches * g.m == 1 && g.k > 2 * kDotChunk;
  const bool use_gemv = lib && gemv_symbol(*lib, out.dtype) && !long_single && g.m * g.k >= 4096 &&
                        g.m <= kInt32Max && g.k <= kInt32Max &&
                        (g.m == 1 || (a_rs >= w * g.k && a_rs % w == 0 && a_rs / w <= kInt32Max)) &&
                        (g.k == 1 || (b_rs > 0 && b_rs % w == 0 && b_rs / w <= kInt32Max));
  if (!use_gemv && !unit_b) return false;  // matmul's general path (or a conjugated copy)
  g.walker = BatchWalker{{&a_in, &b_in, &out}, g.nbatch};
  ops::visit_dtype(out.dtype, [&]<class T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || ops::is_complex_v<T>) {
      if (use_gemv) return gemv_rows<T, Conj>(*lib, a_in, b_in, out, g);
    }
    dot_rows<T, Conj>(a_in, b_in, out, g, lib);
  });
  return true;
}

MatmulGeometry geometry(const ArrayView& a, const ArrayView& out) {
  const int nd = static_cast<int>(out.shape.size());
  MatmulGeometry g{};
  g.m = out.shape[nd - 2];
  g.n = out.shape[nd - 1];
  g.k = a.shape[nd - 1];
  g.nbatch = nd - 2;
  g.batches = 1;
  for (int d = 0; d < g.nbatch; ++d) g.batches *= out.shape[d];
  return g;
}

}  // namespace

bool CpuBackend::matmul_conjugate_a(const ArrayView& a, const ArrayView& b, const ArrayView& out) {
  MatmulGeometry g = geometry(a, out);
  if (g.batches * g.m == 0 || g.n == 0) return true;
  if (g.k == 0) {
    fill(out, Scalar(0));
    return true;
  }
  return g.n == 1 && dot_column<true>(a, b, out, g);
}

void CpuBackend::matmul(const ArrayView& a_in, const ArrayView& b_in, const ArrayView& out) {
  MatmulGeometry g = geometry(a_in, out);
  const int nd = static_cast<int>(out.shape.size());
  const std::int64_t rows_total = g.batches * g.m;
  if (rows_total == 0 || g.n == 0) return;
  if (g.k == 0) {
    fill(out, Scalar(0));
    return;
  }
  const std::int64_t w = itemsize(out.dtype);
  const std::int64_t flops_per_row = std::max<std::int64_t>(g.n * g.k, 1);
  const std::int64_t grain = std::max<std::int64_t>(1, (1 << 16) / flops_per_row);

  if (g.n == 1 && dot_column<false>(a_in, b_in, out, g)) return;

  const Blas* lib = blas();
  const bool blas_sizes = g.m <= kInt32Max && g.n <= kInt32Max && g.k <= kInt32Max;
  if (lib && is_blas_type(out.dtype) && blas_sizes) {
    ArrayView a = a_in, b = b_in;
    std::shared_ptr<Buffer> keep_a, keep_b;
    auto ga = gemm_operand(g.m, g.k, a.strides[nd - 2], a.strides[nd - 1], w);
    if (!ga || ga->ld > kInt32Max) {
      a = compact_for_gemm(*this, a_in, g.nbatch, keep_a);
      ga = gemm_operand(g.m, g.k, a.strides[nd - 2], a.strides[nd - 1], w);
    }
    auto gb = gemm_operand(g.k, g.n, b.strides[nd - 2], b.strides[nd - 1], w);
    if (!gb || gb->ld > kInt32Max) {
      b = compact_for_gemm(*this, b_in, g.nbatch, keep_b);
      gb = gemm_operand(g.k, g.n, b.strides[nd - 2], b.strides[nd - 1], w);
    }
    g.walker = BatchWalker{{&a, &b, &out}, g.nbatch};
    ops::visit_dtype(out.dtype, [&]<class T>() {
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || ops::is_complex_v<T>) {
        auto rows = [&](std::int64_t r0, std::int64_t r1) { blas_rows<T>(*lib, a, b, out, g, *ga, *gb, r0, r1); };
        if (lib->threaded) rows(0, rows_total);  // the library spreads one call over its threads
        else parallel_for(rows_total, grain, rows);
      }
    });
    return;
  }
  g.walker = BatchWalker{{&a_in, &b_in, &out}, g.nbatch};
  ops::visit_dtype(out.dtype, [&]<class T>() {
    parallel_for(rows_total, grain, [&](std::int64_t r0, std::int64_t r1) { loop_rows<T>(a_in, b_in, out, g, r0, r1); });
  });
}

}  // namespace copper::backend::cpu
