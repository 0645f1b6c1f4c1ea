// Random numbers with per-element (broadcast) parameters on the CPU: the same
// ops/philox_samplers.h code as the CUDA kernels, split over threads by counter block
// (block kinds) or by element (stream kinds), so results never depend on the thread count.
#include <algorithm>
#include <cstring>
#include <span>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/thread_pool.h"
#include "ops/dtype_traits.h"
#include "ops/philox_samplers.h"

namespace copper::backend::cpu {

namespace {

namespace philox = ops::philox;

// Byte offsets of the parameters (up to three) for consecutive elements in C order,
// advanced like an odometer (no division per element).
class ParamCursor {
 public:
  static constexpr int kMax = 3;
  ParamCursor(std::span<const ArrayView> views, std::int64_t start)
      : shape_(views[0].shape), count_(static_cast<int>(views.size())), index_(shape_.size(), 0) {
    for (int k = 0; k < count_; ++k) strides_[k] = &views[k].strides;
    for (std::size_t d = shape_.size(); d-- > 0;) {
      index_[d] = start % shape_[d];
      start /= shape_[d];
      for (int k = 0; k < count_; ++k) off_[k] += index_[d] * (*strides_[k])[d];
    }
  }
  std::int64_t operator[](int k) const { return off_[k]; }
  std::int64_t a() const { return off_[0]; }
  std::int64_t b() const { return off_[1]; }
  void next() {
    for (std::size_t d = shape_.size(); d-- > 0;) {
      for (int k = 0; k < count_; ++k) off_[k] += (*strides_[k])[d];
      if (++index_[d] < shape_[d]) return;
      for (int k = 0; k < count_; ++k) off_[k] -= (*strides_[k])[d] * shape_[d];
      index_[d] = 0;
    }
  }

 private:
  const Shape& shape_;
  int count_;
  const Strides* strides_[kMax] = {};
  std::vector<std::int64_t> index_;
  std::int64_t off_[kMax] = {};
};

template <class V> V read(const ArrayView& v, std::int64_t offset) {
  V x;
  std::memcpy(&x, static_cast<const char*>(v.data) + offset, sizeof(V));
  return x;
}

template <class T>
void fill_blocks(philox::Kind kind, const philox::RandomParams& p, std::span<const ArrayView> params, T* out,
                 std::int64_t n) {
  const ArrayView &pa = params[0], &pb = params[1];
  const int per = philox::elements_per_group(kind, sizeof(T), p.range);
  const std::int64_t nblocks = (n + per - 1) / per;
  parallel_for(nblocks, 2048, [&](std::int64_t begin, std::int64_t end) {
    ParamCursor cursor(params, begin * per);
    double a[philox::kMaxGroupElements], b[philox::kMaxGroupElements];
    std::uint64_t lo[philox::kMaxGroupElements], hi[philox::kMaxGroupElements];
    for (std::int64_t blk = begin; blk < end; ++blk) {
      const std::int64_t first = blk * per;
      const int count = static_cast<int>(std::min<std::int64_t>(per, n - first));
      for (int k = 0; k < count; ++k, cursor.next()) {
        if constexpr (ops::is_float_v<T>) {
          a[k] = read<double>(pa, cursor.a());
          b[k] = read<double>(pb, cursor.b());
        } else {
          lo[k] = read<std::uint64_t>(pa, cursor.a());
          hi[k] = read<std::uint64_t>(pb, cursor.b());
        }
      }
      philox::generate_group_with<T>(kind, p, static_cast<std::uint64_t>(blk), out + first, count, a, b, lo, hi);
    }
  });
}

template <class T>
void fill_streams(philox::Kind kind, const philox::RandomParams& p, std::span<const ArrayView> params, T* out,
                  std::int64_t n) {
  const int count = static_cast<int>(params.size());
  parallel_for(n, 256, [&](std::int64_t begin, std::int64_t end) {
    ParamCursor cursor(params, begin);
    double x[ParamCursor::kMax] = {};
    std::int64_t ints[ParamCursor::kMax] = {};
    for (std::int64_t i = begin; i < end; ++i, cursor.next()) {
      for (int k = 0; k < count; ++k) {
        if (philox::param_is_int(kind, k)) ints[k] = read<std::int64_t>(params[k], cursor[k]);
        else x[k] = read<double>(params[k], cursor[k]);
      }
      out[i] = philox::sample_element<T>(kind, p, static_cast<std::uint32_t>(i), x, ints);
    }
  });
}

}  // namespace

void CpuBackend::random_params(ops::philox::Kind kind, const ops::philox::RandomParams& p,
                               std::span<const ArrayView> params, const ArrayView& out) {
  const std::int64_t n = shape_size(out.shape);
  if (n == 0) return;
  const bool stream = philox::is_stream_kind(kind);
  if (stream ? params.empty() || params.size() > 3 : params.size() != 2)
    throw RuntimeError("random_params: wrong number of parameter views");
  ops::visit_dtype(out.dtype, [&]<class T>() {
    if constexpr (ops::is_float_v<T> || ops::is_int_v<T> || ops::is_same_v<T, bool>) {
      if (!stream && ops::is_float_v<T> && sizeof(T) != 8) throw TypeError("random_params: block kinds write float64");
      if (stream) fill_streams<T>(kind, p, params, static_cast<T*>(out.data), n);
      else fill_blocks<T>(kind, p, params, static_cast<T*>(out.data), n);
    } else {
      throw TypeError("random: unsupported output dtype " + std::string(name(out.dtype)));
    }
  });
}

}  // namespace copper::backend::cpu
