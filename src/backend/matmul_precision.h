// Whether float32 matmul may use TF32 tensor cores (copper.set_matmul_precision('tf32')).
// Off by default: NumPy semantics are full float32 products.
#pragma once
#include <atomic>

namespace copper::backend {
inline std::atomic<bool>& matmul_allows_tf32() {
  static std::atomic<bool> allowed{false};
  return allowed;
}
}  // namespace copper::backend
