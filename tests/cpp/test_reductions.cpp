// Reductions, statistics and scans through the C++ API, with expected values
// worked out by hand (exact arithmetic) or printed by NumPy.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "copper/copper.hpp"
#include "device_param.h"

namespace {
using namespace copper;

class Reductions : public DeviceTest {};

// [[0,1,2],[3,4,5]] as float64
ndarray small(Device d) { return array(std::vector<double>{0, 1, 2, 3, 4, 5}, Shape{2, 3}, d); }

// The CPU's float sums round the same whatever the number of threads: long rows with few
// outputs (chunks), and outer-axis sums over few column blocks (row pieces).
TEST(CpuReductions, RoundingDoesNotDependOnTheThreadCount) {
  // 5 rows: 4 threads or fewer once reduced whole rows, more by chunks; 16 columns: one
  // column block, whose rows were split by the thread count.
  std::vector<float> values(5 * 160000);
  std::uint32_t state = 12345;
  for (float& v : values) {
    state = state * 1664525u + 1013904223u;
    v = static_cast<float>(state >> 8) / 16777216.0f - 0.3f;
  }
  const ndarray a = array(values, Shape{5, 160000}, cpu);
  const ndarray b = array(values, Shape{50000, 16}, cpu);
  std::vector<std::vector<float>> rows, cols, full;
  const int before = get_num_threads();
  for (int threads : {1, 2, 5}) {
    set_num_threads(threads);
    rows.push_back(sum(a, -1).to_vector<float>());
    cols.push_back(sum(b, 0).to_vector<float>());
    full.push_back(sum(a).to_vector<float>());
  }
  set_num_threads(before);
  for (std::size_t k = 1; k < rows.size(); ++k) {
    EXPECT_EQ(rows[k], rows[0]);
    EXPECT_EQ(cols[k], cols[0]);
    EXPECT_EQ(full[k], full[0]);
  }
}

TEST_P(Reductions, SumAxes) {
  auto a = small(device());
  EXPECT_EQ(sum(a).item().to_double(), 15.0);
  EXPECT_EQ(sum(a).ndim(), 0);
  EXPECT_EQ(sum(a, 0).to_vector<double>(), (std::vector<double>{3, 5, 7}));
  EXPECT_EQ(sum(a, -1).to_vector<double>(), (std::vector<double>{3, 12}));
  EXPECT_EQ(sum(a, {0, 1}).item().to_double(), 15.0);
  auto k = sum(a, 1, {.keepdims = true});
  EXPECT_EQ(k.shape(), (Shape{2, 1}));
  EXPECT_EQ(sum(a, Axes(std::vector<int>{})).shape(), (Shape{2, 3}));
}

TEST_P(Reductions, SumDtypes) {
  auto i8 = array(std::vector<std::int8_t>{100, 100, 100}, std::nullopt, device());
  auto s = sum(i8);
  EXPECT_EQ(s.dtype(), int64);  // NumPy 2: no wrap-around at int8
  EXPECT_EQ(s.item().to_int64(), 300);
  auto u8 = array(std::vector<std::uint8_t>{200, 100}, std::nullopt, device());
  EXPECT_EQ(sum(u8).dtype(), uint64);
  EXPECT_EQ(sum(u8, {}, {.dtype = uint8}).item().to_int64(), 44);  // (200 + 100) mod 256
  auto b = array(std::vector<bool>{true, false, true}, std::nullopt, device());
  EXPECT_EQ(sum(b).dtype(), int64);
  EXPECT_EQ(sum(b).item().to_int64(), 2);
  EXPECT_EQ(prod(array(std::vector<std::int32_t>{-3, 4, 5}, std::nullopt, device())).item().to_int64(), -60);
}

TEST_P(Reductions, MinMaxAndNaN) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto a = array(std::vector<double>{3, nan, -1, 7}, Shape{2, 2}, device());
  EXPECT_TRUE(std::isnan(amax(a).item().to_double()));
  EXPECT_EQ(nanmax(a).item().to_double(), 7.0);
  EXPECT_EQ(nanmin(a).item().to_double(), -1.0);
  auto m = amin(a, 0).to_vector<double>();  // columns {3,-1}, {nan,7}
  EXPECT_EQ(m[0], -1.0);
  EXPECT_TRUE(std::isnan(m[1]));
  EXPECT_EQ(nansum(a).item().to_double(), 9.0);
  EXPECT_EQ(nanprod(a).item().to_double(), -21.0);
  EXPECT_THROW(amin(zeros({0, 3}, float32, device())), ValueError);
  EXPECT_EQ(amax(zeros({0, 3}, float32, device()), 1).shape(), (Shape{0}));
}

TEST_P(Reductions, AllAnyCountNonzero) {
  auto a = array(std::vector<std::int32_t>{0, 1, 2, 3, 0, 5}, Shape{2, 3}, device());
  EXPECT_FALSE(all(a).item().to_bool());
  EXPECT_TRUE(any(a).item().to_bool());
  auto col = all(a, 0);
  EXPECT_EQ(col.dtype(), bool_);
  EXPECT_EQ(col.to_vector<std::uint8_t>(), (std::vector<std::uint8_t>{0, 0, 1}));
  EXPECT_EQ(count_nonzero(a).item().to_int64(), 4);
  EXPECT_EQ(count_nonzero(a, 1).to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 2}));
  EXPECT_TRUE(all(zeros({0}, float64, device())).item().to_bool());
  EXPECT_FALSE(any(zeros({0}, float64, device())).item().to_bool());
}

TEST_P(Reductions, ArgMinMax) {
  auto a = array(std::vector<double>{1, 9, 9, 0, 0, 4}, Shape{2, 3}, device());
  EXPECT_EQ(argmax(a).item().to_int64(), 1);  // first of the tied maxima
  EXPECT_EQ(argmin(a).item().to_int64(), 3);
  EXPECT_EQ(argmax(a, 0).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 0, 0}));
  EXPECT_EQ(argmin(a, 1).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 0}));
  EXPECT_EQ(argmax(a, 1, true).shape(), (Shape{2, 1}));
  auto t = a.T();  // [[1,0],[9,0],[9,4]]: flat order follows the view, not memory
  EXPECT_EQ(argmax(t).item().to_int64(), 2);
  EXPECT_THROW(argmax(zeros({0}, float64, device())), ValueError);
}

TEST_P(Reductions, MeanVarStd) {
  auto a = small(device());
  EXPECT_DOUBLE_EQ(mean(a).item().to_double(), 2.5);
  EXPECT_EQ(mean(a, 0).to_vector<double>(), (std::vector<double>{1.5, 2.5, 3.5}));
  // var of 0..5 = 17.5 / 6; with ddof=1, 17.5 / 5 = 3.5
  EXPECT_DOUBLE_EQ(var(a).item().to_double(), 17.5 / 6);
  EXPECT_DOUBLE_EQ(var(a, {}, {.ddof = 1}).item().to_double(), 3.5);
  EXPECT_DOUBLE_EQ(copper::std(a, 1).to_vector<double>()[0], std::sqrt(2.0 / 3));
  auto ints = array(std::vector<std::int64_t>{1, 2}, std::nullopt, device());
  EXPECT_EQ(mean(ints).dtype(), float64);
  EXPECT_DOUBLE_EQ(mean(ints).item().to_double(), 1.5);
}

TEST_P(Reductions, Scans) {
  auto a = small(device());
  EXPECT_EQ(cumsum(a).to_vector<double>(), (std::vector<double>{0, 1, 3, 6, 10, 15}));
  EXPECT_EQ(cumsum(a, 0).to_vector<double>(), (std::vector<double>{0, 1, 2, 3, 5, 7}));
  EXPECT_EQ(cumprod(a, 1).to_vector<double>(), (std::vector<double>{0, 0, 0, 3, 12, 60}));
  auto i8 = array(std::vector<std::int8_t>{100, 100}, std::nullopt, device());
  EXPECT_EQ(cumsum(i8).dtype(), int64);
  EXPECT_EQ(cumsum(i8).to_vector<std::int64_t>(), (std::vector<std::int64_t>{100, 200}));
}

TEST_P(Reductions, OutParameter) {
  auto a = small(device());
  auto out = zeros({3}, float32, device());
  auto r = sum(a, 0, {.out = out});
  EXPECT_EQ(r.data(), out.data());
  EXPECT_EQ(out.to_vector<float>(), (std::vector<float>{3, 5, 7}));
  EXPECT_THROW(sum(a, 0, {.out = zeros({2}, float64, device())}), ValueError);
}

TEST_P(Reductions, AxisErrors) {
  auto a = small(device());
  EXPECT_THROW(sum(a, 2), AxisError);
  EXPECT_THROW(sum(a, {0, 0}), ValueError);
  try {
    amax(a, -3);
    FAIL();
  } catch (const AxisError& e) {
    EXPECT_STREQ(e.what(), "axis -3 is out of bounds for array of dimension 2");
  }
  EXPECT_THROW(cumsum(a, 2), AxisError);
}

// NumPy's where= and initial= (values printed by NumPy 2.4).
TEST_P(Reductions, WhereAndInitial) {
  const ndarray a = small(device());
  const ndarray m = array(std::vector<bool>{true, false, true, false, true, true}, Shape{2, 3}, device());
  ReduceOptions o;
  o.where = m;
  o.initial = Scalar(10);
  EXPECT_EQ(sum(a, 1, o).to_vector<double>(), (std::vector<double>{12, 19}));
  o.initial = Scalar(0.5);
  EXPECT_EQ(nansum(a, {}, o).item().to_double(), 11.5);
  o.initial = Scalar(-1);
  EXPECT_EQ(amax(a, 0, o).to_vector<double>(), (std::vector<double>{0, 4, 5}));
  o.initial.reset();
  EXPECT_THROW(amax(a, 0, o), ValueError);  // no identity: initial= is needed with where=
  EXPECT_EQ(mean(a, 1, o).to_vector<double>(), (std::vector<double>{1, 4.5}));
  o.ddof = 1;
  EXPECT_NEAR(var(a, {}, o).item().to_double(), 4.916666666666667, 1e-12);
  o.ddof = 0;
  EXPECT_EQ(any(greater(a, 2), 1, o).to_vector<bool>(), (std::vector<bool>{false, true}));
  o.initial = Scalar(1);
  EXPECT_THROW(mean(a, 1, o), TypeError);
  // initial= alone: into an integer accumulator as Python's int() (2.9 -> 2); the start of
  // an empty slice.
  ReduceOptions s;
  s.initial = Scalar(2.9);
  EXPECT_EQ(sum(arange(0, 4, 1, uint8, device()), {}, s).item().to_int64(), 8);
  s.initial = Scalar(-1);
  EXPECT_THROW(sum(arange(0, 4, 1, uint8, device()), {}, s), OverflowError);
  s.initial = Scalar(7.0);
  EXPECT_EQ(amax(zeros({0, 2}, float64, device()), 0, s).to_vector<double>(), (std::vector<double>{7, 7}));
}

TEST_P(Reductions, InitialNoneTakesTheIdentityAway) {
  // NumPy's initial=None: each slice starts from its first element, so an empty one raises
  // even for sum, and where= needs a real initial.
  ReduceOptions none;
  none.use_identity = false;
  const ndarray a = small(device());
  EXPECT_EQ(sum(a, 1, none).to_vector<double>(), sum(a, 1).to_vector<double>());
  EXPECT_EQ(prod(a, 0, none).to_vector<double>(), prod(a, 0).to_vector<double>());
  EXPECT_THROW(sum(zeros({0, 3}, float64, device()), 0, none), ValueError);
  EXPECT_EQ(sum(zeros({0, 3}, float64, device()), 0).to_vector<double>(), (std::vector<double>{0, 0, 0}));
  none.where = greater(a, 2);
  EXPECT_THROW(sum(a, 1, none), ValueError);
  UfuncReduceOptions u;
  u.use_identity = false;
  EXPECT_THROW(ufunc(UfuncId::add).reduce(zeros({0}, int32, device()), {}, u), ValueError);
  EXPECT_EQ(ufunc(UfuncId::add).reduce(a, {}, u).item().to_double(), sum(a).item().to_double());
  ReduceOptions mean_none;
  mean_none.use_identity = false;
  EXPECT_THROW(mean(a, {}, mean_none), TypeError);
}

// NumPy 2's mean= of var and std: used as given (keepdims-shaped), not recomputed.
TEST_P(Reductions, VarWithAGivenMean) {
  const ndarray a = small(device());  // rows [0 1 2], [3 4 5]
  ReduceOptions o;
  o.mean = array(std::vector<double>{1, 4}, Shape{2, 1}, device());
  EXPECT_EQ(var(a, 1, o).to_vector<double>(), (std::vector<double>{2.0 / 3, 2.0 / 3}));
  o.mean = array(std::vector<double>{0, 0}, Shape{2, 1}, device());  // any values: squares about them
  EXPECT_EQ(var(a, 1, o).to_vector<double>(), (std::vector<double>{5.0 / 3, 50.0 / 3}));
  EXPECT_THROW(mean(a, 1, o), TypeError);
  EXPECT_THROW(sum(a, 1, o), TypeError);
}

INSTANTIATE_DEVICE_TEST(Reductions);

}  // namespace
