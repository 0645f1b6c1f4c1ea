// KernelArg: how each kind of value becomes a kernel parameter's bytes.
#include "copper/errors.hpp"
#include "copper/raw_kernel.hpp"

namespace copper {

KernelArg::KernelArg(const ndarray& a) : size_(sizeof(void*)), is_array_(true), device_(a.device()) {
  void* p = a.data();
  std::memcpy(value_, &p, sizeof p);
}

KernelArg::KernelArg(const Scalar& s) {
  // Scalar::dtype() is already CuPy's choice for untyped values (int64/uint64, float64,
  // complex128, bool) and the value's own dtype for typed ones.
  const DType t = s.dtype();
  size_ = static_cast<std::uint32_t>(itemsize(t));
  s.store(t, value_);
}

KernelArg KernelArg::device_pointer(std::uintptr_t address) {
  KernelArg a;
  a.size_ = sizeof(void*);
  std::memcpy(a.value_, &address, sizeof address);
  return a;
}

KernelArg KernelArg::bytes(const void* data, std::size_t size) {
  // CUDA 12.1+ allows 32764 bytes of parameters per launch (4096 before); one argument
  // above that can never launch, so it is refused here rather than by the driver.
  constexpr std::size_t kMaxParamBytes = 32764;
  if (size == 0) throw ValueError("a kernel argument passed by value must have at least one byte");
  if (size > kMaxParamBytes)
    throw ValueError("a kernel argument of " + std::to_string(size) +
                     " bytes is larger than a kernel's parameters can be (32764 bytes)");
  KernelArg a;
  a.size_ = static_cast<std::uint32_t>(size);
  if (size <= sizeof a.value_) {
    std::memcpy(a.value_, data, size);
  } else {
    a.large_ = std::shared_ptr<unsigned char[]>(new unsigned char[size]);
    std::memcpy(a.large_.get(), data, size);
  }
  return a;
}

}  // namespace copper
