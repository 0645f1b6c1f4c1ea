// Advanced indexing and the indexing routines from C++: Index items with integer and
// boolean arrays, assignment with repeats, take/put/nonzero/compress, ufunc_at, and
// out-of-bounds errors (raised at the call on the CPU, at the next host read on a GPU).
#include <gtest/gtest.h>

#include <limits>

#include "copper/copper.hpp"
#include "device_param.h"

namespace {
using namespace copper;

using I64 = std::vector<std::int64_t>;

class AdvancedIndexing : public DeviceTest {
 protected:
  ndarray grid() const {  // [[0..3], [4..7], [8..11]]
    return arange(12, int64, device()).reshape({3, 4});
  }
  ndarray ints(I64 v) const { return array(v, std::nullopt, device()); }
  ndarray bools(std::vector<bool> v) const {
    std::vector<std::uint8_t> bytes(v.begin(), v.end());
    return array(bytes, std::nullopt, device()).astype(bool_);
  }
};

TEST_P(AdvancedIndexing, GetWithArrays) {
  auto a = grid();
  EXPECT_EQ(a[ints({2, 0, -1})].shape(), (Shape{3, 4}));
  EXPECT_EQ((a[{ints({2, 0}), ints({1, 3})}].to_vector<std::int64_t>()), (I64{9, 3}));
  auto b = arange(24, int64, device()).reshape({2, 3, 4});
  // Separated advanced items (an integer counts): the broadcast axis goes first.
  EXPECT_EQ((b[{1, Slice(), ints({0, 2})}].shape()), (Shape{2, 3}));
  EXPECT_EQ((b[{ints({0, 1}), Slice(), ints({0, 3})}].shape()), (Shape{2, 3}));
  EXPECT_EQ((b[{Slice(), ints({0, 1}), ints({0, 3})}].shape()), (Shape{2, 2}));
  EXPECT_EQ((b[{0, newaxis, ints({2}), Slice()}].shape()), (Shape{1, 1, 4}));
  EXPECT_EQ((a[Index{true}].shape()), (Shape{1, 3, 4}));  // a[{true}] would pick the integer overload
  EXPECT_EQ((a[Index{false}].shape()), (Shape{0, 3, 4}));
}

TEST_P(AdvancedIndexing, Masks) {
  auto a = grid();
  auto m = bools({true, false, true});
  EXPECT_EQ(a[m].shape(), (Shape{2, 4}));
  auto big = greater(a, 6);
  EXPECT_EQ(a[big].to_vector<std::int64_t>(), (I64{7, 8, 9, 10, 11}));
  EXPECT_EQ((a[{Slice(), bools({false, true, true, false})}].to_vector<std::int64_t>()), (I64{1, 2, 5, 6, 9, 10}));
  try {
    a[bools({true, false})];
    FAIL();
  } catch (const IndexError& e) {
    EXPECT_STREQ(e.what(),
                 "boolean index did not match indexed array along axis 0; size of axis is 3 but size of "
                 "corresponding boolean axis is 2");
  }
}

TEST_P(AdvancedIndexing, AssignLastWriteWins) {
  auto a = zeros({6}, int64, device());
  a.assign({ints({1, 1, 4, 1})}, ints({10, 20, 30, 40}));
  EXPECT_EQ(a.to_vector<std::int64_t>(), (I64{0, 40, 0, 0, 30, 0}));
  auto g = grid();
  g.assign({greater(g, 8)}, -1);
  g.assign({Slice(), ints({0})}, ints({7, 8, 9}).reshape({3, 1}));
  EXPECT_EQ(g.to_vector<std::int64_t>(), (I64{7, 1, 2, 3, 8, 5, 6, 7, 9, -1, -1, -1}));
}

TEST_P(AdvancedIndexing, OutOfBoundsWritesNothing) {
  auto a = arange(5, int64, device());
  try {
    a.assign({ints({0, 7})}, 9);
    a.to_vector<std::int64_t>();  // a GPU raises at the next host read
    FAIL();
  } catch (const IndexError& e) {
    EXPECT_STREQ(e.what(), "index 7 is out of bounds for axis 0 with size 5");
  }
  EXPECT_EQ(a.to_vector<std::int64_t>(), (I64{0, 1, 2, 3, 4}));
  try {
    take(a, ints({-6})).to_vector<std::int64_t>();
    FAIL();
  } catch (const IndexError& e) {
    EXPECT_STREQ(e.what(), "index -6 is out of bounds for axis 0 with size 5");
  }
}

TEST_P(AdvancedIndexing, Functions) {
  auto a = grid();
  EXPECT_EQ(take(a, ints({3, 0}), 1).to_vector<std::int64_t>(), (I64{3, 0, 7, 4, 11, 8}));
  EXPECT_EQ(take(a, ints({13}), std::nullopt, IndexMode::wrap).to_vector<std::int64_t>(), (I64{1}));
  auto nz = nonzero(greater(a, 9));
  ASSERT_EQ(nz.size(), 2u);
  EXPECT_EQ(nz[0].to_vector<std::int64_t>(), (I64{2, 2}));
  EXPECT_EQ(nz[1].to_vector<std::int64_t>(), (I64{2, 3}));
  EXPECT_EQ(argwhere(greater(a, 10)).to_vector<std::int64_t>(), (I64{2, 3}));
  EXPECT_EQ(compress(bools({false, true}), a, 0).to_vector<std::int64_t>(), (I64{4, 5, 6, 7}));
  auto b = zeros({5}, float64, device());
  put(b, ints({4, 0}), 2.5);
  EXPECT_EQ(b.to_vector<double>(), (std::vector<double>{2.5, 0, 0, 0, 2.5}));
  auto tri = triu_indices(3, 1, std::nullopt, device());
  EXPECT_EQ(tri[0].to_vector<std::int64_t>(), (I64{0, 0, 1}));
  EXPECT_EQ(tri[1].to_vector<std::int64_t>(), (I64{1, 2, 2}));
  auto u = unravel_index(ints({7}), {3, 4});
  EXPECT_EQ(u[0].to_vector<std::int64_t>(), (I64{1}));
  EXPECT_EQ(u[1].to_vector<std::int64_t>(), (I64{3}));
  EXPECT_EQ(ravel_multi_index({ints({1, 2}), ints({3, 0})}, {3, 4}).to_vector<std::int64_t>(), (I64{7, 8}));
  EXPECT_THROW(ravel_multi_index({ints({0}), ints({0})}, {std::numeric_limits<std::int64_t>::max(), 4}), ValueError);
}

TEST_P(AdvancedIndexing, UfuncAt) {
  auto h = zeros({4}, int64, device());
  ufunc_at("add", h, {ints({0, 1, 1, 3, 1})}, 1);
  EXPECT_EQ(h.to_vector<std::int64_t>(), (I64{1, 3, 0, 1}));
  auto f = full({3}, 10.0, float64, device());
  ufunc_at("subtract", f, {ints({2, 2})}, array(std::vector<double>{1.5, 2.0}, std::nullopt, device()));
  ufunc_at("negative", f, {ints({0, 0, 1})});
  EXPECT_EQ(f.to_vector<double>(), (std::vector<double>{10, -10, 6.5}));
  auto r = full({2}, 100, int64, device());
  ufunc_at("remainder", r, {ints({0, 0})}, ints({7, 3}));  // order matters: (100 % 7) % 3
  EXPECT_EQ(r.to_vector<std::int64_t>(), (I64{2, 100}));
}

INSTANTIATE_DEVICE_TEST(AdvancedIndexing);

}  // namespace
