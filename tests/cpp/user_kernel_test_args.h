// Arguments of ElementwiseKernel/ReductionKernel jobs for the NVRTC compile checks
// (cuda_*_compile_check.cpp): arrays at fake device addresses and scalars. No GPU needed.
#pragma once

#include <cstdint>
#include <string>

#include "backend/user_kernel_job.h"

namespace copper::backend::test_args {

// Distinct, 1 MiB-aligned fake device addresses: operands neither alias nor overlap.
inline void* fake_pointer() {
  static std::uintptr_t next = 0;
  return reinterpret_cast<void*>((++next) << 20);
}

// An operand of `shape` (C-contiguous unless `strides` are given) at a fresh fake address.
inline UserKernelArg arg(const std::string& name, DType t, const std::string& ctype, UserArgKind kind,
                         const Shape& shape, Strides strides = {}, bool is_const = true) {
  UserKernelArg a;
  a.name = name;
  a.dtype = t;
  a.ctype = ctype;
  a.kind = kind;
  a.is_const = is_const;
  a.view.data = fake_pointer();
  a.view.dtype = t;
  a.view.shape = shape;
  a.view.strides = strides.empty() ? c_strides(shape, itemsize(t)) : strides;
  return a;
}

inline UserKernelArg scalar(const std::string& name, DType t, const std::string& ctype) {
  UserKernelArg a;
  a.name = name;
  a.dtype = t;
  a.ctype = ctype;
  a.kind = UserArgKind::scalar;
  return a;
}

}  // namespace copper::backend::test_args
