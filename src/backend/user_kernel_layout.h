// How a user kernel's loop reaches its `array` arguments, the same on both devices:
// which arguments the loop indexes, whether all are C-contiguous (direct indexing) and
// otherwise their collapsed strided layout. The backends' plans extend these.
#pragma once
#include <vector>

#include "backend/user_kernel_job.h"
#include "backend/user_kernel_source.h"

namespace copper::backend {

struct UserElementwiseLayout {
  bool contiguous = true;
  std::vector<int> arrays;  // indices of `array` arguments, in layout order
  UserLayout layout;        // strided class only
};
UserElementwiseLayout user_elementwise_layout(const UserElementwiseJob& job);

struct UserReductionLayout {
  bool contiguous = true;
  std::vector<int> inputs, outputs;  // indices of `array` arguments
  // Strided class only: kept axes (inputs, then outputs) and reduced axes (inputs).
  UserLayout out_layout, red_layout;
};
UserReductionLayout user_reduction_layout(const UserReductionJob& job);

}  // namespace copper::backend
