// Hooks between the error state (errstate.cpp) and the backends that detect errors.
#pragma once
#include <atomic>
#include <string_view>

#include "copper/errstate.hpp"
#include "ops/catalogue.h"

namespace copper::detail {

// Set by the CUDA backend: handles the errors GPU work recorded (synchronizing the streams
// that have some), called when an errstate scope ends. Null without a GPU backend.
extern std::atomic<void (*)()> fp_scope_exit_hook;

// The op's name in NumPy's messages ("divide by zero encountered in divide").
inline std::string_view fp_op_name(ops::UfuncId op) {
  return op == ops::UfuncId::true_divide ? std::string_view("divide") : ops::info(op).name;
}

// Ignores floating-point errors while alive, for composed functions whose intermediate
// infinities and NaNs NumPy does not report (isclose's inf - inf). Unlike errstate it does
// not synchronize on exit: kernels launched meanwhile record nothing.
class QuietFpErrors {
 public:
  QuietFpErrors() : saved_(seterr(ErrState{FpMode::ignore, FpMode::ignore, FpMode::ignore, FpMode::ignore})) {}
  ~QuietFpErrors() { seterr(saved_); }
  QuietFpErrors(const QuietFpErrors&) = delete;
  QuietFpErrors& operator=(const QuietFpErrors&) = delete;

 private:
  ErrState saved_;
};

}  // namespace copper::detail
