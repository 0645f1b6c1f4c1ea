// The generated source of the histogram kernel (exposed for the NVRTC compile check).
#pragma once
#include <string>
#include <vector>

#include "backend/backend.h"

namespace copper::backend::cuda {

// Everything the kernel's source depends on; the kernel key packs the same fields.
struct HistogramKernelSpec {
  struct Axis {
    DType x;               // the values' dtype
    DType edges;           // int64, uint64, float32 or float64 (unused for index bins)
    HistogramBins bins;
  };
  std::vector<Axis> axes;  // 1 to 16
  bool weighted = false;
  DType weights = DType::float64;
  DType acc = DType::int64;  // out's dtype: int64, uint64, float64, complex128, or bool (bins hit)
  bool privatized = true;    // per-warp copies of the histogram in shared memory
  bool counts32 = true;      // privatized counts in 32-bit slots
  bool edges_shared = true;  // edges copied to shared memory
  bool vector_loads = false; // one axis, no weights, contiguous 16-byte-aligned values
};

// Kernel `copper_histogram(copper::kern::HistArgs)`.
std::string histogram_source(const HistogramKernelSpec& spec);

}  // namespace copper::backend::cuda
