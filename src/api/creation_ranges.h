// Range-creation details the Python layer needs beyond the public API.
#pragma once
#include <optional>

#include "copper/creation.hpp"

namespace copper::api {

// linspace's spacing as NumPy's retstep returns it (a value of the computation
// dtype); nullopt where NumPy returns NaN (fewer than two intervals).
std::optional<Scalar> linspace_step(const Scalar& start, const Scalar& stop, std::int64_t num, bool endpoint);
// The same for array bounds: the per-element steps (NaN where NumPy's step is undefined).
ndarray linspace_steps(const operand& start, const operand& stop, std::int64_t num, bool endpoint, Device device);

}  // namespace copper::api
