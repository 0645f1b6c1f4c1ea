#include "backend/collapse_dims.h"

namespace copper::backend {

CollapsedDims collapse_dims(const Shape& shape, std::span<const Strides* const> strides) {
  const std::size_t n = strides.size();
  CollapsedDims l;
  l.strides.resize(n);
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;  // contributes nothing to any offset
    if (!l.shape.empty()) {
      // Merge into the previous (outer) dimension when every operand steps evenly across both.
      bool mergeable = true;
      for (std::size_t k = 0; k < n && mergeable; ++k)
        mergeable = l.strides[k].back() == (*strides[k])[d] * shape[d];
      if (mergeable) {
        l.shape.back() *= shape[d];
        for (std::size_t k = 0; k < n; ++k) l.strides[k].back() = (*strides[k])[d];
        continue;
      }
    }
    l.shape.push_back(shape[d]);
    for (std::size_t k = 0; k < n; ++k) l.strides[k].push_back((*strides[k])[d]);
  }
  if (l.shape.empty()) {
    l.shape.push_back(1);
    for (auto& s : l.strides) s.push_back(0);
  }
  return l;
}

}  // namespace copper::backend
