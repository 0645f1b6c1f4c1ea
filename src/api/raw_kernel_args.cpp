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
  size_ = static_cast<std::uint8_t>(itemsize(t));
  s.store(t, value_);
}

KernelArg KernelArg::device_pointer(std::uintptr_t address) {
  KernelArg a;
  a.size_ = sizeof(void*);
  std::memcpy(a.value_, &address, sizeof address);
  return a;
}

}  // namespace copper
