// Random numbers on the CPU: each task fills whole groups of counter blocks, so the output
// depends only on the counter stream, never on the number of threads.
#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/thread_pool.h"
#include "ops/dtype_traits.h"
#include "ops/philox.h"

namespace copper::backend::cpu {

namespace {

template <class T>
void fill_random(ops::philox::Kind kind, const ops::philox::RandomParams& p, T* out, std::int64_t n) {
  const int per = ops::philox::elements_per_group(kind, sizeof(T), p.range);
  const std::int64_t ngroups = (n + per - 1) / per;
  parallel_for(ngroups, 4096, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t g = begin; g < end; ++g) {
      const std::int64_t first = g * per;
      const int count = static_cast<int>(std::min<std::int64_t>(per, n - first));
      ops::philox::generate_group<T>(kind, p, static_cast<std::uint64_t>(g), out + first, count);
    }
  });
}

}  // namespace

void CpuBackend::random(ops::philox::Kind kind, const ops::philox::RandomParams& p, const ArrayView& out) {
  const std::int64_t n = shape_size(out.shape);
  if (n == 0) return;
  ops::visit_dtype(out.dtype, [&]<class T>() {
    if constexpr (ops::is_float_v<T> || ops::is_int_v<T> || ops::is_same_v<T, bool>) {
      fill_random<T>(kind, p, static_cast<T*>(out.data), n);
    } else {
      throw TypeError("random: unsupported output dtype " + std::string(name(out.dtype)));
    }
  });
}

}  // namespace copper::backend::cpu
