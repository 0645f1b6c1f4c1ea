// CpuBackend::scan: inclusive cumsum / cumprod along one axis. Along an inner axis
// each line is a sequential loop (lines in parallel); along an outer axis a buffer
// of running values advances one whole row at a time, so memory is read in order.
// The running value is rounded to the output dtype at each step, as NumPy's
// accumulate reads back its own output (this matters for float16).
#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/cpu_reduce_families.h"
#include "backend/cpu/cpu_reduce_kernels.h"
#include "backend/cpu/cpu_reduce_reducers.h"

namespace copper::backend::cpu {
namespace {

using std::int64_t;
using reduce_kernels::Cursor;
using reduce_kernels::load_at;
using reduce_kernels::row_block;

template <class R, class In, class Out>
void scan_typed(const ArrayView& in, int axis, const ArrayView& out) {
  using Acc = typename R::Acc;
  const int64_t n = in.shape[axis], sa = in.strides[axis], oa = out.strides[axis];
  Shape kshape;
  Strides kin, kout;
  for (int d = 0; d < static_cast<int>(in.shape.size()); ++d) {
    if (d == axis) continue;
    kshape.push_back(in.shape[d]);
    kin.push_back(in.strides[d]);
    kout.push_back(out.strides[d]);
  }
  const int64_t nlines = shape_size(kshape);
  if (n == 0 || nlines == 0) return;
  Layout<2> K = collapse<2>(kshape, {&kin, &kout});
  const char* ibase = static_cast<const char*>(in.data);
  char* obase = static_cast<char*>(out.data);
  auto step = [](Acc acc, In x) { return ops::cast<Acc>(ops::cast<Out>(R::combine(acc, R::load(x)))); };

  if (!K.shape.empty() && std::abs(K.strides.back()[0]) < std::abs(sa) && K.shape.back() >= 8) {
    const int64_t m = K.shape.back(), cs = K.strides.back()[0], os = K.strides.back()[1];
    Shape kouter(K.shape.begin(), K.shape.end() - 1);
    std::vector<std::array<int64_t, 2>> kouter_st(K.strides.begin(), K.strides.end() - 1);
    const int64_t nblocks = (m + row_block - 1) / row_block, items = shape_size(kouter) * nblocks;
    parallel_for(items, std::max<int64_t>(1, parallel_grain * items / (nlines * n)), [&](int64_t begin, int64_t end) {
      auto acc = reduce_kernels::make_buffer<Acc>(row_block);
      Cursor<2> c(kouter, kouter_st);
      for (int64_t t = begin; t < end; ++t) {
        c.seek(t / nblocks);
        int64_t c0 = (t % nblocks) * row_block, w = std::min(row_block, m - c0);
        const char* ip = ibase + c.off[0] + c0 * cs;
        char* op = obase + c.off[1] + c0 * os;
        for (int64_t j = 0; j < w; ++j) {
          acc[j] = ops::cast<Acc>(ops::cast<Out>(R::load(load_at<In>(ip + j * cs))));
          *reinterpret_cast<Out*>(op + j * os) = ops::cast<Out>(acc[j]);
        }
        for (int64_t r = 1; r < n; ++r) {
          const char* irow = ip + r * sa;
          char* orow = op + r * oa;
          for (int64_t j = 0; j < w; ++j) {
            acc[j] = step(acc[j], load_at<In>(irow + j * cs));
            *reinterpret_cast<Out*>(orow + j * os) = ops::cast<Out>(acc[j]);
          }
        }
      }
    });
    return;
  }
  parallel_for(nlines, std::max<int64_t>(1, parallel_grain / n), [&](int64_t begin, int64_t end) {
    Cursor<2> c(K.shape, K.strides);
    c.seek(begin);
    for (int64_t l = begin; l < end; ++l, c.next()) {
      const char* ip = ibase + c.off[0];
      char* op = obase + c.off[1];
      Acc acc = ops::cast<Acc>(ops::cast<Out>(R::load(load_at<In>(ip))));
      *reinterpret_cast<Out*>(op) = ops::cast<Out>(acc);
      for (int64_t i = 1; i < n; ++i) {
        acc = step(acc, load_at<In>(ip + i * sa));
        *reinterpret_cast<Out*>(op + i * oa) = ops::cast<Out>(acc);
      }
    }
  });
}

bool scan_native(ops::ScanOp op, const ArrayView& in, int axis, const ArrayView& out) {
  return ops::visit_dtype(out.dtype, [&]<class Out>() {
    return ops::visit_dtype(in.dtype, [&]<class In>() {
      if constexpr (is_native_accumulation<In, Out>()) {
        if (op == ops::ScanOp::cumsum) scan_typed<reducers::Sum<In, Out>, In, Out>(in, axis, out);
        else scan_typed<reducers::Prod<In, Out>, In, Out>(in, axis, out);
        return true;
      } else {
        return false;
      }
    });
  });
}

}  // namespace

void CpuBackend::scan(ops::ScanOp op, const ArrayView& in, int axis, const ArrayView& out) {
  if (axis < 0 || axis >= static_cast<int>(in.shape.size()) || in.shape != out.shape)
    throw RuntimeError("CpuBackend::scan: bad axis or mismatched shapes");
  if (scan_native(op, in, axis, out)) return;
  // No loop converts this pair while loading: cast the input into a temporary first.
  auto buffer = allocate(static_cast<std::size_t>(shape_size(in.shape) * itemsize(out.dtype)));
  ArrayView cast{buffer->data(), out.dtype, in.shape, c_strides(in.shape, itemsize(out.dtype))};
  copy(in, cast);
  scan_native(op, cast, axis, out);
}

}  // namespace copper::backend::cpu
