// The interface both backends implement. The front end (src/api) has already
// checked arguments, resolved dtypes, broadcast shapes and allocated outputs:
// a backend only moves and computes bytes.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "copper/indexing.hpp"
#include "copper/ndarray.hpp"
#include "ops/catalogue.h"
#include "ops/philox.h"
#include "backend/array_view.h"
#include "backend/fft_job.h"
#include "backend/fused_chain.h"

namespace copper::backend {

ArrayView view_of(const ndarray& a);

class DenseSolver;  // dense_solver.h: numpy.linalg's factorizations
class FftPlanCache;  // fft_plan_cache.h: the device's FFT plans

// The index arrays of a gather or scatter: k integer arrays (int32 or int64) of one
// shape B (0 strides where broadcast) indexing the first k axes of the source or
// destination; axes[j] is the axis an out-of-bounds message names ("index 7 is out of
// bounds for axis axes[j] with size n").
struct IndexArrays {
  std::vector<ArrayView> arrays;
  std::vector<int> axes;
  IndexMode mode = IndexMode::raise;
};

// A stream compaction's counts (select_count), handed back to select_values /
// select_coordinates with the same flags: how many elements are selected, and the
// backend's own data for the second pass (per-tile offsets into the output; the CUDA
// backend adds the flags as bits).
struct Selection {
  std::int64_t count = 0;
  std::shared_ptr<Buffer> tile_offsets;
};

// One axis of a histogram (Backend::histogram): the sample's values along it and how
// they map to bins.
enum class HistogramBins {
  index,          // x is int64 and is the bin itself (bincount; the caller checked the range)
  edges,          // sorted edges (ops/scalar_histogram.h's rule), found by binary search
  uniform_edges,  // strictly increasing, equally spaced edges: guessed by arithmetic, then corrected
};
struct HistogramAxis {
  ArrayView x;      // 1-D, the sample's length, any strides; converted to edges.dtype to compare
  ArrayView edges;  // 1-D C-contiguous, nbins + 1 values: int64, uint64, float32 or float64
  HistogramBins bins;
};

// Backend::fold's variants.
struct FoldOptions {
  bool scan = false;                    // write every partial result (out has in's shape)
  bool from_out = false;                // start from out's values (initial=, an identity)
  const ArrayView* where = nullptr;     // bool, in's shape: false elements are skipped
  const ArrayView* segments = nullptr;  // int64 (nseg, 2), C-contiguous: [start, end) per output
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual Device device() const = 0;

  // Memory.
  virtual std::shared_ptr<Buffer> allocate(std::size_t nbytes) = 0;
  // Bytes that allocate() could still hand out as far as the backend's own accounting
  // tells (CUDA: the pool's limit less what live arrays hold; CPU: the machine's memory).
  // Automatic fusion gives a deferred result memory only when its chain runs, and where
  // this says memory is short it allocates at the call instead, so that running out of
  // memory raises at the call that asked for it, as eagerly.
  virtual std::size_t memory_room() const = 0;
  virtual void copy_from_host(const void* src, const ArrayView& dst) = 0;  // src: C-order, dst's dtype
  virtual void copy_to_host(const ArrayView& src, void* dst) = 0;          // dst: C-order, src's dtype
  // dst[...] = cast(src[...]); same shape (src may carry zero strides), any two dtypes.
  virtual void copy(const ArrayView& src, const ArrayView& dst) = 0;
  virtual void fill(const ArrayView& dst, const Scalar& value) = 0;
  // dst[i] = start + i * step over dst in C order (arange, linspace's body).
  virtual void iota(const ArrayView& dst, const Scalar& start, const Scalar& step) = 0;

  // Elementwise: out[...] = op(in[0][...], ...). All views share out's shape; input k
  // has dtype ops::input_dtype(op, loop, k) (`loop` but for ldexp's int64 exponent);
  // out has ops::out_dtype(op, loop).
  virtual void elementwise(ops::UfuncId op, DType loop, std::span<const ArrayView> in,
                           const ArrayView& out) = 0;
  // The same for any number of outputs: out[0] and, for two-output ops (divmod, modf,
  // frexp), out[1] with dtype ops::info(op).out2[loop].
  virtual void elementwise_multi(ops::UfuncId op, DType loop, std::span<const ArrayView> in,
                                 std::span<const ArrayView> out) = 0;
  // Whether elementwise/elementwise_multi also take an input of another dtype than the
  // loop's, converting its values as copy() would while they read it (block by block,
  // never a whole temporary). Otherwise the caller casts such inputs first.
  virtual bool casts_inputs() const { return false; }
  // Automatic fusion: whether run_chain can take `step` (its kind, op, loop and operand
  // dtypes are set), and the chain's run (one pass over memory, steps in order per block;
  // fused_chain.h). Backends without chains get no deferred work.
  virtual bool can_chain(const ChainStep& /*step*/) const { return false; }
  virtual void run_chain(Chain& chain);
  // What must be the same for ops to share a chain, beyond the device (CUDA: the calling
  // thread's current stream); compared by identity, kept by the chain.
  virtual std::shared_ptr<void> chain_context() const { return nullptr; }
  // Memory as allocate() gives it, in the order of chain context `context` (CUDA: allocated,
  // and so later freed, on that stream): a chain's results get memory when it runs, which
  // may be on a thread whose current stream is another (a reader's), and the chain's
  // kernels must not run ahead of their memory's previous user.
  virtual std::shared_ptr<Buffer> allocate_for_chain(const std::shared_ptr<void>& /*context*/, std::size_t nbytes) {
    return allocate(nbytes);
  }
  // out[...] = cond[...] ? x[...] : y[...]; cond is bool, x, y and out share one dtype.
  virtual void where(const ArrayView& cond, const ArrayView& x, const ArrayView& y,
                     const ArrayView& out) = 0;

  // Reduces the last `nreduce` axes of `in` into `out` (shape: in's leading axes; any
  // strides, not aliasing `in`). The front end has moved the reduced axes last and
  // chosen out.dtype: sums and products accumulate in out.dtype (float16 in float32),
  // converting each input element as astype would, so `in` may have any dtype;
  // min/max (and nan forms) get in.dtype == out.dtype; all/any write bool; argmin/argmax
  // write int64 indices counted in C order over the reduced axes (first extreme wins,
  // NaN counts as extreme). Empty reductions write the identity (never asked of ops
  // without one).
  virtual void reduce(ops::ReduceOp op, const ArrayView& in, int nreduce, const ArrayView& out) = 0;
  // Inclusive scan along `axis`; in and out have the same shape; accumulates in
  // out.dtype (rounded to it at each step), converting `in` elements as astype would.
  // out may be `in` itself (in-place) but must not otherwise overlap it.
  virtual void scan(ops::ScanOp op, const ArrayView& in, int axis, const ArrayView& out) = 0;

  // Sequential fold of binary ufunc `op` (nout 1, output dtype == `loop`) along the last
  // axis of `in`, in element order, so any op works (ufunc.reduce/accumulate/reduceat of
  // ops without a ReduceOp): acc = op(acc, in[..., i]). in has dtype `loop`; out has in's
  // shape without the last axis, or (kept..., nseg) with FoldOptions::segments, or in's
  // shape with scan. acc starts at out's value with from_out, else at the first element
  // taken (every fold then takes at least one). out does not overlap in.
  virtual void fold(ops::UfuncId op, DType loop, const ArrayView& in, const ArrayView& out, const FoldOptions& o) = 0;

  // Random numbers: out[i] (out C-contiguous, C order) from the Philox counter stream
  // that p describes (ops/philox.h), the same bits on every backend.
  virtual void random(ops::philox::Kind kind, const ops::philox::RandomParams& p, const ArrayView& out) = 0;
  // Random numbers with per-element parameters (ops/philox_samplers.h): the params have
  // out's shape (0 strides where broadcast; float64, or 64-bit integers where
  // philox::param_is_int and for integers' low/high). Block kinds (uniform, normal,
  // exponential: out float64; integers) take two and follow random()'s block layout;
  // stream kinds (gamma and every later Kind) take philox::stream_param_count of them and
  // give element i its own counter stream; out has < 2^32 elements.
  virtual void random_params(ops::philox::Kind kind, const ops::philox::RandomParams& p,
                             std::span<const ArrayView> params, const ArrayView& out) = 0;
  // out[i, ...] = src[rows[i], ...]: rows int64, C-contiguous, values in [0, src.shape[0])
  // (checked by the caller); src any strides; out C-contiguous of shape (len(rows), src.shape[1:]).
  virtual void take_rows(const ArrayView& src, const ArrayView& rows, const ArrayView& out) = 0;

  // Histogram counts (bincount, histogram, histogramdd): element i of the sample falls
  // in bin (b_0, ..., b_{D-1}) of out (C-contiguous, shape (nbins_0, ...), with
  // nbins_d = out.shape[d]) unless some axis drops it, and adds weights[i] there (1
  // without weights). out is overwritten; its dtype is the accumulator: int64 (counts,
  // or signed/bool weights), uint64, float64 or complex128; weights (1-D, any strides,
  // any dtype) convert to it as astype would. Float sums may differ in rounding order.
  // A bool out (no weights) records only which bins some element falls in.
  virtual void histogram(std::span<const HistogramAxis> axes, const ArrayView* weights, const ArrayView& out) = 0;
  // ---- Indexing: gathers, scatters and stream compaction (cpu_indexing_*.cpp,
  // cuda_indexing_*.cpp). Out-of-bounds indices in raise mode: the CPU throws IndexError
  // before writing anything; a GPU never touches memory out of bounds and records the
  // error on the device, raised at the next synchronization (cuda_index_errors.h).
  // out[b..., r...] = src[i_0[b...], ..., i_{k-1}[b...], r...]: src's first k axes are
  // the indexed ones, the rest (R) are taken whole; out (any strides, src's dtype) has
  // shape B + R.
  virtual void gather(const ArrayView& src, const IndexArrays& index, const ArrayView& out) = 0;
  // dst[i_0[b...], ..., r...] = values[b..., r...]; values has dst's dtype and shape B + R
  // (0 strides where broadcast). Repeated targets: the last b in C order wins, on every
  // backend. unique_targets: the caller knows no target repeats (a mask's positions).
  virtual void scatter(const ArrayView& dst, const IndexArrays& index, const ArrayView& values,
                       bool unique_targets) = 0;
  // ufunc.at: for every (b..., r...) in C order, t = dst[i(b)..., r...] becomes
  // op(t, values[b..., r...]) (op(t) for unary ops, values null), computed in dtype
  // `loop` (values already have it) and cast back to dst's dtype; repeats accumulate.
  virtual void scatter_apply(ops::UfuncId op, DType loop, const ArrayView& dst, const IndexArrays& index,
                             const ArrayView* values) = 0;
  // Stream compaction over the nonzero elements of `flags` (any dtype, NumPy's truth;
  // selected in C order): select_count counts them (one host read of the total), then
  // select_values writes out[r] = src[p_r] (src: flags' shape, any dtype; out 1-D of
  // count elements, src's dtype) and select_coordinates out[r, d] = coordinate d of p_r
  // (out: (count, flags.ndim) int64, any strides), p_r being the r-th selected position.
  virtual Selection select_count(const ArrayView& flags) = 0;
  virtual void select_values(const ArrayView& flags, const Selection& sel, const ArrayView& src,
                             const ArrayView& out) = 0;
  virtual void select_coordinates(const ArrayView& flags, const Selection& sel, const ArrayView& out) = 0;

  // Batched matrix product: out[b..., i, j] = sum_p a[b..., i, p] * b[b..., p, j] over
  // shapes (batch..., m, k) x (batch..., k, n) -> (batch..., m, n). a, b and out share
  // one dtype and batch shape; a and b may have any strides (0 along broadcast batch
  // dimensions, transposed views); out is C-contiguous and overlaps neither input.
  // bool is OR of ANDs, integers wrap, float16 accumulates in float32; k == 0 writes 0.
  virtual void matmul(const ArrayView& a, const ArrayView& b, const ArrayView& out) = 0;
  // matmul(conj(a), b) for complex a and b: true when done, false (nothing written) where
  // the backend has no kernel for this case (then the caller conjugates a copy of a).
  virtual bool matmul_conjugate_a(const ArrayView& /*a*/, const ArrayView& /*b*/, const ArrayView& /*out*/) {
    return false;
  }

  // Sorting and searching (cpu_sort*.cpp, cuda_sort*.cpp), in NumPy's order of every
  // dtype (ops/sort_keys.h: NaNs last, complex lexicographic, -0.0 == +0.0).
  // sort_rows sorts each row of `in` (2-d (rows, n), C-contiguous). values (same shape
  // and dtype, C-contiguous, may be `in` itself) gets the sorted elements: equal elements
  // in any order, -0.0 before +0.0. indices (int64, C-contiguous) gets each element's
  // position in its row, stable (equal elements in index order). Either may be null.
  virtual void sort_rows(const ArrayView& in, const ArrayView* values, const ArrayView* indices) = 0;
  // Stable argsort of each row by several keys (each (rows, n), C-contiguous, any
  // dtypes); the last key decides first. indices: int64 (rows, n), C-contiguous.
  virtual void lexsort_rows(std::span<const ArrayView> keys, const ArrayView& indices) = 0;
  // The middle pair of each row's sorted values (median, nanmedian): rows is (R, n),
  // n >= 1, C-contiguous, of a real dtype; out is (R, 2), rows' dtype, C-contiguous.
  // out[r] gets the values at positions (m-1)/2 and m/2 of row r in NumPy's order, m
  // being n, or with skip_nan the row's count of non-NaN values; a row with a NaN
  // (with skip_nan: a row of NaNs only) gets two NaNs. Returns false, writing nothing,
  // where the backend has no better way than sorting the rows (the caller sorts).
  virtual bool middle_pair(const ArrayView& /*rows*/, bool /*skip_nan*/, const ArrayView& /*out*/) { return false; }
  // out[i] = where queries[i] goes in the ascending 1-d `sorted`: before the first equal
  // element (left) or after the last (right). sorted, queries and out (int64, queries'
  // shape) are C-contiguous; sorted and queries share one dtype.
  virtual void searchsorted(const ArrayView& sorted, const ArrayView& queries, bool right, const ArrayView& out) = 0;
  // The positions of the true elements of the 1-d C-contiguous bool `flags`, ascending,
  // into out (int64, flags' length at least); returns how many (one host read on a GPU).
  virtual std::int64_t flag_positions(const ArrayView& flags, const ArrayView& out) = 0;

  virtual void synchronize() = 0;

  // LAPACK-style factorizations on this device (dense_solver.h); nullptr where the
  // backend has none.
  virtual DenseSolver* dense_solver() { return nullptr; }

  // FFTs (fft_job.h): in and out have the same batch shape (the leading axes); over the
  // last job.rank axes c2c maps complex n to complex n, r2c real n to complex n/2+1 along
  // the last axis, c2r complex n/2+1 to real n (n: the output's length). float32 /
  // complex64 transform in single precision, float64 / complex128 in double. Any strides;
  // out overlaps in only when it is the very same view (an in-place c2c transform).
  virtual void fft(const FftJob& job, const ArrayView& in, const ArrayView& out) = 0;
  // The device's plan cache (made on first use).
  virtual FftPlanCache& fft_plan_cache() = 0;
};

// The backend that runs work for `device`; throws RuntimeError if it is unavailable.
Backend& backend_for(Device device);

}  // namespace copper::backend
