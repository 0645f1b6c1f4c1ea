// Backend::fft on the CPU: FFTW's guru64 plans (any strides, any batch layout; see
// cpu_fft_plans.h), executed on the caller's arrays with the new-array functions, threads
// on copper's pool. Multi-dimensional and strided transforms run one axis at a time.

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/cpu_fft_plans.h"
#include "backend/cpu/cpu_fftw.h"
#include "backend/cpu/thread_pool.h"
#include "backend/fft_layout.h"
#include "backend/fft_plan_cache.h"
#include "copper/errors.hpp"

namespace copper::backend::cpu {
namespace {

// Below this many elements a transform runs on the calling thread.
constexpr std::int64_t kThreadedWork = 1 << 15;
// Fewer lines than this along a strided axis: one threaded FFTW plan rather than blocks.
constexpr std::int64_t kMinBlockedLines = 8;

FftwIodim64 iodim(const FftDim& d) { return {d.n, d.in_stride, d.out_stride}; }

std::vector<FftwIodim64> iodims(const std::vector<FftDim>& ds) {
  std::vector<FftwIodim64> r;
  for (const FftDim& d : ds) r.push_back(iodim(d));
  return r;
}

// One guru transform over `dims` (batch: every dimension in `others`).
void guru(const Fftw& api, FftKind kind, bool forward, bool single, int nthreads, const std::vector<FftDim>& dims,
          const std::vector<FftDim>& others, void* in, void* out) {
  const auto plan = fftw_plan(kind, forward, single, nthreads, iodims(dims), iodims(others), in, out);
  fftw_execute(api, kind, *plan, in, out);
}

// The dimensions of `dims` and `batch` but the i-th of dims, as one list.
std::vector<FftDim> all_but(const std::vector<FftDim>& dims, std::size_t i, const std::vector<FftDim>& batch) {
  std::vector<FftDim> r;
  for (std::size_t k = 0; k < dims.size(); ++k)
    if (k != i) r.push_back(dims[k]);
  r.insert(r.end(), batch.begin(), batch.end());
  return r;
}

// The same dimensions with both stride sets taken from one side (the output's, or the
// input's), for passes in place in that array.
std::vector<FftDim> strides_of(std::vector<FftDim> ds, bool use_out) {
  for (FftDim& d : ds) (use_out ? d.in_stride : d.out_stride) = use_out ? d.out_stride : d.in_stride;
  return ds;
}

// c2c along dims[i] of the lines the other dimensions span, src to dst: contiguous lines
// (or too few to share out) through FFTW itself, strided ones through blocks of lines.
void c2c_axis(const Fftw& api, bool forward, bool single, int nthreads, const std::vector<FftDim>& dims,
              std::size_t i, const std::vector<FftDim>& batch, void* src, void* dst) {
  const FftDim& d = dims[i];
  const std::vector<FftDim> others = all_but(dims, i, batch);
  std::int64_t lines = 1;
  for (const FftDim& o : others) lines *= o.n;
  if ((d.in_stride == 1 && d.out_stride == 1) || lines < kMinBlockedLines) {
    guru(api, FftKind::c2c, forward, single, nthreads, {d}, others, src, dst);
  } else {
    c2c_lines(d, others, src, dst, forward, single, nthreads);
  }
}

// A multi-dimensional c2c as one 1-D pass per axis (FFTW's estimated multi-dimensional
// plans walk the outer axes slowly): the first pass from in to out, starting with a
// contiguous axis where there is one, the others in place in out.
void c2c_by_axes(const Fftw& api, bool forward, bool single, int nthreads, const FftLayout& l, void* in,
                 void* out) {
  std::size_t first = 0;
  for (std::size_t i = 0; i < l.dims.size(); ++i)
    if (l.dims[i].in_stride == 1 && l.dims[i].out_stride == 1) first = i;
  c2c_axis(api, forward, single, nthreads, l.dims, first, l.batch, in, out);
  const std::vector<FftDim> dims = strides_of(l.dims, true), batch = strides_of(l.batch, true);
  for (std::size_t i = 0; i < dims.size(); ++i)
    if (i != first) c2c_axis(api, forward, single, nthreads, dims, i, batch, out, out);
}

// rfftn as an r2c pass along the last axis (in to out), then c2c passes in place in out
// over the other axes, whose lines now span n/2 + 1 complex values along the last axis.
void r2c_by_axes(const Fftw& api, bool single, int nthreads, const FftLayout& l, void* in, void* out) {
  const std::size_t last = l.dims.size() - 1;
  guru(api, FftKind::r2c, true, single, nthreads, {l.dims[last]}, all_but(l.dims, last, l.batch), in, out);
  std::vector<FftDim> dims = strides_of(l.dims, true);
  dims[last].n = dims[last].n / 2 + 1;
  const std::vector<FftDim> batch = strides_of(l.batch, true);
  for (std::size_t i = 0; i < last; ++i) c2c_axis(api, true, single, nthreads, dims, i, batch, out, out);
}

// irfftn: inverse c2c passes in place in `in` (a scratch copy) over every axis but the
// last, then a c2r pass along the last axis from in to out.
void c2r_by_axes(const Fftw& api, bool single, int nthreads, const FftLayout& l, void* in, void* out) {
  const std::size_t last = l.dims.size() - 1;
  std::vector<FftDim> dims = strides_of(l.dims, false);
  dims[last].n = dims[last].n / 2 + 1;
  const std::vector<FftDim> batch = strides_of(l.batch, false);
  for (std::size_t i = 0; i < last; ++i) c2c_axis(api, false, single, nthreads, dims, i, batch, in, in);
  guru(api, FftKind::c2r, false, single, nthreads, {l.dims[last]}, all_but(l.dims, last, l.batch), in, out);
}

}  // namespace

FftPlanCache& CpuBackend::fft_plan_cache() {
  static FftPlanCache* cache = new FftPlanCache();  // leaked: plans may outlive static destructors
  return *cache;
}

void CpuBackend::fft(const FftJob& job, const ArrayView& in_view, const ArrayView& out_view) {
  if (view_size(out_view) == 0) return;
  const bool single = in_view.dtype == DType::float32 || in_view.dtype == DType::complex64;
  const Fftw& api = fftw(single);  // raises before anything is allocated when FFTW is missing

  // c2r overwrites its input; views FFTW cannot walk (negative or broadcast strides,
  // strides that are not whole elements) go through compact copies.
  ArrayView in = in_view, out = out_view;
  std::shared_ptr<Buffer> in_copy, out_copy;
  FftLayout layout = fft_layout(job, in, out);
  const bool in_place = in.data == out.data;
  const bool copy_in = (job.kind == FftKind::c2r && !job.input_is_scratch) || has_unusual_strides(in) ||
                       !layout.element_strides;
  const bool copy_out = has_unusual_strides(out) || !layout.element_strides;
  if (in_place && (copy_in || copy_out)) {  // one view: transform a compact copy in place
    out_copy = allocate(view_size(out) * itemsize(out.dtype));
    out = in = compact_view(out, out_copy->data());
    copy(in_view, out);
  } else if (!in_place) {
    if (copy_in) {
      in_copy = allocate(view_size(in) * itemsize(in.dtype));
      in = compact_view(in, in_copy->data());
      copy(in_view, in);
    }
    if (copy_out) {
      out_copy = allocate(view_size(out) * itemsize(out.dtype));
      out = compact_view(out, out_copy->data());
    }
  }
  if (in_copy || out_copy) layout = fft_layout(job, in, out);

  const std::int64_t work = std::max(view_size(in), view_size(out));
  const int nthreads = work >= kThreadedWork && api.plan_with_nthreads ? num_threads() : 1;
  const bool strided_1d = layout.dims.size() == 1 && (layout.dims[0].in_stride != 1 || layout.dims[0].out_stride != 1);
  if (job.kind == FftKind::c2c && (layout.dims.size() > 1 || strided_1d)) {
    c2c_by_axes(api, job.forward, single, nthreads, layout, in.data, out.data);
  } else if (job.kind == FftKind::r2c && layout.dims.size() > 1) {
    r2c_by_axes(api, single, nthreads, layout, in.data, out.data);
  } else if (job.kind == FftKind::c2r && layout.dims.size() > 1) {
    c2r_by_axes(api, single, nthreads, layout, in.data, out.data);
  } else {
    guru(api, job.kind, job.forward, single, nthreads, layout.dims, layout.batch, in.data, out.data);
  }
  scale_view(*this, out, job.scale);
  if (out.data != out_view.data) copy(out, out_view);
}

}  // namespace copper::backend::cpu
