// Parameter blocks of the generated elementwise kernels (ufuncs, casting copies,
// fills, where, iota). Host mirrors: cuda_elementwise.cpp. Operands are the output
// then up to three inputs; an input passed by value sits in `value` instead.
#pragma once
#include "copper_kernels/common.cuh"

namespace copper::kern {

constexpr int kMaxInputs = 3;

struct ContigArgs {
  char* out;
  const char* in[kMaxInputs];
  alignas(16) unsigned char value[kMaxInputs][16];
  long long n;
};

struct StridedArgs {
  char* out;
  const char* in[kMaxInputs];
  alignas(16) unsigned char value[kMaxInputs][16];
  long long n;
  StridedLayout<kMaxInputs + 1> layout;  // operand 0 is the output
};

struct IotaArgs {
  char* out;
  long long n;
  long long start_int, step_int;
  double start_re, start_im, step_re, step_im;
};

template <class T> __device__ __forceinline__ T value_of(const unsigned char (&bytes)[16]) {
  return *reinterpret_cast<const T*>(bytes);
}

}  // namespace copper::kern
