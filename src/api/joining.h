// Joining with NumPy's full keyword set (dtype=, casting=, out=), for the Python layer;
// the public copper::concatenate/stack forward here with the defaults.
#pragma once
#include <optional>
#include <vector>

#include "copper/manipulation.hpp"

namespace copper::api {

struct JoinOptions {
  std::optional<DType> dtype;
  Casting casting = Casting::same_kind;
  std::optional<ndarray> out;
};

ndarray concatenate(const std::vector<ndarray>& arrays, std::optional<int> axis, const JoinOptions& options);
ndarray stack(const std::vector<ndarray>& arrays, int axis, const JoinOptions& options);
ndarray hstack(const std::vector<ndarray>& arrays, const JoinOptions& options);
ndarray vstack(const std::vector<ndarray>& arrays, const JoinOptions& options);

}  // namespace copper::api
