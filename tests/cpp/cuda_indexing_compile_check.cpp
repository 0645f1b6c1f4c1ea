// The indexing kernels (cuda_indexing_*.cpp: gather, scatter, ufunc.at, compaction)
// compile under NVRTC for sm_90 in every shape the planner can produce, and the planner
// collapses and widens as it should (host logic only: no GPU, data is never read).
#include <cstdint>
#include <cstdio>
#include <string>

#include "backend/cuda/cuda_indexing.h"
#include "compile_tally.h"

using namespace copper;
using backend::ArrayView;
using backend::IndexArrays;
using namespace backend::cuda;

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
  if (!ok) {
    ++failures;
    std::printf("FAILED %s\n", what.c_str());
  }
}

ArrayView view(std::uintptr_t address, DType t, Shape shape, Strides strides) {
  return ArrayView{reinterpret_cast<void*>(address), t, std::move(shape), std::move(strides), false};
}
ArrayView c_view(std::uintptr_t address, DType t, const Shape& shape) {
  return view(address, t, shape, c_strides(shape, itemsize(t)));
}

IndexArrays one_index(const ArrayView& idx, IndexMode mode = IndexMode::raise) { return IndexArrays{{idx}, {0}, mode}; }

void check_plans() {
  const std::uintptr_t base = 0x10000;
  // x[idx] on a flat float32 array: one dimension everywhere, unit 4.
  {
    auto src = c_view(base, float32, {1000});
    auto idx = c_view(base * 2, int64, {500});
    auto out = c_view(base * 3, float32, {500});
    IndexPlan p = plan_index(src, one_index(idx), out, true);
    expect(p.k == 1 && p.nb == 500 && p.nr == 1 && p.unit == 4 && p.b.shape.size() == 1 && p.index32, "flat gather plan");
  }
  // Rows of 3 float32 (12 bytes): widened to 4-byte units only (12 % 8 != 0).
  {
    auto src = c_view(base, float32, {100, 3});
    auto idx = c_view(base * 2, int32, {7});
    auto out = c_view(base * 3, float32, {7, 3});
    IndexPlan p = plan_index(src, one_index(idx), out, true);
    expect(p.nr == 3 && p.unit == 4, "rows of 12 bytes stay in 4-byte units");
  }
  // Rows of 4 float64 (32 bytes), aligned: 16-byte units, two per row.
  {
    auto src = c_view(base, float64, {100, 4});
    auto idx = c_view(base * 2, int64, {7});
    auto out = c_view(base * 3, float64, {7, 4});
    IndexPlan p = plan_index(src, one_index(idx), out, true);
    expect(p.nr == 2 && p.unit == 16 && p.align16, "rows of 32 bytes move in 16-byte units");
    IndexPlan q = plan_index(src, one_index(idx), out, false);
    expect(q.nr == 4 && q.unit == 8, "no widening for ufunc.at");
  }
  // Two index arrays broadcast (one with a zero stride) over a transposed source.
  {
    auto src = view(base, int16, {5, 6, 7}, {2, 10, 60});
    auto i0 = view(base * 2, int64, {4, 3}, {8, 0});
    auto i1 = view(base * 3, int32, {4, 3}, {0, 4});
    auto out = c_view(base * 4, int16, {4, 3, 7});
    IndexArrays ia{{i0, i1}, {0, 1}, IndexMode::raise};
    IndexPlan p = plan_index(src, ia, out, true);
    expect(p.k == 2 && p.nb == 12 && p.nr == 7 && p.unit == 2 && p.b.shape.size() == 2, "broadcast index arrays");
  }
}

void check_sources(testing::CompileTally& tally) {
  const std::uintptr_t base = 0x10000;
  struct Case {
    const char* name;
    ArrayView src, out;
    IndexArrays index;
  };
  std::vector<Case> cases;
  for (DType t : {bool_, int8, float16, float32, float64, complex128}) {
    cases.push_back({"flat", c_view(base, t, {1000}), c_view(base * 3, t, {500}), one_index(c_view(base * 2, int64, {500}))});
  }
  cases.push_back({"rows", c_view(base, float64, {100, 4}), c_view(base * 3, float64, {7, 4}),
                   one_index(c_view(base * 2, int32, {7}))});
  cases.push_back({"strided rows", view(base, float32, {100, 5}, {4, 400}), c_view(base * 3, float32, {7, 5}),
                   one_index(c_view(base * 2, int64, {7}))});
  cases.push_back({"two arrays", view(base, int16, {5, 6, 7}, {2, 10, 60}), c_view(base * 4, int16, {4, 3, 7}),
                   IndexArrays{{view(base * 2, int64, {4, 3}, {8, 0}), view(base * 3, int32, {4, 3}, {0, 4})},
                               {0, 1},
                               IndexMode::raise}});
  for (const Case& c : cases) {
    for (int mode : {0, 1, 2}) {
      IndexPlan p = plan_index(c.src, c.index, c.out, true);
      tally.compile(std::string("gather ") + c.name + " mode " + std::to_string(mode), [&] { return gather_source(p, mode); });
      if (p.k == 1 && p.nr == 1 && p.b.shape.size() == 1)
        tally.compile(std::string("flat gather ") + c.name + " mode " + std::to_string(mode),
                      [&] { return flat_gather_source(p, mode); });
      if (mode != 0) continue;
      for (bool winner : {false, true}) {
        for (bool wide : {false, true}) {
          if (!winner && wide) continue;
          tally.compile(std::string("scatter check ") + c.name, [&] { return scatter_check_source(p, 0, winner, wide); });
          tally.compile(std::string("scatter ") + c.name, [&] { return scatter_source(p, 0, winner, wide, true); });
        }
      }
      if (p.nr == 1 && p.unit <= 4) {  // packed last writers (small elements)
        tally.compile(std::string("packed scatter check ") + c.name,
                      [&] { return scatter_check_source(p, 0, true, false, true); });
        tally.compile(std::string("scatter flush ") + c.name, [&] { return scatter_flush_source(p, true); });
        tally.compile(std::string("scatter flush unchecked ") + c.name, [&] { return scatter_flush_source(p, false); });
      }
    }
  }
  IndexPlan p64 = plan_index(view(base, float64, {5000000000LL}, {8}), one_index(c_view(base * 2, int64, {5000000000LL})),
                             c_view(base * 3, float64, {5000000000LL}), true);
  expect(!p64.index32, "64-bit loop indices past 2^32 positions");
  tally.compile("gather with 64-bit loop indices", [&] { return gather_source(p64, 0); });
  tally.compile("flat gather with 64-bit loop indices", [&] { return flat_gather_source(p64, 0); });
  tally.compile("scatter with 64-bit positions", [&] { return scatter_source(p64, 1, true, true, false); });

  // ufunc.at: every binary op over float32 and int32 (compare-and-swap loops), add
  // over every dtype (atomicAdd, complex parts), 1- and 2-byte targets, casts, unary ops.
  auto at = [&](ops::UfuncId op, DType t, DType loop, bool binary) {
    if (!ops::out_dtype(op, loop)) return;
    ArrayView dst = c_view(base, t, {100, 3});
    ArrayView vals = c_view(base * 3, loop, {7, 3});
    IndexPlan p = plan_index(dst, one_index(c_view(base * 2, int64, {7})), vals, false);
    const std::string what = std::string(ops::info(op).name) + " " + std::string(name(t));
    if (itemsize(t) <= 8 || op == ops::UfuncId::add || op == ops::UfuncId::subtract)
      tally.compile("ufunc.at " + what, [&] { return scatter_apply_source(p, 0, op, t, loop, binary, true); });
    tally.compile("ufunc.at in order " + what, [&] { return at_ordered_source(p, 0, op, t, loop, binary, true); });
  };
  tally.compile("ufunc.at targets", [&] {
    return at_keys_source(plan_index(c_view(base, float32, {100, 3}), one_index(c_view(base * 2, int64, {7})),
                                     c_view(base * 3, float32, {7, 3}), false),
                          0);
  });
  for (int i = 0; i < ops::num_ufuncs; ++i) {
    const auto op = static_cast<ops::UfuncId>(i);
    if (ops::info(op).nin != 2 || ops::info(op).nout != 1) continue;  // ufunc.at takes single-output ops
    at(op, float32, float32, true);
    at(op, int32, int32, true);
  }
  for (DType t : {bool_, int8, uint8, int16, uint16, int32, uint32, int64, uint64, float16, float32, float64, complex64,
                  complex128})
    at(ops::UfuncId::add, t, t, true);
  at(ops::UfuncId::subtract, complex64, complex64, true);
  at(ops::UfuncId::maximum, float16, float16, true);
  at(ops::UfuncId::logical_or, bool_, bool_, true);
  at(ops::UfuncId::multiply, uint16, uint16, true);
  at(ops::UfuncId::add, float32, float64, true);
  at(ops::UfuncId::multiply, complex128, complex128, true);
  at(ops::UfuncId::negative, int64, int64, false);
  at(ops::UfuncId::sqrt, float16, float16, false);

  // Compaction: every flag dtype, flat (vectors or not) and strided; values of every unit.
  for (DType t : {bool_, int8, uint8, int16, uint16, int32, uint32, int64, uint64, float16, float32, float64, complex64,
                  complex128}) {
    tally.compile(std::string("select count ") + std::string(name(t)), [&] { return select_count_source(t, true, true, false); });
    tally.compile(std::string("select coordinates ") + std::string(name(t)),
                  [&] { return select_coordinates_source(t, false, false, false); });
  }
  tally.compile("select count strided", [&] { return select_count_source(bool_, false, false, false); });
  for (DType t : {bool_, int8, uint8})
    tally.compile(std::string("select count, a warp per tile, ") + std::string(name(t)),
                  [&] { return select_count_source(t, true, true, true); });
  for (int unit : {1, 2, 4, 8, 16}) {
    tally.compile("select values unit " + std::to_string(unit), [&] { return select_values_source(bool_, unit, true, true, true, false); });
    tally.compile("select values strided unit " + std::to_string(unit),
                  [&] { return select_values_source(float32, unit, false, false, false, false); });
  }
  tally.compile("select values flat, unaligned values", [&] { return select_values_source(bool_, 4, true, true, false, false); });
  // The second pass over the bits of a warp-per-tile count: flat or strided values, coordinates.
  for (int unit : {1, 4, 8, 16})
    tally.compile("select values from bits, unit " + std::to_string(unit),
                  [&] { return select_values_source(bool_, unit, true, true, true, true); });
  tally.compile("select values from bits, strided values", [&] { return select_values_source(uint8, 4, false, false, false, true); });
  tally.compile("select coordinates from bits", [&] { return select_coordinates_source(bool_, true, true, true); });
}

}  // namespace

int main() {
  check_plans();
  testing::CompileTally tally;
  check_sources(tally);
  std::printf("indexing kernels: %d compiled, %d compile failures, %d plan failures\n", tally.compiled, tally.failures,
              failures);
  return tally.failures + failures == 0 ? 0 : 1;
}
