// Range-creation details the Python layer needs beyond the public API.
#pragma once
#include <optional>

#include "copper/creation.hpp"

namespace copper::api {

// linspace's spacing as NumPy's retstep returns it (a value of the computation
// dtype); nullopt where NumPy returns NaN (fewer than two intervals).
std::optional<Scalar> linspace_step(const Scalar& start, const Scalar& stop, std::int64_t num, bool endpoint);

}  // namespace copper::api
