// errstate on the GPU without a per-op synchronization. While the calling thread watches
// some floating-point errors (copper/errstate.hpp), ufunc kernels are generated in a
// checked variant (kFamilyUfuncChecked) that classifies every result (ops/scalar_fp_errors.h)
// and ORs the flags of each warp into a per-device word in device memory. The first warp
// to set a flag also writes it, with the op's id, into a small record in mapped host
// memory, so a flag costs one PCIe write however many elements raise it. Every
// synchronization of a stream (a host read, synchronize()) already checks the index-error
// record (cuda_index_errors.h); it now also reads this host record (a few loads, no
// device round trip), clears it, and reports the errors under the calling thread's
// errstate. Leaving an errstate block synchronizes the devices that ran checked kernels
// in it, so their errors are reported under the block's modes.
#pragma once
#include "backend/cuda/cuda_context.h"

namespace copper::backend::cuda {

// Mirrors copper::kern::FpErrorRecord (kernels/fp_errors.cuh): in mapped host memory.
struct FpErrorRecord {
  volatile unsigned char flag[4];  // divide, overflow, underflow, invalid
  volatile unsigned op[4];         // the UfuncId that set each flag last
};

struct FpErrorSlots {
  unsigned* device_word;     // device memory: the flags already recorded
  FpErrorRecord* host;       // mapped host memory, readable after a synchronization
};

// Whether checked kernels can run on `device`: the slots exist, or are made now. While a
// CUDA graph capture runs and they do not exist yet, false: that op runs unchecked.
bool fp_error_slots_ready(int device);
// The slots of `device` (fp_error_slots_ready first). Marks the device as having checked
// work for the next errstate exit.
FpErrorSlots fp_error_slots(int device);
// For a stream just synchronized: reports the errors its device's kernels recorded.
void report_fp_errors_if_any(copper::cuda::StreamState& stream);

}  // namespace copper::backend::cuda
