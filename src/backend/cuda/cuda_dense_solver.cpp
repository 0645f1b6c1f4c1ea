// DenseSolver on a GPU: cuSOLVER's 64-bit generic routines (typed ?orgqr/?ungqr for Q),
// one call per matrix of the stack (one batched call for eigh stacks), all enqueued on the device's current stream with no
// host synchronization in between. Workspaces come from the stream-ordered pool (sized
// once per stack: every matrix has the same shape) and are freed in stream order.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <mutex>
#include <vector>

#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_cusolver.h"
#include "backend/cuda/cuda_driver.h"
#include "backend/cuda/cuda_graph.h"
#include "backend/cuda/cuda_memory.h"
#include "backend/cuda/per_device.h"
#include "backend/dense_solver.h"
#include "copper/errors.hpp"
#include "copper/runtime.hpp"

namespace copper::backend::cuda {
namespace {

cudaDataType data_type(DType t) {
  switch (t) {
    case DType::float32: return CUDA_R_32F;
    case DType::float64: return CUDA_R_64F;
    case DType::complex64: return CUDA_C_32F;
    case DType::complex128: return CUDA_C_64F;
    default: throw ValueError("cuSOLVER has no routines for dtype " + std::string(name(t)));
  }
}

int precision_index(DType t) {  // s, d, c, z
  return t == DType::float32 ? 0 : t == DType::float64 ? 1 : t == DType::complex64 ? 2 : 3;
}

int int32_size(std::int64_t v, const char* what) {
  if (v > INT_MAX) throw NotImplementedError(std::string(what) + ": sizes above 2**31 - 1 are not supported on the GPU");
  return static_cast<int>(v);
}

// Device workspace from the pool plus a host workspace (rarely asked for). The device
// block is freed in stream order when this goes out of scope; the host block may be used
// by work still in flight, so the stream is synchronized first when there is one.
class Workspace {
 public:
  Workspace(int device, std::size_t device_bytes, std::size_t host_bytes)
      : device_(device), buffer_(allocate_device(device, std::max<std::size_t>(device_bytes, 16))),
        host_(host_bytes), device_bytes_(device_bytes) {}
  ~Workspace() {
    if (!host_.empty()) {
      try {
        synchronize_current_stream(device_);
      } catch (...) {  // the failure surfaces again at the caller's next synchronization
      }
    }
  }
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;
  void* device() const { return buffer_->data(); }
  std::size_t device_bytes() const { return device_bytes_; }
  void* host() { return host_.empty() ? nullptr : host_.data(); }
  std::size_t host_bytes() const { return host_.size(); }

 private:
  int device_;
  std::shared_ptr<Buffer> buffer_;
  std::vector<unsigned char> host_;
  std::size_t device_bytes_;
};

// A pinned mailbox per GPU for info values: the copy lands there asynchronously and an
// event says when. One read at a time per GPU uses it (the PendingInfo holds the lock).
struct InfoMailbox {
  std::mutex mutex;
  int* host = nullptr;
  std::int64_t capacity = 0;  // ints
  CUevent landed = nullptr;
};

InfoMailbox& info_mailbox(int device) {
  static InfoMailbox boxes[kMaxDevices];  // the pinned buffers live as long as the process
  return boxes[device];
}

class MailboxInfo final : public PendingInfo {
 public:
  MailboxInfo(int device, const int* info, std::int64_t count)
      : device_(device), box_(info_mailbox(device)), lock_(box_.mutex), count_(count) {
    make_current(device);
    const Driver& d = driver();
    if (!box_.landed) check(d.cuEventCreate(&box_.landed, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
    if (count > box_.capacity) {  // nothing is in flight: the last reader waited before unlocking
      if (box_.host) check(d.cuMemFreeHost(box_.host), "cuMemFreeHost (info mailbox)");
      box_.host = nullptr, box_.capacity = 0;
      const std::int64_t capacity = std::max<std::int64_t>(count, 4096);
      void* p = nullptr;
      check(d.cuMemHostAlloc(&p, static_cast<std::size_t>(capacity) * sizeof(int), CU_MEMHOSTALLOC_PORTABLE),
            "cuMemHostAlloc (info mailbox)");
      box_.host = static_cast<int*>(p), box_.capacity = capacity;
    }
    const CUstream stream = current_stream_handle(device);
    check(d.cuMemcpyDtoHAsync(box_.host, reinterpret_cast<CUdeviceptr>(info), count * sizeof(int), stream),
          "cuMemcpyDtoHAsync (info)");
    check(d.cuEventRecord(box_.landed, stream), "cuEventRecord");
  }
  ~MailboxInfo() override {
    if (!waited_) driver().cuEventSynchronize(box_.landed);  // the next reader reuses the buffer
  }
  std::vector<int> wait() override {
    check_synchronize_allowed("reading LAPACK info values");
    waited_ = true;
    make_current(device_);
    if (const CUresult r = driver().cuEventSynchronize(box_.landed); r != CUDA_SUCCESS)
      raise_async_error(r, "linalg", "reading LAPACK info values");
    return std::vector<int>(box_.host, box_.host + count_);
  }

 private:
  int device_;
  InfoMailbox& box_;
  std::unique_lock<std::mutex> lock_;
  std::int64_t count_;
  bool waited_ = false;
};

cublasFillMode_t fill(bool lower) { return lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER; }

class CusolverSolver final : public DenseSolver {
 public:
  explicit CusolverSolver(int device) : device_(device) {}

  std::unique_ptr<PendingInfo> read_info_async(const int* info, std::int64_t count) override {
    refuse_during_capture(device_, "reading LAPACK info values on the host");
    return std::make_unique<MailboxInfo>(device_, info, count);
  }

  void getrf(const MatrixStack& a, std::int64_t* ipiv, int* info) override {
    const Cusolver& api = cusolver();
    const CusolverSession s = cusolver_session(device_);
    const cudaDataType t = data_type(a.dtype);
    const std::int64_t n = a.rows;
    std::size_t dev = 0, host = 0;
    check_cusolver(api.getrf_buffer_size(s.handle, s.params, n, n, t, a.data, n, t, &dev, &host),
                   "cusolverDnXgetrf_bufferSize");
    Workspace ws(device_, dev, host);
    for (std::int64_t b = 0; b < a.count; ++b)
      check_cusolver(api.getrf(s.handle, s.params, n, n, t, a.matrix(b), n, ipiv + b * n, t, ws.device(),
                               ws.device_bytes(), ws.host(), ws.host_bytes(), info + b),
                     "cusolverDnXgetrf");
    note("linalg getrf (cuSOLVER)");
  }

  void getrs(bool transpose, const MatrixStack& lu, const std::int64_t* ipiv, const MatrixStack& b,
             int* info) override {
    const Cusolver& api = cusolver();
    const CusolverSession s = cusolver_session(device_);
    const cudaDataType t = data_type(lu.dtype);
    const std::int64_t n = lu.rows;
    for (std::int64_t i = 0; i < lu.count; ++i)
      check_cusolver(api.getrs(s.handle, s.params, transpose ? CUBLAS_OP_T : CUBLAS_OP_N, n, b.cols, t, lu.matrix(i),
                               n, ipiv + i * n, t, b.matrix(i), n, info + i),
                     "cusolverDnXgetrs");
    note("linalg getrs (cuSOLVER)");
  }

  void potrf(bool lower, const MatrixStack& a, int* info) override {
    const Cusolver& api = cusolver();
    const CusolverSession s = cusolver_session(device_);
    const cudaDataType t = data_type(a.dtype);
    const std::int64_t n = a.rows;
    std::size_t dev = 0, host = 0;
    check_cusolver(api.potrf_buffer_size(s.handle, s.params, fill(lower), n, t, a.data, n, t, &dev, &host),
                   "cusolverDnXpotrf_bufferSize");
    Workspace ws(device_, dev, host);
    for (std::int64_t b = 0; b < a.count; ++b)
      check_cusolver(api.potrf(s.handle, s.params, fill(lower), n, t, a.matrix(b), n, t, ws.device(),
                               ws.device_bytes(), ws.host(), ws.host_bytes(), info + b),
                     "cusolverDnXpotrf");
    note("linalg potrf (cuSOLVER)");
  }

  void heevd(bool vectors, bool lower, const MatrixStack& a, void* w, int* info) override {
    const Cusolver& api = cusolver();
    const CusolverSession s = cusolver_session(device_);
    const cudaDataType t = data_type(a.dtype), wt = data_type(real_dtype(a.dtype));
    const cusolverEigMode_t jobz = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
    const std::int64_t n = a.rows, wstride = n * itemsize(real_dtype(a.dtype));
    std::size_t dev = 0, host = 0;
    // Stacks go to the batched routine in one call where it exists (its size limit:
    // n * n * count within int32).
    if (a.count > 1 && api.syev_batched && api.syev_batched_buffer_size && n * n * a.count <= INT_MAX) {
      check_cusolver(api.syev_batched_buffer_size(s.handle, s.params, jobz, fill(lower), n, t, a.data, n, wt, w, t,
                                                  &dev, &host, a.count),
                     "cusolverDnXsyevBatched_bufferSize");
      Workspace ws(device_, dev, host);
      check_cusolver(api.syev_batched(s.handle, s.params, jobz, fill(lower), n, t, a.data, n, wt, w, t, ws.device(),
                                      ws.device_bytes(), ws.host(), ws.host_bytes(), info, a.count),
                     "cusolverDnXsyevBatched");
      note("linalg syevBatched (cuSOLVER)");
      return;
    }
    check_cusolver(api.syevd_buffer_size(s.handle, s.params, jobz, fill(lower), n, t, a.data, n, wt, w, t, &dev, &host),
                   "cusolverDnXsyevd_bufferSize");
    Workspace ws(device_, dev, host);
    for (std::int64_t b = 0; b < a.count; ++b)
      check_cusolver(api.syevd(s.handle, s.params, jobz, fill(lower), n, t, a.matrix(b), n, wt,
                               static_cast<char*>(w) + b * wstride, t, ws.device(), ws.device_bytes(), ws.host(),
                               ws.host_bytes(), info + b),
                     "cusolverDnXsyevd");
    note("linalg syevd (cuSOLVER)");
  }

  void gesvd(char job, const MatrixStack& a, void* s_out, void* u, void* vt, int* info) override {
    const Cusolver& api = cusolver();
    const CusolverSession s = cusolver_session(device_);
    const cudaDataType t = data_type(a.dtype), st = data_type(real_dtype(a.dtype));
    const std::int64_t m = a.rows, n = a.cols, w = itemsize(a.dtype);
    const bool uv = job != 'N';
    const std::int64_t ucols = job == 'A' ? m : n;
    const signed char jobu = static_cast<signed char>(job), jobvt = static_cast<signed char>(job);
    std::size_t dev = 0, host = 0;
    check_cusolver(api.gesvd_buffer_size(s.handle, s.params, jobu, jobvt, m, n, t, a.data, m, st, s_out, t,
                                         uv ? u : nullptr, m, t, uv ? vt : nullptr, n, t, &dev, &host),
                   "cusolverDnXgesvd_bufferSize");
    Workspace ws(device_, dev, host);
    for (std::int64_t b = 0; b < a.count; ++b) {
      void* sp = static_cast<char*>(s_out) + b * n * itemsize(real_dtype(a.dtype));
      void* up = uv ? static_cast<char*>(u) + b * m * ucols * w : nullptr;
      void* vp = uv ? static_cast<char*>(vt) + b * n * n * w : nullptr;
      check_cusolver(api.gesvd(s.handle, s.params, jobu, jobvt, m, n, t, a.matrix(b), m, st, sp, t, up, m, t, vp, n, t,
                               ws.device(), ws.device_bytes(), ws.host(), ws.host_bytes(), info + b),
                     "cusolverDnXgesvd");
    }
    note("linalg gesvd (cuSOLVER)");
  }

  void geqrf(const MatrixStack& a, void* tau, int* info) override {
    const Cusolver& api = cusolver();
    const CusolverSession s = cusolver_session(device_);
    const cudaDataType t = data_type(a.dtype);
    const std::int64_t m = a.rows, n = a.cols, k = std::min(m, n);
    std::size_t dev = 0, host = 0;
    check_cusolver(api.geqrf_buffer_size(s.handle, s.params, m, n, t, a.data, m, t, tau, t, &dev, &host),
                   "cusolverDnXgeqrf_bufferSize");
    Workspace ws(device_, dev, host);
    for (std::int64_t b = 0; b < a.count; ++b)
      check_cusolver(api.geqrf(s.handle, s.params, m, n, t, a.matrix(b), m, t,
                               static_cast<char*>(tau) + b * k * itemsize(a.dtype), t, ws.device(), ws.device_bytes(),
                               ws.host(), ws.host_bytes(), info + b),
                     "cusolverDnXgeqrf");
    note("linalg geqrf (cuSOLVER)");
  }

  void orgqr(const MatrixStack& q, std::int64_t k, const void* tau, int* info) override {
    const Cusolver& api = cusolver();
    const CusolverSession s = cusolver_session(device_);
    const int p = precision_index(q.dtype);
    const int m = int32_size(q.rows, "qr"), n = int32_size(q.cols, "qr"), kk = int32_size(k, "qr");
    int lwork = 0;
    check_cusolver(api.orgqr_buffer_size[p](s.handle, m, n, kk, q.data, m, tau, &lwork), "cusolverDnXorgqr_bufferSize");
    lwork = std::max(lwork, 1);
    Workspace ws(device_, static_cast<std::size_t>(lwork) * itemsize(q.dtype), 0);
    for (std::int64_t b = 0; b < q.count; ++b)
      check_cusolver(api.orgqr[p](s.handle, m, n, kk, q.matrix(b), m,
                                  static_cast<const char*>(tau) + b * k * itemsize(q.dtype), ws.device(), lwork,
                                  info + b),
                     "cusolverDn?orgqr");
    note("linalg orgqr (cuSOLVER)");
  }

  // cusolverDnXgeev (CUDA 12.6+): right eigenvectors only, complex W for every precision.
  void geev(bool vectors, const MatrixStack& a, void* w, void* vr, int* info) override {
    const Cusolver& api = cusolver();
    if (!api.geev || !api.geev_buffer_size)
      throw NotImplementedError("linalg.eig/eigvals on the GPU need cusolverDnXgeev (cuSOLVER from CUDA 12.6 on); " +
                                api.path + " lacks it");
    const CusolverSession s = cusolver_session(device_);
    const cudaDataType t = data_type(a.dtype), wt = data_type(complex_dtype(a.dtype));
    const cusolverEigMode_t jobvr = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
    const std::int64_t n = a.rows, es = itemsize(a.dtype), ws_stride = n * itemsize(complex_dtype(a.dtype));
    const std::int64_t ldvr = vectors ? n : 1;
    std::size_t dev = 0, host = 0;
    check_cusolver(api.geev_buffer_size(s.handle, s.params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, t, a.data, n, wt, w,
                                        t, nullptr, 1, t, vectors ? vr : nullptr, ldvr, t, &dev, &host),
                   "cusolverDnXgeev_bufferSize");
    Workspace ws(device_, dev, host);
    for (std::int64_t b = 0; b < a.count; ++b)
      check_cusolver(api.geev(s.handle, s.params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, t, a.matrix(b), n, wt,
                              static_cast<char*>(w) + b * ws_stride, t, nullptr, 1, t,
                              vectors ? static_cast<char*>(vr) + b * n * n * es : nullptr, ldvr, t, ws.device(),
                              ws.device_bytes(), ws.host(), ws.host_bytes(), info + b),
                     "cusolverDnXgeev");
    note("linalg geev (cuSOLVER)");
  }

 private:
  // Names the work for an asynchronous failure reported at the next synchronization.
  void note(const char* op) { current_stream_state(device_).last_op.store(op, std::memory_order_relaxed); }
  int device_;
};

}  // namespace

DenseSolver* CudaBackend::dense_solver() {
  static auto* solvers = new PerDevice<CusolverSolver>();  // leaked, like the backends
  return &solvers->get(index_, [&] { return std::make_unique<CusolverSolver>(index_); });
}

}  // namespace copper::backend::cuda
