// Automatic fusion on the GPU: a deferred chain of elementwise steps (fused_chain.h) as
// one generated kernel. Each thread takes one position (or one 16-byte vector of them),
// loads what the chain reads there before writing it, runs every step in registers, and
// stores the final value of every memory operand the chain writes; intermediates that no
// one else holds (scratch) never touch memory. Each step is the op catalogue's functor,
// as in the eager kernels, so values are the eager ones. Kernels are cached by the
// chain's structure (ops, dtypes, which operand is which, vector width), never by scalar
// values, which travel as kernel parameters. A chain ending in a reduction becomes that
// reduction's kernel, its input elements computed by the steps as the kernel reads them.
#pragma once
#include <string>

#include "backend/cuda/cuda_reduce.h"
#include "backend/fused_chain.h"

namespace copper::backend::cuda {

// The source run_chain compiles for `chain` (compile checks without a GPU); empty when
// the chain runs step by step instead (one buffer read as two dtypes, too many kernel
// parameters). `fp_ready` stands for whether errstate's slots exist on the device.
std::string fused_chain_source(const Chain& chain, bool fp_ready = true);
// The main kernel run_chain compiles for a chain ending in a reduction (chain.reduction)
// when the reduction takes `shape` and `mode`: the reduction's kernel template reading its
// input from the steps; empty when the reduction reads memory after the steps instead.
std::string fused_reduction_source(const Chain& chain, ReduceShape shape, ReduceMode mode, bool fp_ready = true);

}  // namespace copper::backend::cuda
