// Shape manipulation, joining and splitting, casting and copying.
#pragma once
#include <optional>
#include <vector>

#include "copper/ndarray.hpp"

namespace copper {

// A view whenever NumPy gives one; -1 in `shape` is inferred. order: C, F or A (F when a is
// Fortran-ordered); K raises ValueError as in NumPy.
ndarray reshape(const ndarray& a, const Shape& shape, Order order = Order::C);
// ravel/flatten K: the elements in the order they lie in memory (axes by decreasing |stride|).
ndarray ravel(const ndarray& a, Order order = Order::C);
ndarray flatten(const ndarray& a, Order order = Order::C);  // always a copy
ndarray transpose(const ndarray& a, std::optional<std::vector<int>> axes = std::nullopt);
ndarray swapaxes(const ndarray& a, int axis1, int axis2);
ndarray moveaxis(const ndarray& a, const std::vector<int>& source, const std::vector<int>& destination);
ndarray squeeze(const ndarray& a, std::optional<std::vector<int>> axis = std::nullopt);
ndarray expand_dims(const ndarray& a, const std::vector<int>& axis);
ndarray broadcast_to(const ndarray& a, const Shape& shape);  // read-only view in NumPy
std::vector<ndarray> broadcast_arrays(const std::vector<ndarray>& arrays);
Shape broadcast_shapes(const std::vector<Shape>& shapes);   // ValueError with NumPy's message
// numpy.lib.stride_tricks: a view of x's memory with the given shape and byte strides
// (defaults: x's shape; x's strides, or C strides for a C-contiguous x). Unlike NumPy,
// ValueError when the view would reach outside x's memory.
ndarray as_strided(const ndarray& x, std::optional<Shape> shape = std::nullopt,
                   std::optional<Strides> strides = std::nullopt);
// Every window of window_shape over `axis` (all axes when absent; repeats allowed) as a view:
// x's axes shortened to the window positions, then one axis per window entry.
ndarray sliding_window_view(const ndarray& x, const Shape& window_shape,
                            std::optional<std::vector<int>> axis = std::nullopt);

ndarray concatenate(const std::vector<ndarray>& arrays, std::optional<int> axis = 0);
ndarray stack(const std::vector<ndarray>& arrays, int axis = 0);
ndarray hstack(const std::vector<ndarray>& arrays);
ndarray vstack(const std::vector<ndarray>& arrays);
std::vector<ndarray> split(const ndarray& a, std::int64_t sections, int axis = 0);
std::vector<ndarray> split(const ndarray& a, const std::vector<std::int64_t>& indices, int axis = 0);
std::vector<ndarray> array_split(const ndarray& a, std::int64_t sections, int axis = 0);
std::vector<ndarray> array_split(const ndarray& a, const std::vector<std::int64_t>& indices, int axis = 0);

// A copy in `dtype` laid out as `order` says (K: a's axis order); with copy=false, a itself
// when its dtype and layout already fit.
ndarray astype(const ndarray& a, DType dtype, Casting casting = Casting::unsafe, bool copy = true,
               Order order = Order::K);
// Copies src into dst with broadcasting; TypeError if src's dtype can't be cast under `casting`.
void copyto(const ndarray& dst, const operand& src, Casting casting = Casting::same_kind);
// Only where `where` (a boolean array broadcast to dst, or any scalar by its truth value)
// is true; TypeError for a non-boolean array, as NumPy's 'safe' cast to bool.
void copyto(const ndarray& dst, const operand& src, Casting casting, const operand& where);
ndarray flip(const ndarray& a, std::optional<std::vector<int>> axis = std::nullopt);
ndarray fliplr(const ndarray& a);  // ValueError below 2-d
ndarray flipud(const ndarray& a);  // ValueError below 1-d
ndarray roll(const ndarray& a, const std::vector<std::int64_t>& shift,
             std::optional<std::vector<int>> axis = std::nullopt);
ndarray repeat(const ndarray& a, const std::vector<std::int64_t>& repeats, std::optional<int> axis = std::nullopt);
ndarray tile(const ndarray& a, const std::vector<std::int64_t>& reps);
// Views with at least 1, 2 or 3 dimensions (NumPy's placement of the new axes).
ndarray atleast_1d(const ndarray& a);
ndarray atleast_2d(const ndarray& a);
ndarray atleast_3d(const ndarray& a);

// NumPy's a.byteswap(inplace): every element's bytes in reverse order (each part of a
// complex number on its own). In place it writes `a` and returns it; else a new array.
ndarray byteswap(const ndarray& a, bool inplace = false);

// Normalizes a possibly negative axis; AxisError "axis 3 is out of bounds for array of dimension 2".
int normalize_axis(int axis, int ndim);

}  // namespace copper
