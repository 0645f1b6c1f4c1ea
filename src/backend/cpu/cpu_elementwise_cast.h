// Elementwise loops over inputs that are not of the loop's dtype, converted block by block
// (Backend::casts_inputs).
#pragma once
#include <span>

#include "backend/cpu/cpu_elementwise_loops.h"

namespace copper::backend::cpu {

// fn (the loop of some op over its dtype) over `in` and `out`, where input k has dtype
// in[k].dtype but fn reads want[k]: blocks of those inputs are converted first. Workers get
// the calling thread's errstate watch (fp_watch).
void elementwise_casting(LoopFn fn, std::span<const ArrayView> in, std::span<const DType> want,
                         std::span<const ArrayView> out);

}  // namespace copper::backend::cpu
