// Host memory for the CPU backend: allocation, casting copies, fills.
#include <cstdlib>
#include <cstring>
#include <new>

#include <sys/mman.h>
#include <unistd.h>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/cpu_cast.h"
#include "backend/cpu/element_load.h"
#include "backend/cpu/host_block_cache.h"
#include "backend/cpu/strided_loop.h"
#include "backend/registry.h"
#include "copper/fusion.hpp"
#include "copper/runtime.hpp"
#include "ops/casting.h"
#include "ops/dtype_traits.h"

namespace copper::backend::cpu {

std::shared_ptr<Buffer> CpuBackend::allocate(std::size_t nbytes) {
  // 64-byte alignment: whole cache lines and any vector width; never a null pointer for 0 bytes.
  // Large blocks are 2 MiB aligned and asked to use transparent huge pages: the first
  // touch of a new array then faults 512x fewer pages (NumPy does the same).
  // Blocks of 1 MiB and more come back from HostBlockCache when one of their size class was
  // freed (host_block_cache.h: glibc would hand the pages back to the kernel, and the next
  // array would fault them in again).
  constexpr std::size_t huge_page = std::size_t{1} << 21;
  const bool large = nbytes >= 4 * huge_page;
  const std::size_t align = large ? huge_page : 64;
  auto round_up = [align](std::size_t n) { return (n + align - 1) / align * align; };
  const std::size_t rounded = round_up(HostBlockCache::rounded_size(round_up(std::max<std::size_t>(nbytes, 1))));
  HostBlockCache& cache = HostBlockCache::instance();
  void* p = cache.take(rounded, align);
  if (!p) {
    p = std::aligned_alloc(align, rounded);
    if (!p && cache.cached_bytes() > 0) {
      cache.release_all();
      p = std::aligned_alloc(align, rounded);
    }
    if (!p) throw OutOfMemoryError("out of memory allocating " + std::to_string(nbytes) + " bytes on the CPU");
#ifdef MADV_HUGEPAGE
    if (large) madvise(p, rounded, MADV_HUGEPAGE);  // advisory: failure only costs speed
#endif
  }
  return std::make_shared<Buffer>(p, nbytes, copper::cpu,
                                  [rounded, align](void* q) { HostBlockCache::instance().give(q, rounded, align); });
}

// The machine's physical memory: the host allocator keeps no account of its own, and
// overcommit makes malloc's own failures come late, so this only catches results far
// larger than the machine.
std::size_t CpuBackend::memory_room() const {
  static const std::size_t total = [] {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) : ~std::size_t{0};
  }();
  return total;
}

namespace {

template <class To, class From>
void cast_run(std::array<char*, 2> p, std::array<std::int64_t, 2> s, std::int64_t n) {
  auto* d = p[0];
  const auto* src = p[1];
  if (s[0] == sizeof(To) && s[1] == sizeof(From)) {  // contiguous: the compiler vectorizes this
    To* dt = reinterpret_cast<To*>(d);
    const From* st = reinterpret_cast<const From*>(src);
    for (std::int64_t i = 0; i < n; ++i) dt[i] = ops::cast<To>(load_element<From>(st + i));
  } else {
    for (std::int64_t i = 0; i < n; ++i) {
      To r = ops::cast<To>(load_element<From>(src + i * s[1]));
      std::memcpy(d + i * s[0], &r, sizeof(To));
    }
  }
}

}  // namespace

CastRunFn cast_run_for(DType to, DType from) {
  CastRunFn fn = nullptr;
  ops::visit_dtype(to, [&]<class To>() { ops::visit_dtype(from, [&]<class From>() { fn = &cast_run<To, From>; }); });
  return fn;
}

void CpuBackend::copy(const ArrayView& src, const ArrayView& dst) {
  ops::visit_dtype(dst.dtype, [&]<class To>() {
    ops::visit_dtype(src.dtype, [&]<class From>() {
      if constexpr (ops::is_same_v<To, From>) {
        // Same type: plain byte moves (memcpy for contiguous runs).
        for_each_run<2>(dst.shape, {&dst.strides, &src.strides},
                        {static_cast<char*>(dst.data), static_cast<char*>(src.data)},
                        [](std::array<char*, 2> p, std::array<std::int64_t, 2> s, std::int64_t n) {
                          if (s[0] == sizeof(To) && s[1] == sizeof(To)) {
                            std::memmove(p[0], p[1], n * sizeof(To));
                          } else {
                            for (std::int64_t i = 0; i < n; ++i) std::memcpy(p[0] + i * s[0], p[1] + i * s[1], sizeof(To));
                          }
                        });
      } else {
        for_each_run<2>(dst.shape, {&dst.strides, &src.strides},
                        {static_cast<char*>(dst.data), static_cast<char*>(src.data)}, cast_run<To, From>);
      }
    });
  });
}

void CpuBackend::copy_from_host(const void* src, const ArrayView& dst) {
  ArrayView host{const_cast<void*>(src), dst.dtype, dst.shape, c_strides(dst.shape, itemsize(dst.dtype))};
  copy(host, dst);
}

void CpuBackend::copy_to_host(const ArrayView& src, void* dst) {
  ArrayView host{dst, src.dtype, src.shape, c_strides(src.shape, itemsize(src.dtype))};
  copy(src, host);
}

void CpuBackend::fill(const ArrayView& dst, const Scalar& value) {
  ops::visit_dtype(dst.dtype, [&]<class T>() {
    T v;
    value.store(dst.dtype, &v);
    for_each_run<1>(dst.shape, {&dst.strides}, {static_cast<char*>(dst.data)},
                    [v](std::array<char*, 1> p, std::array<std::int64_t, 1> s, std::int64_t n) {
                      if (s[0] == sizeof(T)) {
                        T* d = reinterpret_cast<T*>(p[0]);
                        for (std::int64_t i = 0; i < n; ++i) d[i] = v;
                      } else {
                        for (std::int64_t i = 0; i < n; ++i) std::memcpy(p[0] + i * s[0], &v, sizeof(T));
                      }
                    });
  });
}

// dst must be C-contiguous (the front end only calls iota on new arrays).
void CpuBackend::iota(const ArrayView& dst, const Scalar& start, const Scalar& step) {
  std::int64_t n = shape_size(dst.shape);
  ops::visit_dtype(dst.dtype, [&]<class T>() {
    T* d = static_cast<T*>(dst.data);
    parallel_for(n, parallel_grain, [&](std::int64_t b, std::int64_t e) {
      if constexpr (ops::is_int_v<T> || ops::is_same_v<T, bool>) {
        if (start.kind() != Kind::float_ && step.kind() != Kind::float_) {
          std::int64_t s0 = start.to_int64(), ds = step.to_int64();
          for (std::int64_t i = b; i < e; ++i) d[i] = ops::cast<T>(s0 + i * ds);
          return;
        }
      }
      if constexpr (ops::is_complex_v<T>) {
        auto s0 = start.to_complex(), ds = step.to_complex();
        for (std::int64_t i = b; i < e; ++i) {
          auto v = s0 + static_cast<double>(i) * ds;
          d[i] = ops::cast<T>(ops::complex<double>(v.real(), v.imag()));
        }
      } else {
        double s0 = start.to_double(), ds = step.to_double();
        for (std::int64_t i = b; i < e; ++i) d[i] = ops::cast<T>(s0 + static_cast<double>(i) * ds);
      }
    });
  });
}

}  // namespace copper::backend::cpu

namespace copper::backend {
Backend& cpu_backend() {
  static cpu::CpuBackend backend;
  return backend;
}
}  // namespace copper::backend

namespace copper {
void synchronize(Device device) {
  check_synchronize_allowed("synchronize");
  run_deferred();  // automatic fusion's pending work is part of what synchronize waits for
  backend::backend_for(device).synchronize();
}
}  // namespace copper
