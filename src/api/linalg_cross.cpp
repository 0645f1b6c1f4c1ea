// cross: component formulas over broadcast views, as NumPy writes them (a missing
// third component of a 2-vector counts as zero).
#include "api/linalg_support.h"
#include "copper/linalg.hpp"
#include "copper/manipulation.hpp"
#include "copper/ufuncs.hpp"

namespace copper {
namespace {

using api::linalg_detail::named_axis;

ndarray component(const ndarray& v, std::int64_t i) { return v[{ellipsis, i}]; }

}  // namespace

ndarray cross(const ndarray& a_in, const ndarray& b_in, int axisa, int axisb, int axisc, std::optional<int> axis) {
  if (axis) axisa = axisb = axisc = *axis;
  const ndarray a = moveaxis(a_in, {named_axis("axisa", axisa, a_in.ndim())}, {-1});
  const ndarray b = moveaxis(b_in, {named_axis("axisb", axisb, b_in.ndim())}, {-1});
  const std::int64_t na = a.shape().back(), nb = b.shape().back();
  if ((na != 2 && na != 3) || (nb != 2 && nb != 3))
    throw ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)");
  const ndarray a0 = component(a, 0), a1 = component(a, 1), b0 = component(b, 0), b1 = component(b, 1);
  ndarray z = subtract(multiply(a0, b1), multiply(a1, b0));
  if (na == 2 && nb == 2) return z;
  ndarray x, y;
  if (na == 3 && nb == 3) {
    const ndarray a2 = component(a, 2), b2 = component(b, 2);
    x = subtract(multiply(a1, b2), multiply(a2, b1));
    y = subtract(multiply(a2, b0), multiply(a0, b2));
  } else if (na == 2) {  // a2 = 0
    const ndarray b2 = component(b, 2);
    x = multiply(a1, b2);
    y = negative(multiply(a0, b2));
  } else {  // b2 = 0
    const ndarray a2 = component(a, 2);
    x = negative(multiply(a2, b1));
    y = multiply(a2, b0);
  }
  // The three components share one broadcast shape (z's) and dtype.
  const ndarray result = stack(broadcast_arrays({x, y, z}), -1);
  return moveaxis(result, {-1}, {named_axis("axisc", axisc, result.ndim())});
}

}  // namespace copper
