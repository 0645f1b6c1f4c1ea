// The tiled transposing copy (cuda_transpose.cpp): every kernel source the family can
// generate compiles under NVRTC for sm_90 (plain copies by element size and alignment,
// casts for every ordered pair of dtypes), and plan_transpose_copy accepts exactly the
// layouts it should (host logic only: no GPU, the views' data pointers are never read).
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "backend/cuda/cuda_transpose.h"
#include "compile_tally.h"

using namespace copper;
using backend::ArrayView;
using backend::cuda::plan_transpose_copy;
using backend::cuda::TransposePlan;

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
  if (!ok) {
    ++failures;
    std::printf("FAILED %s\n", what.c_str());
  }
}

void* fake_address(std::uintptr_t a) { return reinterpret_cast<void*>(a); }

// A C-order view of `shape` in bytes of `t`.
Strides c_strides(const Shape& shape, DType t) {
  Strides s(shape.size());
  std::int64_t step = itemsize(t);
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    s[d] = step;
    step *= shape[d];
  }
  return s;
}

ArrayView view(std::uintptr_t address, DType t, Shape shape, Strides strides) {
  return ArrayView{fake_address(address), t, std::move(shape), std::move(strides), false};
}
ArrayView c_view(std::uintptr_t address, DType t, const Shape& shape) {
  return view(address, t, shape, c_strides(shape, t));
}

void check_plans() {
  const std::uintptr_t base = 0x10000;  // 256-byte aligned, as device allocations are
  // a.T for a C-order (100, 60) float64: rows 60 (src unit-stride), cols 100, ld 60.
  {
    auto src = view(base, float64, {60, 100}, {8, 60 * 8});
    auto p = plan_transpose_copy(src, c_view(base * 2, float64, {60, 100}));
    expect(p && p->batch == 1 && p->rows == 60 && p->cols == 100 && p->src_col == 480 && p->dst_row == 800 &&
               p->align == 8,
           "2-d transpose plan");
  }
  // a[:, :50].T from a (60, 70) int32 array: padded, ld 70.
  {
    auto src = view(base, int32, {50, 60}, {4, 70 * 4});
    auto p = plan_transpose_copy(src, c_view(base * 2, int32, {50, 60}));
    expect(p && p->rows == 50 && p->cols == 60 && p->src_col == 280 && p->align == 4, "padded transpose plan");
  }
  // swapaxes(-1, -2) of a C-order (3, 40, 50) complex128: batch 3.
  {
    auto src = view(base, complex128, {3, 50, 40}, {2000 * 16, 16, 50 * 16});
    auto p = plan_transpose_copy(src, c_view(base * 2, complex128, {3, 50, 40}));
    expect(p && p->batch == 3 && p->rows == 50 && p->cols == 40 && p->src_batch == 32000 &&
               p->dst_batch == 2000 * 16 && p->dst_row == 40 * 16 && p->src_col == 800 && p->align == 16,
           "batched transpose plan");
  }
  // transpose(2, 1, 0) of a C-order (10, 20, 30) float32: src shape (30, 20, 10), unit-stride on axis 0.
  {
    auto src = view(base, float32, {30, 20, 10}, {4, 30 * 4, 600 * 4});
    auto p = plan_transpose_copy(src, c_view(base * 2, float32, {30, 20, 10}));
    expect(p && p->batch == 20 && p->rows == 30 && p->cols == 10 && p->src_batch == 120 && p->dst_batch == 40 &&
               p->dst_row == 800 && p->src_col == 2400,
           "outer-axis transpose plan");
  }
  // A cast float32 -> float64 of a transposed view.
  {
    auto src = view(base, float32, {40, 30}, {4, 40 * 4});
    auto p = plan_transpose_copy(src, c_view(base * 2, float64, {40, 30}));
    expect(p && p->rows == 40 && p->cols == 30 && p->src_col == 160 && p->dst_row == 240, "casting plan");
  }
  // complex128 at an 8-byte offset: moved as two 8-byte words.
  {
    auto src = view(base + 8, complex128, {20, 30}, {16, 20 * 16});
    auto p = plan_transpose_copy(src, c_view(base * 2, complex128, {20, 30}));
    expect(p && p->align == 8, "8-aligned complex128 plan");
  }
  // Size-1 dimensions are dropped: (1, 40, 30) transposed view.
  {
    auto src = view(base, float64, {1, 40, 30}, {8, 8, 40 * 8});
    auto p = plan_transpose_copy(src, c_view(base * 2, float64, {1, 40, 30}));
    expect(p && p->batch == 1 && p->rows == 40 && p->cols == 30, "size-1 dims dropped");
  }

  // Not transposes, or not this path's.
  auto none = [](const ArrayView& src, const ArrayView& dst, const char* what) {
    expect(!plan_transpose_copy(src, dst), std::string("no plan: ") + what);
  };
  none(c_view(base, float64, {40, 30}), c_view(base * 2, float64, {40, 30}), "contiguous source");
  none(view(base, float64, {40, 30}, {480, 16}), c_view(base * 2, float64, {40, 30}), "strided, no unit axis");
  none(view(base + 39 * 8, float64, {40, 30}, {-8, 320}), c_view(base * 2, float64, {40, 30}), "negative stride");
  none(view(base, float64, {40, 30}, {8, 0}), c_view(base * 2, float64, {40, 30}), "broadcast source");
  none(view(base, float64, {40, 30}, {8, 320}), view(base * 2, float64, {40, 30}, {8, 320}), "F-order dst");
  none(view(base, float64, {4, 30}, {8, 32}), c_view(base * 2, float64, {4, 30}), "too few rows");
  none(view(base, float64, {30, 4}, {8, 240}), c_view(base * 2, float64, {30, 4}), "too few columns");
  none(view(base + 2, float32, {40, 30}, {4, 160}), c_view(base * 2, float64, {40, 30}), "misaligned cast source");
  none(view(base, float64, {2, 3, 40, 30}, {8 * 1200 * 3 * 7, 8 * 1200 * 2, 8, 320}),
       c_view(base * 2, float64, {2, 3, 40, 30}), "two batch dims");
  none(view(base, float64, {0, 30}, {8, 0}), c_view(base * 2, float64, {0, 30}), "empty");
  ArrayView scalar{fake_address(base), float64, {40, 30}, {0, 0}, true};
  none(scalar, c_view(base * 2, float64, {40, 30}), "host scalar");
}

}  // namespace

int main() {
  check_plans();
  testing::CompileTally tally;
  auto compile = [&](const std::string& what, DType from, DType to, int align) {
    tally.compile(what, [&] { return backend::cuda::transpose_source(from, to, align); });
  };
  const DType all[] = {bool_,   int8,    uint8,   int16,   uint16,    int32,     uint32,
                       int64,   uint64,  float16, float32, float64, complex64, complex128};
  // Plain copies: one source per (element size, word size); the dtype is only its size.
  for (DType t : {uint8, uint16, uint32, uint64, complex128})
    for (int align = 1; align <= itemsize(t); align *= 2)
      compile("copy " + std::to_string(itemsize(t)) + " bytes, align " + std::to_string(align), t, t, align);
  for (DType from : all)
    for (DType to : all)
      if (from != to) compile("cast " + std::string(name(from)) + " -> " + std::string(name(to)), from, to, 0);
  failures += tally.failures;
  std::printf("transpose: %d kernels compiled, %d failures\n", tally.compiled, failures);
  return failures ? 1 : 0;
}
