#include "backend/user_kernel_layout.h"

#include <cstddef>

namespace copper::backend {

UserElementwiseLayout user_elementwise_layout(const UserElementwiseJob& job) {
  UserElementwiseLayout l;
  std::vector<const Strides*> strides;
  for (std::size_t k = 0; k < job.args.size(); ++k) {
    if (job.args[k].kind != UserArgKind::array) continue;
    l.arrays.push_back(static_cast<int>(k));
    strides.push_back(&job.args[k].view.strides);
    l.contiguous = l.contiguous && c_contiguous(job.args[k].view);
  }
  if (!l.contiguous) l.layout = collapse_layout(job.shape, strides);
  return l;
}

UserReductionLayout user_reduction_layout(const UserReductionJob& job) {
  UserReductionLayout l;
  for (int k = 0; k < static_cast<int>(job.args.size()); ++k) {
    const UserKernelArg& a = job.args[k];
    if (a.kind != UserArgKind::array) continue;
    (k < job.nin ? l.inputs : l.outputs).push_back(k);
    l.contiguous = l.contiguous && c_contiguous(a.view);
  }
  if (l.contiguous) return l;
  // Inputs' strides split at the kept/reduced boundary; outputs have only kept axes.
  const std::size_t nk = job.kept.size();
  std::vector<Strides> in_kept, in_red;
  for (int k : l.inputs) {
    const Strides& s = job.args[k].view.strides;
    in_kept.emplace_back(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(nk));
    in_red.emplace_back(s.begin() + static_cast<std::ptrdiff_t>(nk), s.end());
  }
  std::vector<const Strides*> kept_strides, red_strides;
  for (std::size_t i = 0; i < in_kept.size(); ++i) {
    kept_strides.push_back(&in_kept[i]);
    red_strides.push_back(&in_red[i]);
  }
  for (int k : l.outputs) kept_strides.push_back(&job.args[k].view.strides);
  l.out_layout = collapse_layout(job.kept, kept_strides);
  l.red_layout = collapse_layout(job.reduced, red_strides);
  return l;
}

}  // namespace copper::backend
