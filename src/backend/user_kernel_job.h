// What the front end (src/api/user_kernel*.cpp) hands a backend to run a user kernel
// (ElementwiseKernel, ReductionKernel): the user's code, the resolved placeholder
// types, and every argument checked, typed and laid out. Both backends generate their
// source from this; user_kernel_source.h has the parts they share.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "backend/backend.h"

namespace copper::backend {

enum class UserArgKind : std::uint8_t {
  array,   // indexed by the loop: broadcast to the loop shape (stride 0 along broadcast axes)
  raw,     // the whole array, indexed by the user's code
  scalar,  // a value passed to the kernel
};

struct UserKernelArg {
  std::string name;
  DType dtype;
  UserArgKind kind;
  bool is_const;                 // inputs are const unless declared _non_const
  std::string ctype;             // the C++ spelling in user code: a placeholder ("T") or "float", ...
  ArrayView view{};              // array and raw
  unsigned char value[16] = {};  // scalar: the value's bytes in `dtype`
};

// The user's code, fixed when the kernel object is made.
struct UserKernelCode {
  std::uint64_t id = 0;  // unique per kernel object (memoizes compiled kernels per call signature)
  std::string name;
  std::string preamble;
  std::string defines;  // "#define NAME VALUE" lines from -D compile options
  // ElementwiseKernel
  std::string operation, loop_prep, after_loop;
  // ReductionKernel
  std::string map_expr, reduce_expr, post_map_expr, identity, reduce_type;
};

using UserTypedefs = std::vector<std::pair<std::string, DType>>;  // placeholder -> dtype, sorted

struct UserElementwiseJob {
  const UserKernelCode* code = nullptr;
  UserTypedefs typedefs;
  std::vector<UserKernelArg> args;  // parameter order: inputs, then outputs
  Shape shape;                      // the loop shape; never empty of elements
};

// Inputs' `array` views have shape kept + reduced (the reduced axes last); outputs'
// `array` views have shape kept. Every output element gets post_map of its row.
struct UserReductionJob {
  const UserKernelCode* code = nullptr;
  UserTypedefs typedefs;
  std::vector<UserKernelArg> args;  // inputs, then outputs
  int nin = 0;
  Shape kept, reduced;
};

}  // namespace copper::backend
