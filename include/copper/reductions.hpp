// Reductions, statistics and scans over axes.
#pragma once
#include <initializer_list>
#include <optional>
#include <vector>

#include "copper/ndarray.hpp"

namespace copper {

// Which axes to reduce: none given means all (NumPy's axis=None).
class Axes {
 public:
  Axes() = default;
  Axes(int axis) : axes_(std::vector<int>{axis}) {}
  Axes(std::initializer_list<int> axes) : axes_(std::vector<int>(axes)) {}
  Axes(std::vector<int> axes) : axes_(std::move(axes)) {}
  bool all() const { return !axes_.has_value(); }
  const std::vector<int>& list() const { return *axes_; }

 private:
  std::optional<std::vector<int>> axes_;
};

struct ReduceOptions {
  std::optional<DType> dtype = std::nullopt;
  std::optional<ndarray> out = std::nullopt;
  bool keepdims = false;
  double ddof = 0;  // var and std only (NumPy takes fractional ddof too)
  // NumPy's initial=: the reduction's start value (sum, prod, min, max and their nan
  // forms; with it, min and max of an empty slice give it). TypeError elsewhere.
  std::optional<Scalar> initial = std::nullopt;
  // false: NumPy's initial=None, which takes the identity away too (sum, prod, min, max
  // and their nan forms): each slice starts from its first element, and an empty one raises.
  bool use_identity = true;
  // NumPy's where=: only elements where this bool array (broadcast to the input) is true
  // take part. min and max need initial= with it, as NumPy's.
  std::optional<ndarray> where = std::nullopt;
  // NumPy 2's mean= of var and std (and their nan forms): the mean, shaped as with
  // keepdims=True, used instead of computing it. TypeError elsewhere.
  std::optional<ndarray> mean = std::nullopt;
};

ndarray sum(const ndarray& a, const Axes& axis = {}, const ReduceOptions& opts = {});
ndarray prod(const ndarray& a, const Axes& axis = {}, const ReduceOptions& opts = {});
ndarray amin(const ndarray& a, const Axes& axis = {}, const ReduceOptions& opts = {});
ndarray amax(const ndarray& a, const Axes& axis = {}, const ReduceOptions& opts = {});
inline ndarray min(const ndarray& a, const Axes& axis = {}, const ReduceOptions& opts = {}) { return amin(a, axis, opts); }
inline ndarray max(const ndarray& a, const Axes& axis = {}, const ReduceOptions& opts = {}) { return amax(a, axis, opts); }
ndarray mean(const ndarray& a, const Axes& axis = {}, const ReduceOptions& opts = {});
ndarray var(const ndarray& a, const Axes& axis = {}, const ReduceOptions& opts = {});
ndarray std(const ndarray& a, const Axes& axis = {}, const ReduceOptions& opts = {});
ndarray all(const ndarray& a, const Axes& axis = {}, const ReduceOptions& opts = {});
ndarray any(const ndarray& a, const Axes& axis = {}, const ReduceOptions& opts = {});
ndarray count_nonzero(const ndarray& a, const Axes& axis = {}, bool keepdims = false);
ndarray nansum(const ndarray& a, const Axes& axis = {}, const ReduceOptions& opts = {});
ndarray nanprod(const ndarray& a, const Axes& axis = {}, const ReduceOptions& opts = {});
ndarray nanmin(const ndarray& a, const Axes& axis = {}, const ReduceOptions& opts = {});
ndarray nanmax(const ndarray& a, const Axes& axis = {}, const ReduceOptions& opts = {});
ndarray nanmean(const ndarray& a, const Axes& axis = {}, const ReduceOptions& opts = {});
// axis: one axis or none (flattened), as NumPy's.
ndarray argmin(const ndarray& a, std::optional<int> axis = std::nullopt, bool keepdims = false,
               const std::optional<ndarray>& out = std::nullopt);
ndarray argmax(const ndarray& a, std::optional<int> axis = std::nullopt, bool keepdims = false,
               const std::optional<ndarray>& out = std::nullopt);
ndarray cumsum(const ndarray& a, std::optional<int> axis = std::nullopt, std::optional<DType> dtype = std::nullopt,
               const std::optional<ndarray>& out = std::nullopt);
ndarray cumprod(const ndarray& a, std::optional<int> axis = std::nullopt, std::optional<DType> dtype = std::nullopt,
                const std::optional<ndarray>& out = std::nullopt);

}  // namespace copper
