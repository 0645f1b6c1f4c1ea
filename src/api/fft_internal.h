// Shared pieces of copper::fft's front end: NumPy's norm rules, the step list a call
// turns into, and running it through Backend::fft.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "copper/fft.hpp"

namespace copper::api::fft_detail {

// One 1-d transform of NumPy's sequence (fftn is fft over each axis, last first).
struct Step {
  backend::FftKind kind;
  bool forward;  // c2c direction
  int axis;      // normalized
  std::int64_t n;  // logical length (c2r: of the real output)
  double scale;
};

// NumPy's norm checks: forward transforms check the name as it is; inverse ones swap
// the direction first ("backward" <-> "forward"), each with NumPy's own message.
void check_forward_norm(const std::string& norm);
std::string swap_direction(const std::string& norm);
// The factor NumPy's norm name means for a transform of length n (backward: 1), rounded
// as NumPy rounds it: computed in the input's real dtype (float16 for float16 input).
double norm_factor(const std::string& norm, std::int64_t n, DType input);

// "Invalid number of FFT data points (n) specified." for n < 1.
void check_n(std::int64_t n);

// Runs the steps in order; steps over distinct axes become one multi-axis transform
// per backend call (up to 3 axes each). `result` is the dtype the caller returns
// (float16 for irfft of float16 input); out= as numpy.fft takes it. `ufunc` names the
// last step in casting errors ("fft", "irfft", ...).
ndarray run_steps(const ndarray& a, const std::vector<Step>& steps, DType result, const std::optional<ndarray>& out,
                  const char* ufunc, bool input_is_scratch = false);

// The precision a transform of `t` computes in, and its real and complex dtypes.
bool single_precision(DType t);
inline DType real_dtype(bool single) { return single ? DType::float32 : DType::float64; }
inline DType complex_dtype(bool single) { return single ? DType::complex64 : DType::complex128; }

}  // namespace copper::api::fft_detail
