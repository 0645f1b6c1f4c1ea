// What a kernel sees of an array: a data pointer on the backend's device plus layout.
#pragma once
#include "copper/ndarray.hpp"

namespace copper::backend {

struct ArrayView {
  void* data;
  DType dtype;
  Shape shape;
  Strides strides;  // bytes; 0 along broadcast dimensions
  // `data` is one element in host memory (a Python or C++ scalar operand, all strides
  // 0): the CPU backend reads it like any array, a GPU backend passes it by value.
  bool host_value = false;
};

}  // namespace copper::backend
