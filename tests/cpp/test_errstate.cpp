// The C++ error state (copper/errstate.hpp) and shares_memory (copper/utilities.hpp).
// Expected flags are NumPy 2.4's for the same values; a GPU reports at the next
// synchronization (to_vector), the CPU as the op returns.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "copper/copper.hpp"
#include "copper/errstate.hpp"
#include "copper/utilities.hpp"
#include "device_param.h"

namespace {
using namespace copper;

class ErrStateTest : public DeviceTest {};

ErrState all(FpMode m) { return ErrState{m, m, m, m}; }

// The (kind, flag) pairs 'call' mode reports while fn runs and its result is read back.
template <class Fn> std::vector<std::pair<std::string, unsigned>> calls_of(Fn fn) {
  std::vector<std::pair<std::string, unsigned>> seen;
  FpErrorCall old = seterrcall([&](const std::string& kind, unsigned flag) { seen.emplace_back(kind, flag); });
  {
    errstate scope(all(FpMode::call));
    fn().template to_vector<double>();
  }
  seterrcall(old);
  return seen;
}

TEST(ErrState, DefaultsAndSetters) {
  EXPECT_EQ(geterr(), (ErrState{FpMode::warn, FpMode::warn, FpMode::ignore, FpMode::warn}));
  EXPECT_EQ(fp_watch_mask(), unsigned{fp_divide | fp_overflow | fp_invalid});
  {
    errstate scope(all(FpMode::ignore));
    EXPECT_EQ(fp_watch_mask(), 0u);
    EXPECT_EQ(geterr().divide, FpMode::ignore);
  }
  EXPECT_EQ(geterr().divide, FpMode::warn);
  EXPECT_EQ(fp_mode_from_name("raise"), FpMode::raise);
  EXPECT_THROW(fp_mode_from_name("loud"), ValueError);
}

TEST_P(ErrStateTest, FlagsMatchNumPy) {
  const double inf = std::numeric_limits<double>::infinity();
  auto x = array<double>({1.0, 0.0, -1.0, 1e300, inf}, device());
  auto zero = array<double>({0.0, 1.0, 1.0, 1.0, 1.0}, device());
  using Calls = std::vector<std::pair<std::string, unsigned>>;
  EXPECT_EQ(calls_of([&] { return true_divide(x, zero); }), (Calls{{"divide by zero", fp_divide}}));
  EXPECT_EQ(calls_of([&] { return copper::log(x); }), (Calls{{"divide by zero", fp_divide}, {"invalid value", fp_invalid}}));
  EXPECT_EQ(calls_of([&] { return multiply(x, x); }), (Calls{{"overflow", fp_overflow}}));
  EXPECT_EQ(calls_of([&] { return subtract(x, x); }), (Calls{{"invalid value", fp_invalid}}));
  EXPECT_EQ(calls_of([&] { return add(zero, zero); }), Calls{});
  auto i = array<std::int32_t>({7, 8}, device());
  auto j = array<std::int32_t>({0, 2}, device());
  EXPECT_EQ(calls_of([&] { return astype(floor_divide(i, j), float64); }), (Calls{{"divide by zero", fp_divide}}));
}

TEST_P(ErrStateTest, RaiseAndIgnore) {
  auto x = array<double>({1.0, 2.0}, device());
  auto zero = array<double>({0.0, 0.0}, device());
  EXPECT_THROW(
      {
        errstate scope(ErrState{FpMode::raise, FpMode::warn, FpMode::ignore, FpMode::warn});
        true_divide(x, zero).to_vector<double>();
      },
      FloatingPointError);
  errstate quiet(all(FpMode::ignore));
  EXPECT_EQ(true_divide(x, zero).to_vector<double>()[0], std::numeric_limits<double>::infinity());
}

TEST_P(ErrStateTest, SharesMemory) {
  auto a = zeros({100}, int8, device());
  auto b = zeros({100}, int8, device());
  auto even = a.view_as(int8, {50}, {2}, 0), odd = a.view_as(int8, {50}, {2}, 1);
  EXPECT_TRUE(shares_memory(a, even));
  EXPECT_FALSE(shares_memory(even, odd));
  EXPECT_TRUE(may_share_memory(even, odd));
  EXPECT_FALSE(may_share_memory(even, odd, -1));
  EXPECT_THROW(shares_memory(even, odd, 0), TooHardError);
  EXPECT_FALSE(shares_memory(a, b));
  EXPECT_FALSE(may_share_memory(a, b));
  auto wide = a.view_as(int16, {49}, {2}, 1);  // each element spans an even and an odd byte
  EXPECT_TRUE(shares_memory(wide, even));
  EXPECT_TRUE(shares_memory(wide, odd));
  // Every other byte of rows of odd length: a's row 1 meets b's row 0, which the search
  // finds only after more than one candidate (NumPy's gives up there too with max_work=1).
  auto base = zeros({10000}, int8, device());
  auto grid_a = base.view_as(int8, {100, 49}, {97, 2}, 0), grid_b = base.view_as(int8, {100, 49}, {97, 2}, 1);
  EXPECT_TRUE(shares_memory(grid_a, grid_b));
  EXPECT_THROW(shares_memory(grid_a, grid_b, 1), TooHardError);
  EXPECT_TRUE(may_share_memory(grid_a, grid_b, 1));
  EXPECT_FALSE(isfortran(zeros({2, 3}, float64, device())));
  EXPECT_TRUE(isfortran(zeros({2, 3}, float64, Order::F, device())));
}

INSTANTIATE_DEVICE_TEST(ErrStateTest);

}  // namespace
