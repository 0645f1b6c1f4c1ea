// CpuBackend::elementwise (dispatch through the loop table) and CpuBackend::where.
#include <cstring>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/cpu_elementwise_cast.h"
#include "backend/cpu/cpu_elementwise_loops.h"
#include "api/fp_errors_internal.h"
#include "copper/errstate.hpp"

namespace copper::backend::cpu {

namespace {

const LoopTable& loop_table() {
  static const LoopTable table = [] {
    LoopTable t;
    add_arithmetic_loops(t);
    add_exp_log_loops(t);
    add_trig_loops(t);
    add_rounding_loops(t);
    add_comparison_loops(t);
    add_bitwise_loops(t);
    add_float_loops(t);
    return t;
  }();
  return table;
}

// where() only moves bytes, so one kernel per item size serves every dtype.
template <int Size> struct bytes { unsigned char b[Size]; };

template <class T>
void where_runs(const ArrayView& cond, const ArrayView& x, const ArrayView& y, const ArrayView& out) {
  for_each_run<4>(
      out.shape, {&out.strides, &cond.strides, &x.strides, &y.strides},
      {static_cast<char*>(out.data), static_cast<char*>(cond.data), static_cast<char*>(x.data),
       static_cast<char*>(y.data)},
      [](std::array<char*, 4> p, std::array<std::int64_t, 4> s, std::int64_t n) {
        constexpr std::int64_t ts = sizeof(T);
        if (s[0] == ts && s[1] == 1 && s[2] == ts && s[3] == ts) {
          T* o = reinterpret_cast<T*>(p[0]);
          const unsigned char* c = reinterpret_cast<const unsigned char*>(p[1]);  // any nonzero byte is true
          const T* a = reinterpret_cast<const T*>(p[2]);
          const T* b = reinterpret_cast<const T*>(p[3]);
          for (std::int64_t i = 0; i < n; ++i) o[i] = c[i] != 0 ? a[i] : b[i];
        } else {
          for (std::int64_t i = 0; i < n; ++i) {
            const char* src = load_element<bool>(p[1] + i * s[1]) ? p[2] + i * s[2] : p[3] + i * s[3];
            std::memcpy(p[0] + i * s[0], src, sizeof(T));
          }
        }
      });
}

}  // namespace

thread_local FpWatch* fp_watch = nullptr;

LoopFn elementwise_loop(ops::UfuncId op, DType loop) {
  return loop_table().fn[static_cast<int>(op)][static_cast<int>(loop)];
}

void CpuBackend::elementwise(ops::UfuncId op, DType loop, std::span<const ArrayView> in, const ArrayView& out) {
  elementwise_multi(op, loop, in, std::span<const ArrayView>(&out, 1));
}

void CpuBackend::elementwise_multi(ops::UfuncId op, DType loop, std::span<const ArrayView> in,
                                   std::span<const ArrayView> out) {
  LoopFn fn = elementwise_loop(op, loop);
  if (!fn) {
    throw NotImplementedError("no CPU loop for ufunc '" + std::string(ops::info(op).name) + "' over " +
                              std::string(name(loop)));
  }
  // Inputs of another dtype than the loop's are converted block by block (casts_inputs).
  std::array<DType, 3> want{};
  bool converting = false;
  for (std::size_t k = 0; k < in.size(); ++k) {
    want[k] = ops::input_dtype(op, loop, static_cast<int>(k));
    converting = converting || in[k].dtype != want[k];
  }
  auto run = [&] {
    if (converting) elementwise_casting(fn, in, std::span<const DType>(want.data(), in.size()), out);
    else fn(in, out);
  };
  // errstate: the loops flag what the calling thread watches; reported as the op returns.
  const unsigned mask = fp_watch_mask();
  if (mask == 0) return run();
  FpWatch watch;
  struct Scope {
    explicit Scope(FpWatch* w) { fp_watch = w; }
    ~Scope() { fp_watch = nullptr; }
  } scope(&watch);
  run();
  fp_watch = nullptr;
  if (const unsigned bits = watch.found.load() & mask)
    report_fp_errors(bits, copper::detail::fp_op_name(op));
}

void CpuBackend::fold(ops::UfuncId op, DType loop, const ArrayView& in, const ArrayView& out, const FoldOptions& o) {
  FoldFn fn = loop_table().fold[static_cast<int>(op)][static_cast<int>(loop)];
  if (!fn) {
    throw NotImplementedError("no CPU fold for ufunc '" + std::string(ops::info(op).name) + "' over " +
                              std::string(name(loop)));
  }
  if (shape_size(out.shape) > 0) fn(in, out, o);
}

void CpuBackend::where(const ArrayView& cond, const ArrayView& x, const ArrayView& y, const ArrayView& out) {
  switch (itemsize(out.dtype)) {
    case 1: return where_runs<std::uint8_t>(cond, x, y, out);
    case 2: return where_runs<std::uint16_t>(cond, x, y, out);
    case 4: return where_runs<std::uint32_t>(cond, x, y, out);
    case 8: return where_runs<std::uint64_t>(cond, x, y, out);
    default: return where_runs<bytes<16>>(cond, x, y, out);
  }
}

}  // namespace copper::backend::cpu
