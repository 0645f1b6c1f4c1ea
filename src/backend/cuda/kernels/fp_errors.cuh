// errstate's device side (cuda_fp_errors.h): a checked kernel's threads OR their flags
// per warp into the device word; a warp that sets a new flag writes it and its op id to
// the host record.
#pragma once

namespace copper::kern {

struct FpErrorRecord {
  volatile unsigned char flag[4];
  volatile unsigned op[4];
};

// Called once by every thread at the end of a checked kernel (all threads reach it).
__device__ __forceinline__ void record_fp_errors(unsigned* device_word, FpErrorRecord* host, unsigned flags,
                                                 unsigned op) {
  const unsigned warp_flags = __reduce_or_sync(__activemask(), flags);
  if (warp_flags == 0 || (threadIdx.x & 31u) != 0) return;
  const unsigned fresh = warp_flags & ~atomicOr(device_word, warp_flags);
  for (int k = 0; k < 4; ++k) {
    if (fresh & (1u << k)) {
      host->op[k] = op;
      __threadfence_system();
      host->flag[k] = 1;
    }
  }
}

}  // namespace copper::kern
