// Backend::fft on a GPU: cuFFT plans (cufftMakePlanMany64, the advanced layout, so
// strided views transform where they lie), kept in the device's plan cache, made with
// auto-allocation off: each execution takes its work area from copper's stream-ordered
// pool and runs on copper's current stream. Layouts cuFFT cannot express (strides that
// do not nest, negative or broadcast strides, many scattered batch dimensions) go
// through compact copies.
#include <cstdint>
#include <mutex>
#include <sstream>

#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_cufft.h"
#include "backend/cuda/per_device.h"
#include "backend/fft_layout.h"
#include "backend/fft_plan_cache.h"
#include "copper/errors.hpp"

namespace copper::backend::cuda {
namespace {

// More outer batch combinations than this are copied compact rather than looped over.
constexpr std::int64_t kMaxBatchLoop = 64;

// A cuFFT plan; its stream and work area are plan state, so they are set and the plan
// executed under `mutex` (executions only enqueue work).
struct CufftPlanHandle {
  int device = 0;
  cufftHandle handle = 0;
  std::mutex mutex;
  ~CufftPlanHandle() {
    try {
      make_current(device);
      cufft().destroy(handle);
    } catch (...) {  // a plan of a lost context cannot be destroyed anyway
    }
  }
};

// cufftMakePlanMany64's arguments.
struct PlanShape {
  int rank = 1;
  long long n[3] = {}, inembed[3] = {}, onembed[3] = {};
  long long istride = 1, ostride = 1, idist = 1, odist = 1, batch = 1;
  cufftType type = CUFFT_C2C;
};

cufftType plan_type(FftKind kind, bool single) {
  switch (kind) {
    case FftKind::c2c: return single ? CUFFT_C2C : CUFFT_Z2Z;
    case FftKind::r2c: return single ? CUFFT_R2C : CUFFT_D2Z;
    default: return single ? CUFFT_C2R : CUFFT_Z2D;
  }
}

// The extent a view has along transform dimension j (the complex side of a real
// transform holds n/2+1 elements along the last one).
std::int64_t extent(const FftJob& job, const FftLayout& l, std::size_t j, bool input) {
  const std::int64_t n = l.dims[j].n;
  if (j + 1 != l.dims.size() || job.kind == FftKind::c2c) return n;
  const bool complex_side = (job.kind == FftKind::r2c) != input;
  return complex_side ? n / 2 + 1 : n;
}

// cuFFT's advanced layout addresses element (x0, x1, x2) at
// ((x0 * embed[1] + x1) * embed[2] + x2) * stride: every transform stride must be a
// positive whole multiple of the next inner one, with room for that dimension.
bool nested(const FftJob& job, const FftLayout& l, bool input, long long* embed, long long* stride) {
  auto s = [&](std::size_t j) { return input ? l.dims[j].in_stride : l.dims[j].out_stride; };
  const std::size_t k = l.dims.size();
  for (std::size_t j = 0; j < k; ++j)
    if (s(j) <= 0) return false;
  *stride = s(k - 1);
  embed[0] = extent(job, l, 0, input);
  for (std::size_t j = 1; j < k; ++j) {
    if (s(j - 1) % s(j) != 0) return false;
    embed[j] = s(j - 1) / s(j);
    if (embed[j] < extent(job, l, j, input)) return false;
  }
  return true;
}

// cuFFT reads the real side of an R2C/C2R transform in pairs: every execution's start
// there (the base and each looped-over batch offset) must be aligned to two elements, or
// cufftExec fails with CUFFT_INVALID_VALUE (D2Z along a middle axis, seen on an H100).
bool real_side_aligned(const FftJob& job, const FftLayout& l, const ArrayView& in, const ArrayView& out) {
  if (job.kind == FftKind::c2c) return true;
  const bool input = job.kind == FftKind::r2c;
  const ArrayView& v = input ? in : out;
  if (reinterpret_cast<std::uintptr_t>(v.data) % (2 * static_cast<std::uintptr_t>(itemsize(v.dtype)))) return false;
  for (std::size_t d = 0; d + 1 < l.batch.size(); ++d)
    if ((input ? l.batch[d].in_stride : l.batch[d].out_stride) % 2) return false;
  return true;
}

// Whether cuFFT can run the layout as it is: nested transform strides in both views,
// positive batch strides, few enough outer batch combinations to loop over.
bool fits(const FftJob& job, const FftLayout& l, const ArrayView& in, const ArrayView& out, PlanShape* p) {
  if (!l.element_strides || has_unusual_strides(in) || has_unusual_strides(out) || l.dims.size() > 3) return false;
  if (!nested(job, l, true, p->inembed, &p->istride) || !nested(job, l, false, p->onembed, &p->ostride)) return false;
  if (l.batch.size() > 1 && l.batch_count / l.batch.back().n > kMaxBatchLoop) return false;
  // cuFFT's element types are aligned to their size (double2: 16 bytes).
  if (reinterpret_cast<std::uintptr_t>(in.data) % static_cast<std::uintptr_t>(itemsize(in.dtype)) ||
      reinterpret_cast<std::uintptr_t>(out.data) % static_cast<std::uintptr_t>(itemsize(out.dtype)))
    return false;
  if (!real_side_aligned(job, l, in, out)) return false;
  p->rank = static_cast<int>(l.dims.size());
  for (int j = 0; j < p->rank; ++j) p->n[j] = l.dims[j].n;
  if (!l.batch.empty()) {
    p->batch = l.batch.back().n;
    p->idist = l.batch.back().in_stride;
    p->odist = l.batch.back().out_stride;
  } else {  // one transform: the distances are not read, but must be sensible
    p->batch = 1;
    p->idist = p->istride * p->inembed[0] * (p->rank > 1 ? p->inembed[1] : 1) * (p->rank > 2 ? p->inembed[2] : 1);
    p->odist = p->ostride * p->onembed[0] * (p->rank > 1 ? p->onembed[1] : 1) * (p->rank > 2 ? p->onembed[2] : 1);
  }
  return true;
}

const char* type_name(cufftType t) {
  switch (t) {
    case CUFFT_C2C: return "C2C";
    case CUFFT_Z2Z: return "Z2Z";
    case CUFFT_R2C: return "R2C";
    case CUFFT_D2Z: return "D2Z";
    case CUFFT_C2R: return "C2R";
    default: return "Z2D";
  }
}

std::shared_ptr<fft::Plan> make_plan(int device, const PlanShape& p) {
  const Cufft& api = cufft();
  auto h = std::make_shared<CufftPlanHandle>();
  h->device = device;
  check_cufft(api.create(&h->handle), "cufftCreate");
  // On failure below, h's destructor destroys the half-made plan.
  std::size_t work = 0;
  check_cufft(api.set_auto_allocation(h->handle, 0), "cufftSetAutoAllocation");
  PlanShape q = p;  // cuFFT takes non-const arrays
  check_cufft(api.make_plan_many64(h->handle, q.rank, q.n, q.inembed, q.istride, q.idist, q.onembed, q.ostride,
                                   q.odist, q.type, q.batch, &work),
              "cufftMakePlanMany64");
  std::ostringstream s;
  s << type_name(p.type) << " n=(";
  for (int j = 0; j < p.rank; ++j) s << (j ? "," : "") << p.n[j];
  s << ") batch=" << p.batch;
  if (p.rank == 1) return std::make_shared<fft::Plan1d>(Device{DeviceType::cuda, device}, p.rank, work, s.str(), h);
  return std::make_shared<fft::PlanNd>(Device{DeviceType::cuda, device}, p.rank, work, s.str(), h);
}

fft::PlanKey key_of(const PlanShape& p) {
  fft::PlanKey key{static_cast<std::int64_t>(p.type), p.rank};
  for (int j = 0; j < p.rank; ++j) key.insert(key.end(), {p.n[j], p.inembed[j], p.onembed[j]});
  key.insert(key.end(), {p.istride, p.idist, p.ostride, p.odist, p.batch});
  return key;
}

PerDevice<FftPlanCache>& plan_caches() {
  static auto* caches = new PerDevice<FftPlanCache>;  // leaked: plans outlive static destructors
  return *caches;
}

}  // namespace

FftPlanCache& CudaBackend::fft_plan_cache() {
  return plan_caches().get(index_, [] { return std::make_unique<FftPlanCache>(); });
}

void CudaBackend::fft(const FftJob& job, const ArrayView& in_view, const ArrayView& out_view) {
  if (view_size(out_view) == 0) return;
  const Cufft& api = cufft();  // raises before anything is allocated when cuFFT is missing
  make_current(index_);
  const bool single = in_view.dtype == DType::float32 || in_view.dtype == DType::complex64;

  // c2r overwrites its input; layouts cuFFT cannot address go through compact copies
  // (a compact input and output always fit).
  ArrayView in = in_view, out = out_view;
  std::shared_ptr<Buffer> in_copy, out_copy;
  const bool in_place = in.data == out.data;
  PlanShape shape;
  shape.type = plan_type(job.kind, single);
  FftLayout layout = fft_layout(job, in, out);
  if (layout.dims.size() == 1 && layout.dims[0].n == 1) {
    // Length-1 transforms are copies (r2c: x + 0j, c2r: the real part); no plan needed.
    if (!in_place) copy(in_view, out_view);
    scale_view(*this, out_view, job.scale);
    return;
  }
  if (!fits(job, layout, in, out, &shape) || (job.kind == FftKind::c2r && !job.input_is_scratch)) {
    if (in_place) {
      out_copy = allocate(view_size(out) * itemsize(out.dtype));
      out = in = compact_view(out, out_copy->data());
      copy(in_view, out);
    } else {
      in_copy = allocate(view_size(in) * itemsize(in.dtype));
      in = compact_view(in, in_copy->data());
      copy(in_view, in);
      layout = fft_layout(job, in, out);
      if (!fits(job, layout, in, out, &shape)) {
        out_copy = allocate(view_size(out) * itemsize(out.dtype));
        out = compact_view(out, out_copy->data());
      }
    }
    layout = fft_layout(job, in, out);
    if (!fits(job, layout, in, out, &shape)) throw RuntimeError("copper.fft: no cuFFT layout for a compact array");
  }

  auto plan = fft_plan_cache().get_or_make(key_of(shape), [&] { return make_plan(index_, shape); });
  auto* h = static_cast<CufftPlanHandle*>(plan->handle());
  std::shared_ptr<Buffer> work = plan->work_size() ? allocate(plan->work_size()) : nullptr;
  const auto stream = reinterpret_cast<cudaStream_t>(current_stream_handle(index_));

  // Batch dimensions outside the plan's one: loop over them on the host.
  const std::size_t outer_dims = layout.batch.empty() ? 0 : layout.batch.size() - 1;
  const std::int64_t outer = layout.batch.empty() ? 1 : layout.batch_count / layout.batch.back().n;
  const std::int64_t in_item = itemsize(in.dtype), out_item = itemsize(out.dtype);
  {
    std::lock_guard lock(h->mutex);
    check_cufft(api.set_stream(h->handle, stream), "cufftSetStream");
    if (work) check_cufft(api.set_work_area(h->handle, work->data()), "cufftSetWorkArea");
    for (std::int64_t b = 0; b < outer; ++b) {
      std::int64_t in_offset = 0, out_offset = 0, rest = b;
      for (std::size_t d = outer_dims; d-- > 0;) {
        const std::int64_t i = rest % layout.batch[d].n;
        rest /= layout.batch[d].n;
        in_offset += i * layout.batch[d].in_stride;
        out_offset += i * layout.batch[d].out_stride;
      }
      void* src = static_cast<char*>(in.data) + in_offset * in_item;
      void* dst = static_cast<char*>(out.data) + out_offset * out_item;
      const int direction = job.forward ? CUFFT_FORWARD : CUFFT_INVERSE;
      switch (shape.type) {
        case CUFFT_C2C: check_cufft(api.exec_c2c(h->handle, src, dst, direction), "cufftExecC2C"); break;
        case CUFFT_Z2Z: check_cufft(api.exec_z2z(h->handle, src, dst, direction), "cufftExecZ2Z"); break;
        case CUFFT_R2C: check_cufft(api.exec_r2c(h->handle, src, dst), "cufftExecR2C"); break;
        case CUFFT_D2Z: check_cufft(api.exec_d2z(h->handle, src, dst), "cufftExecD2Z"); break;
        case CUFFT_C2R: check_cufft(api.exec_c2r(h->handle, src, dst), "cufftExecC2R"); break;
        default: check_cufft(api.exec_z2d(h->handle, src, dst), "cufftExecZ2D"); break;
      }
    }
  }
  current_stream_state(index_).last_op.store("fft (cuFFT)", std::memory_order_relaxed);
  scale_view(*this, out, job.scale);
  if (out.data != out_view.data) copy(out, out_view);
}

}  // namespace copper::backend::cuda
