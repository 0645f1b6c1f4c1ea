#include "backend/cpu/cpu_fft_plans.h"

#include <algorithm>
#include <complex>
#include <cstring>
#include <string>

#include "backend/registry.h"
#include "backend/cpu/thread_pool.h"
#include "backend/fft_plan_cache.h"
#include "copper/errors.hpp"

namespace copper::backend::cpu {
namespace {

const char* kind_name(FftKind k) { return k == FftKind::c2c ? "C2C" : k == FftKind::r2c ? "R2C" : "C2R"; }

// Plain string building rather than an ostringstream: cheaper on every planned transform, and
// no dependence on the iostream locale machinery (see docs/architecture.md on libstdc++).
std::string describe(FftKind kind, bool forward, bool single, int nthreads, const std::vector<FftwIodim64>& dims,
                     const std::vector<FftwIodim64>& howmany) {
  std::string s = kind_name(kind);
  if (kind == FftKind::c2c) s += forward ? " forward" : " inverse";
  s += single ? " single n=(" : " double n=(";
  for (std::size_t i = 0; i < dims.size(); ++i) (s += i ? "," : "") += std::to_string(dims[i].n);
  std::int64_t batch = 1;
  for (const FftwIodim64& d : howmany) batch *= d.n;
  s += ") batch=" + std::to_string(batch) + " threads=" + std::to_string(nthreads);
  return s;
}

std::shared_ptr<const fft::Plan> make_plan(FftKind kind, bool forward, bool single, int nthreads,
                                           const std::vector<FftwIodim64>& dims,
                                           const std::vector<FftwIodim64>& howmany, void* in, void* out) {
  const Fftw& api = fftw(single);
  const int rank = static_cast<int>(dims.size()), hrank = static_cast<int>(howmany.size());
  FftwPlan p = nullptr;
  {
    std::lock_guard lock(fftw_planner_mutex());
    if (api.plan_with_nthreads) api.plan_with_nthreads(nthreads);
    switch (kind) {
      case FftKind::c2c:
        p = api.plan_dft(rank, dims.data(), hrank, howmany.data(), in, out, forward ? kFftwForward : kFftwBackward,
                         kFftwEstimate);
        break;
      case FftKind::r2c: p = api.plan_r2c(rank, dims.data(), hrank, howmany.data(), in, out, kFftwEstimate); break;
      case FftKind::c2r:
        p = api.plan_c2r(rank, dims.data(), hrank, howmany.data(), in, out, kFftwEstimate | kFftwDestroyInput);
        break;
    }
  }
  const std::string what = describe(kind, forward, single, nthreads, dims, howmany);
  if (!p) throw RuntimeError("FFTW could not plan the transform " + what);
  std::shared_ptr<void> handle(p, [destroy = api.destroy_plan](void* q) {
    std::lock_guard lock(fftw_planner_mutex());
    destroy(q);
  });
  if (rank == 1) return std::make_shared<fft::Plan1d>(copper::cpu, rank, 0, what, std::move(handle));
  return std::make_shared<fft::PlanNd>(copper::cpu, rank, 0, what, std::move(handle));
}

// Neighbouring lines per block, so that a block's buffer stays within a core's L2 cache
// while each gather still reads whole cache lines of neighbouring lines.
std::int64_t lines_per_block(std::int64_t n, std::int64_t esize) {
  return std::clamp<std::int64_t>((std::int64_t{1} << 19) / std::max<std::int64_t>(n * esize, 1), 1, 16);
}

// Copies a block of lines between strided memory and the contiguous buffer [line][n].
template <class T>
void gather(const T* src, const std::int64_t* base, std::int64_t count, std::int64_t n, std::int64_t stride, T* buf) {
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t b = 0; b < count; ++b) buf[b * n + j] = src[base[b] + j * stride];
}

template <class T>
void scatter(const T* buf, const std::int64_t* base, std::int64_t count, std::int64_t n, std::int64_t stride, T* dst) {
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t b = 0; b < count; ++b) dst[base[b] + j * stride] = buf[b * n + j];
}

template <class T>
void lines_of(const FftDim& axis, const std::vector<FftDim>& others, const T* src, T* dst, bool forward,
              bool single, int nthreads) {
  const std::int64_t n = axis.n;
  std::int64_t lines = 1;
  for (const FftDim& d : others) lines *= d.n;
  const std::int64_t block = std::min(lines_per_block(n, sizeof(T)), lines);
  const std::int64_t blocks = (lines + block - 1) / block;
  const int tasks = static_cast<int>(std::min<std::int64_t>(nthreads, blocks));
  const Fftw& api = fftw(single);
  Backend& be = cpu_backend();
  // One plan for every block: `block` contiguous lines in place (a short last block
  // transforms a few stale lines too, and scatters only its own).
  std::shared_ptr<Buffer> probe = be.allocate(static_cast<std::size_t>(block * n) * sizeof(T));
  const auto plan = fftw_plan(FftKind::c2c, forward, single, 1, {{n, 1, 1}}, {{block, n, n}}, probe->data(),
                              probe->data());
  const int ndim = static_cast<int>(others.size());
  std::vector<std::shared_ptr<Buffer>> buffers{probe};  // one per task, allocated before the threads start
  for (int t = 1; t < tasks; ++t) buffers.push_back(be.allocate(static_cast<std::size_t>(block * n) * sizeof(T)));
  parallel_tasks(tasks, [&](int t) {
    const std::int64_t first = blocks * t / tasks, last = blocks * (t + 1) / tasks;
    T* buf = static_cast<T*>(buffers[t]->data());
    std::vector<std::int64_t> in_base(block), out_base(block), index(ndim);
    // The multi-index of line first * block (others' last dimension varies fastest).
    std::int64_t rest = first * block, in_off = 0, out_off = 0;
    for (int k = ndim - 1; k >= 0; --k) {
      index[k] = rest % others[k].n;
      rest /= others[k].n;
      in_off += index[k] * others[k].in_stride;
      out_off += index[k] * others[k].out_stride;
    }
    for (std::int64_t b = first; b < last; ++b) {
      const std::int64_t count = std::min(block, lines - b * block);
      for (std::int64_t l = 0; l < count; ++l) {
        in_base[l] = in_off;
        out_base[l] = out_off;
        for (int k = ndim - 1; k >= 0; --k) {  // next line
          in_off += others[k].in_stride;
          out_off += others[k].out_stride;
          if (++index[k] < others[k].n) break;
          in_off -= index[k] * others[k].in_stride;
          out_off -= index[k] * others[k].out_stride;
          index[k] = 0;
        }
      }
      gather(src, in_base.data(), count, n, axis.in_stride, buf);
      api.execute_dft(plan->handle(), buf, buf);
      scatter(buf, out_base.data(), count, n, axis.out_stride, dst);
    }
  });
}

}  // namespace

std::shared_ptr<const fft::Plan> fftw_plan(FftKind kind, bool forward, bool single, int nthreads,
                                           const std::vector<FftwIodim64>& dims,
                                           const std::vector<FftwIodim64>& howmany, void* in, void* out) {
  const Fftw& api = fftw(single);
  fft::PlanKey key{static_cast<std::int64_t>(kind),
                   forward,
                   single,
                   nthreads,
                   in == out,
                   api.alignment_of(in),
                   api.alignment_of(out),
                   static_cast<std::int64_t>(dims.size())};
  for (const FftwIodim64& d : dims) key.insert(key.end(), {d.n, d.is, d.os});
  for (const FftwIodim64& d : howmany) key.insert(key.end(), {d.n, d.is, d.os});
  return cpu_backend().fft_plan_cache().get_or_make(
      key, [&] { return make_plan(kind, forward, single, nthreads, dims, howmany, in, out); });
}

void fftw_execute(const Fftw& api, FftKind kind, const fft::Plan& plan, void* in, void* out) {
  switch (kind) {
    case FftKind::c2c: api.execute_dft(plan.handle(), in, out); break;
    case FftKind::r2c: api.execute_r2c(plan.handle(), in, out); break;
    case FftKind::c2r: api.execute_c2r(plan.handle(), in, out); break;
  }
}

void c2c_lines(const FftDim& axis, std::vector<FftDim> others, const void* src, void* dst, bool forward, bool single,
               int nthreads) {
  // Neighbouring lines next to each other in a block: the smallest input stride varies fastest.
  std::stable_sort(others.begin(), others.end(),
                   [](const FftDim& a, const FftDim& b) { return std::abs(a.in_stride) > std::abs(b.in_stride); });
  if (single) {
    using T = std::complex<float>;
    lines_of(axis, others, static_cast<const T*>(src), static_cast<T*>(dst), forward, single, nthreads);
  } else {
    using T = std::complex<double>;
    lines_of(axis, others, static_cast<const T*>(src), static_cast<T*>(dst), forward, single, nthreads);
  }
}

}  // namespace copper::backend::cpu
