// Backend::fft on the CPU: FFTW's guru64 plans (any strides, any batch layout), made
// with FFTW_ESTIMATE (planning never touches the arrays) under FFTW's planner lock and
// kept in the CPU plan cache; executed on the caller's arrays with the new-array
// functions, threads on copper's pool.
#include <sstream>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/cpu_fftw.h"
#include "backend/cpu/thread_pool.h"
#include "backend/fft_layout.h"
#include "backend/fft_plan_cache.h"
#include "copper/errors.hpp"

namespace copper::backend::cpu {
namespace {

// Below this many elements a transform runs on the calling thread.
constexpr std::int64_t kThreadedWork = 1 << 15;

const char* kind_name(FftKind k) { return k == FftKind::c2c ? "C2C" : k == FftKind::r2c ? "R2C" : "C2R"; }

std::string describe(const FftJob& job, const FftLayout& l, bool single, int nthreads) {
  std::ostringstream s;
  s << kind_name(job.kind) << (job.kind == FftKind::c2c ? (job.forward ? " forward" : " inverse") : "")
    << (single ? " single" : " double") << " n=(";
  for (std::size_t i = 0; i < l.dims.size(); ++i) s << (i ? "," : "") << l.dims[i].n;
  s << ") batch=" << l.batch_count << " threads=" << nthreads;
  return s.str();
}

std::shared_ptr<fft::Plan> make_plan(const FftJob& job, const FftLayout& l, const ArrayView& in,
                                     const ArrayView& out, bool single, int nthreads) {
  const Fftw& api = fftw(single);
  std::vector<FftwIodim64> dims, howmany;
  for (const FftDim& d : l.dims) dims.push_back({d.n, d.in_stride, d.out_stride});
  for (const FftDim& d : l.batch) howmany.push_back({d.n, d.in_stride, d.out_stride});
  const int rank = static_cast<int>(dims.size()), hrank = static_cast<int>(howmany.size());
  FftwPlan p = nullptr;
  {
    std::lock_guard lock(fftw_planner_mutex());
    if (api.plan_with_nthreads) api.plan_with_nthreads(nthreads);
    switch (job.kind) {
      case FftKind::c2c:
        p = api.plan_dft(rank, dims.data(), hrank, howmany.data(), in.data, out.data,
                         job.forward ? kFftwForward : kFftwBackward, kFftwEstimate);
        break;
      case FftKind::r2c:
        p = api.plan_r2c(rank, dims.data(), hrank, howmany.data(), in.data, out.data, kFftwEstimate);
        break;
      case FftKind::c2r:
        p = api.plan_c2r(rank, dims.data(), hrank, howmany.data(), in.data, out.data,
                         kFftwEstimate | kFftwDestroyInput);
        break;
    }
  }
  const std::string what = describe(job, l, single, nthreads);
  if (!p) throw RuntimeError("FFTW could not plan the transform " + what);
  std::shared_ptr<void> handle(p, [destroy = api.destroy_plan](void* q) {
    std::lock_guard lock(fftw_planner_mutex());
    destroy(q);
  });
  if (rank == 1) return std::make_shared<fft::Plan1d>(copper::cpu, rank, 0, what, std::move(handle));
  return std::make_shared<fft::PlanNd>(copper::cpu, rank, 0, what, std::move(handle));
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
  fft::PlanKey key{static_cast<std::int64_t>(job.kind),
                   job.forward,
                   single,
                   nthreads,
                   in.data == out.data,
                   api.alignment_of(in.data),
                   api.alignment_of(out.data),
                   static_cast<std::int64_t>(layout.dims.size())};
  for (const FftDim& d : layout.dims) key.insert(key.end(), {d.n, d.in_stride, d.out_stride});
  for (const FftDim& d : layout.batch) key.insert(key.end(), {d.n, d.in_stride, d.out_stride});
  auto plan = fft_plan_cache().get_or_make(key, [&] { return make_plan(job, layout, in, out, single, nthreads); });

  switch (job.kind) {
    case FftKind::c2c: api.execute_dft(plan->handle(), in.data, out.data); break;
    case FftKind::r2c: api.execute_r2c(plan->handle(), in.data, out.data); break;
    case FftKind::c2r: api.execute_c2r(plan->handle(), in.data, out.data); break;
  }
  scale_view(*this, out, job.scale);
  if (out.data != out_view.data) copy(out, out_view);
}

}  // namespace copper::backend::cpu
