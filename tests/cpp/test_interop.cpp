// DLPack export/import in C++ (DLManagedTensorVersioned and the legacy struct), arrays
// over foreign memory kept alive through the deleter, and the array API functions.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "copper/copper.hpp"
#include "device_param.h"

namespace {
using namespace copper;

class Interop : public DeviceTest {};

TEST_P(Interop, VersionedRoundTripSharesMemory) {
  ndarray a = reshape(arange(Scalar(0.0), Scalar(12.0), Scalar(1.0), float32, device()), {3, 4});
  DLManagedTensorVersioned* t = to_dlpack(a);
  EXPECT_EQ(t->version.major, 1u);
  EXPECT_EQ(t->flags, 0u);
  EXPECT_EQ(t->dl_tensor.ndim, 2);
  EXPECT_EQ(t->dl_tensor.dtype.code, kDLFloat);
  EXPECT_EQ(t->dl_tensor.dtype.bits, 32);
  EXPECT_EQ(t->dl_tensor.strides[0], 4);  // elements, not bytes
  EXPECT_EQ(t->dl_tensor.device.device_type, device().type == DeviceType::cpu ? kDLCPU : kDLCUDA);
  ndarray b = from_dlpack(t);  // b owns t now
  EXPECT_EQ(b.data(), a.data());
  EXPECT_EQ(b.shape(), a.shape());
  EXPECT_EQ(b.to_vector<float>(), a.to_vector<float>());
}

TEST_P(Interop, ExportKeepsMemoryAliveUntilTheDeleter) {
  DLManagedTensor* t = nullptr;
  {
    ndarray a = multiply(arange(Scalar(std::int64_t{0}), Scalar(std::int64_t{5}), Scalar(std::int64_t{1}), int64,
                                device()),
                         3);
    t = to_dlpack_legacy(transpose(reshape(a, {5, 1})));
  }
  ndarray b = from_dlpack(t);
  EXPECT_EQ(b.shape(), (Shape{1, 5}));
  EXPECT_EQ(b.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 3, 6, 9, 12}));
}

TEST_P(Interop, NegativeStridesAndZeroDims) {
  ndarray a = arange(Scalar(0.0), Scalar(6.0), Scalar(1.0), float64, device());
  ndarray r = flip(a);
  DLManagedTensorVersioned* t = to_dlpack(r, true);
  EXPECT_EQ(t->dl_tensor.strides[0], -1);
  EXPECT_EQ(t->flags, DLPACK_FLAG_BITMASK_IS_COPIED);
  ndarray b = from_dlpack(t);
  EXPECT_EQ(b.to_vector<double>(), (std::vector<double>{5, 4, 3, 2, 1, 0}));
  ndarray s = from_dlpack(to_dlpack(full({}, Scalar(2.5), float64, device())));
  EXPECT_EQ(s.ndim(), 0);
  EXPECT_EQ(s.item().to_double(), 2.5);
}

TEST(InteropHost, ForeignMemoryReleasedOnceWithTheLastView) {
  std::vector<double> storage = {1, 2, 3, 4, 5, 6};
  int released = 0;
  {
    ndarray a = from_external(storage.data(), float64, {2, 3}, {}, cpu, [&] { ++released; });
    ndarray view = transpose(a);
    a = ndarray();
    EXPECT_EQ(released, 0);
    view.assign(Index{Slice(), std::int64_t{0}}, 10.0);  // writes reach the foreign memory
    EXPECT_EQ(storage[0], 10.0);
    EXPECT_EQ(storage[1], 10.0);
  }
  EXPECT_EQ(released, 1);
}

TEST(InteropHost, ImportOfAProducerTensorCallsItsDeleter) {
  struct Producer {
    std::vector<std::int16_t> data = {7, -8, 9};
    std::int64_t shape[1] = {3};
    std::int64_t strides[1] = {1};
    DLManagedTensorVersioned managed{};
    bool deleted = false;
  } p;
  p.managed.version = {1, 0};
  p.managed.manager_ctx = &p;
  p.managed.deleter = [](DLManagedTensorVersioned* self) { static_cast<Producer*>(self->manager_ctx)->deleted = true; };
  p.managed.dl_tensor = DLTensor{p.data.data(), DLDevice{kDLCPU, 0}, 1, DLDataType{kDLInt, 16, 1}, p.shape,
                                 p.strides, 0};
  {
    ndarray a = from_dlpack(&p.managed);
    EXPECT_EQ(a.dtype(), int16);
    EXPECT_EQ(a.to_vector<std::int16_t>(), (std::vector<std::int16_t>{7, -8, 9}));
    EXPECT_FALSE(p.deleted);
  }
  EXPECT_TRUE(p.deleted);
}

TEST(InteropHost, UnsupportedTensorsAreRefusedAndNotTaken) {
  float value = 1;
  std::int64_t shape[1] = {1};
  bool deleted = false;
  DLManagedTensorVersioned t{};
  t.version = {2, 0};
  t.manager_ctx = &deleted;
  t.deleter = [](DLManagedTensorVersioned* self) { *static_cast<bool*>(self->manager_ctx) = true; };
  t.dl_tensor = DLTensor{&value, DLDevice{kDLCPU, 0}, 1, DLDataType{kDLFloat, 32, 1}, shape, nullptr, 0};
  EXPECT_THROW(from_dlpack(&t), BufferError);  // major version 2
  t.version = {1, 0};
  t.dl_tensor.dtype = DLDataType{kDLBfloat, 16, 1};
  EXPECT_THROW(from_dlpack(&t), BufferError);
  t.dl_tensor.dtype = DLDataType{kDLFloat, 32, 4};
  EXPECT_THROW(from_dlpack(&t), BufferError);
  t.dl_tensor.dtype = DLDataType{kDLFloat, 32, 1};
  t.dl_tensor.device = DLDevice{kDLVulkan, 0};
  EXPECT_THROW(from_dlpack(&t), BufferError);
  EXPECT_FALSE(deleted);  // the caller still owns it
  t.dl_tensor.device = DLDevice{kDLCPU, 0};
  {
    ndarray a = from_dlpack(&t);  // strides NULL: C-contiguous
    EXPECT_EQ(a.item().to_double(), 1.0);
  }
  EXPECT_TRUE(deleted);
}

TEST(InteropHost, DtypeMapping) {
  for (DType t : {bool_, int8, uint8, int16, uint16, int32, uint32, int64, uint64, float16, float32, float64,
                  complex64, complex128}) {
    EXPECT_EQ(dtype_from_dlpack(dlpack_dtype(t)), t);
  }
  EXPECT_EQ(dlpack_dtype(bool_).code, kDLBool);
  EXPECT_EQ(dlpack_dtype(complex64).bits, 64);
  EXPECT_EQ(sizeof(DLDeviceType), 4u);
  EXPECT_EQ(sizeof(DLTensor), 48u);  // the C ABI's layout on 64-bit platforms
  EXPECT_EQ(sizeof(DLManagedTensorVersioned), 80u);
}

TEST_P(Interop, ArrayApiFunctions) {
  ndarray a = reshape(arange(Scalar(std::int64_t{1}), Scalar(std::int64_t{7}), Scalar(std::int64_t{1}), int32,
                             device()),
                      {2, 3});
  EXPECT_EQ(cumulative_sum(a, 1, std::nullopt, true).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{0, 1, 3, 6, 0, 4, 9, 15}));
  EXPECT_EQ(cumulative_prod(a, 0).to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 2, 3, 4, 10, 18}));
  EXPECT_THROW(cumulative_sum(a), ValueError);
  EXPECT_EQ(matrix_transpose(a).shape(), (Shape{3, 2}));
  EXPECT_EQ(vecdot(a, a).to_vector<std::int64_t>(), (std::vector<std::int64_t>{14, 77}));
  // The axis is each operand's own (NumPy's gufunc): axis 0 of a (length 2) with axis 0 of
  // a row (length 3) do not match; with a column of length 2 they do.
  EXPECT_THROW(vecdot(a, a[0], 0), ValueError);
  EXPECT_EQ(vecdot(a, reshape(a[0], {3, 1})[Index{Slice(0, 2)}], 0).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{9, 12, 15}));
  EXPECT_THROW(vecdot(a, a, -3), AxisError);
  auto parts = unstack(a, 1);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[2].to_vector<std::int32_t>(), (std::vector<std::int32_t>{3, 6}));
  EXPECT_EQ(diff(a, 1, 1).to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, 1, 1, 1}));
  auto grid = meshgrid({parts[0], parts[1]});
  EXPECT_EQ(grid[0].shape(), (Shape{2, 2}));
  EXPECT_EQ(grid[0].to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, 4, 1, 4}));
  EXPECT_TRUE(isdtype(uint8, "integral"));
  EXPECT_FALSE(isdtype(bool_, "numeric"));
  ndarray v = astype(a, float64);
  EXPECT_NEAR(linalg::vector_norm(v).item().to_double(), std::sqrt(91.0), 1e-12);
  EXPECT_EQ(linalg::vector_norm(v, Axes{1}, true, INFINITY).to_vector<double>(), (std::vector<double>{3, 6}));
}

TEST_P(Interop, NewElementwiseOps) {
  ndarray x = array<double>({1.0, -2.0, 0.0}, device());
  EXPECT_EQ(copper::copysign(x, -1.0).to_vector<double>(), (std::vector<double>{-1.0, -2.0, -0.0}));
  EXPECT_EQ(copper::signbit(copper::copysign(x, -1.0)).to_vector<bool>(), (std::vector<bool>{true, true, true}));
  EXPECT_EQ(copper::nextafter(x, 0.0).to_vector<double>()[0], std::nextafter(1.0, 0.0));
  EXPECT_NEAR(copper::logaddexp(x, x).to_vector<double>()[0], 1.0 + std::log(2.0), 1e-15);
  EXPECT_NEAR(copper::logaddexp2(x, x).to_vector<double>()[1], -1.0, 1e-15);
}

INSTANTIATE_DEVICE_TEST(Interop);

}  // namespace
