// Memory layouts of new arrays: NumPy's order= rules (C, F, A, K) turned into strides.
#pragma once
#include "copper/ndarray.hpp"

namespace copper::layout {

// NumPy's ISFORTRAN: F-contiguous but not C-contiguous (so 1-d and size-1 arrays are not).
bool is_fortran(const ndarray& a);

// Strides of a compact array of `shape` in C or F order (A and K need a source: strides_like).
Strides compact_strides(const Shape& shape, std::int64_t itemsize, Order order);

// The strides NumPy gives a new array of `shape` made "like" `source` (empty_like, copy,
// astype, array(copy=True)): C and F as named; A is F for a Fortran-ordered source, else C;
// K keeps the source's axis order by decreasing |stride| (C or F when the source is
// contiguous that way; C when `shape` has another number of dimensions).
Strides strides_like(const ndarray& source, const Shape& shape, std::int64_t itemsize, Order order);

// The axes (outermost first) in which NumPy's iterator walks `a` for order K (ravel,
// flatten): by decreasing |stride|, except that a zero (broadcast) stride compares with
// nothing, so such axes keep their C-order place. Negative strides are walked as they are.
std::vector<int> keep_order_axes(const ndarray& a);
// Compact strides that lay out an array of a's shape in that walk's order.
Strides keep_order_strides(const ndarray& a, std::int64_t itemsize);

// Whether `a`'s elements fill [data, data + nbytes) exactly, with positive strides in some
// axis order (C, F or any permutation): such an array can be copied as raw bytes.
bool is_dense(const ndarray& a);

}  // namespace copper::layout
