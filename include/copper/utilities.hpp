// NumPy's small array utilities that have a C++ form: whether two arrays share memory.
// (Shape queries are ndarray methods; dtype utilities live in copper/dtype.hpp.)
#pragma once
#include <cstdint>

#include "copper/errors.hpp"
#include "copper/ndarray.hpp"

namespace copper {

// numpy.exceptions.TooHardError: shares_memory's search went past max_work.
struct TooHardError : RuntimeError { using RuntimeError::RuntimeError; };

// numpy.shares_memory: whether some byte belongs to an element of both arrays (same
// buffer, overlapping elements). max_work < 0 solves exactly; 0 only compares the byte
// extents, throwing TooHardError when they overlap; > 0 bounds the search and throws
// TooHardError past it.
bool shares_memory(const ndarray& a, const ndarray& b, std::int64_t max_work = -1);
// numpy.may_share_memory: shares_memory, true where that is undecided (by default, with
// max_work 0, whether the byte extents overlap).
bool may_share_memory(const ndarray& a, const ndarray& b, std::int64_t max_work = 0);
// numpy.isfortran: Fortran-contiguous and not C-contiguous.
bool isfortran(const ndarray& a);

}  // namespace copper
