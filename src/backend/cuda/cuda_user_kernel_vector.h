// The vector variant of contiguous ElementwiseKernel kernels: each thread loads V
// consecutive elements of every operand as one aligned vector (16 bytes for the widest),
// runs the user's operation V times on scalar locals, and stores the written operands
// as vectors. Whether the user's code allows it is decided from its tokens once per
// kernel and call signature; which V is decided per call from the pointers.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "backend/user_kernel_job.h"
#include "backend/user_kernel_source.h"

namespace copper::backend::cuda {

// How the operation uses each argument (indexed like job.args; only `array` ones count).
struct UserOperandUse {
  bool used = false;        // named in the operation
  bool write_only = false;  // one top-level statement `name = ...;` and no other mention: not loaded
  int last_use = -1;        // token index of the last mention
  int assign_end = -1;      // write_only: token index ending that statement (';' or ',')
};

struct UserVectorTraits {
  bool allowed = false;  // the code may run several elements per thread
  std::vector<UserOperandUse> use;
  // load: the vector path reads the operand; store: it writes it back.
  bool load(std::size_t k) const { return use[k].used && !use[k].write_only; }
};

UserVectorTraits user_vector_traits(const UserElementwiseJob& job);

// Elements per thread for a contiguous-class call: 16 bytes over the widest used operand,
// halved until every used operand is aligned to its vector; 1 (the one-element path)
// when the code does not allow it, no operand is used, or operands alias in a way the
// deferred stores would change.
int user_vector_width(const UserElementwiseJob& job, const UserVectorTraits& traits);

// The loop of the vector variant (from after loop_prep to before after_loop) for the
// `array` arguments `arrays` (job.args indices), with 32-bit (`_I` unsigned) or 64-bit indices.
void write_vector_loop(SourceWriter& w, const UserElementwiseJob& job, const UserVectorTraits& traits,
                       const std::vector<int>& arrays, int vec);

}  // namespace copper::backend::cuda
