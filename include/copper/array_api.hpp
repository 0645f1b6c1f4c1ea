// Functions of the Python array API standard (2024.12) that NumPy 2 has under these names
// but copper did not yet, composed from copper's own operations.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "copper/ndarray.hpp"
#include "copper/reductions.hpp"

namespace copper {

// cumsum / cumprod with the standard's arguments: axis may be omitted only for 1-d input
// (ValueError otherwise; a 0-d input is scanned as 1-d, as NumPy's); include_initial puts
// the identity (0 or 1) first, so the axis grows by one.
ndarray cumulative_sum(const ndarray& x, std::optional<int> axis = std::nullopt,
                       std::optional<DType> dtype = std::nullopt, bool include_initial = false);
ndarray cumulative_prod(const ndarray& x, std::optional<int> axis = std::nullopt,
                        std::optional<DType> dtype = std::nullopt, bool include_initial = false);

// The last two axes swapped (a view); ValueError below 2-d.
ndarray matrix_transpose(const ndarray& x);
// sum(conj(x1) * x2) along `axis` (counted in the broadcast shape, negative from the
// end); the axis must have one length in both (ValueError), the others broadcast.
ndarray vecdot(const ndarray& x1, const ndarray& x2, int axis = -1);
// The views x[..., i, ...] along `axis`, in order.
std::vector<ndarray> unstack(const ndarray& x, int axis = 0);
// numpy.diff: the n-th forward difference along `axis` (not_equal for bool), after
// prepending/appending the given arrays (broadcast to length-1 slices along the axis).
ndarray diff(const ndarray& a, int n = 1, int axis = -1, const std::optional<ndarray>& prepend = std::nullopt,
             const std::optional<ndarray>& append = std::nullopt);
// numpy.meshgrid: coordinate arrays from 1-d (raveled) inputs; indexing "xy" (Cartesian,
// the first two output axes swapped) or "ij" (matrix). sparse keeps length-1 axes;
// copy=false returns broadcast views.
std::vector<ndarray> meshgrid(const std::vector<ndarray>& xi, std::string_view indexing = "xy", bool sparse = false,
                              bool copy = true);
// numpy.concat is concatenate.
ndarray concat(const std::vector<ndarray>& arrays, std::optional<int> axis = 0);

// The standard's dtype kinds: "bool", "signed integer", "unsigned integer", "integral",
// "real floating", "complex floating", "numeric" (ValueError for other names).
bool isdtype(DType dtype, std::string_view kind);

namespace linalg {
// The standard's linalg.vector_norm: axis none = all elements, one axis or several;
// ord any real (inf, -inf, 0 included). Real results (float32 for complex64).
ndarray vector_norm(const ndarray& x, const Axes& axis = {}, bool keepdims = false, double ord = 2.0);
}  // namespace linalg

}  // namespace copper
