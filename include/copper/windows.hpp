// NumPy's window functions (src/api/windows.cpp): float64 arrays of M points made on
// `device`; empty for M < 1, [1.0] for M == 1.
#pragma once
#include "copper/ndarray.hpp"

namespace copper {

ndarray bartlett(std::int64_t M, Device device = default_device());
ndarray blackman(std::int64_t M, Device device = default_device());
ndarray hamming(std::int64_t M, Device device = default_device());
ndarray hanning(std::int64_t M, Device device = default_device());
ndarray kaiser(std::int64_t M, double beta, Device device = default_device());

}  // namespace copper
