// searchsorted and digitize: dtype and shape checks here, the binary searches in
// Backend::searchsorted (NumPy's order: NaNs last, complex lexicographic).
#include <cctype>

#include "api/promotion.h"
#include "api/sorting_support.h"
#include "copper/creation.hpp"
#include "copper/errors.hpp"
#include "copper/manipulation.hpp"
#include "copper/reductions.hpp"
#include "copper/sorting.hpp"
#include "copper/ufuncs.hpp"

namespace copper {

namespace {

bool right_side(const std::string& side) {
  if (side == "left") return false;
  if (side == "right") return true;
  const char c = side.empty() ? '\0' : static_cast<char>(std::tolower(static_cast<unsigned char>(side[0])));
  if (c == 'l' || c == 'r') throw ValueError("search side must be one of 'left' or 'right'");
  throw ValueError("search side must be 'left' or 'right' (got '" + side + "')");
}

// The dtype both sides are compared in: NumPy's result type, where a Python int too big
// for the array's integer type widens the comparison instead of failing.
DType search_dtype(const ndarray& a, const operand& v) {
  try {
    return api::result_type({a, v}, true);
  } catch (const OverflowError&) {
    return promote_types(a.dtype(), v.scalar().dtype());
  }
}

ndarray as_array(const operand& v, DType dtype, Device device) {
  if (v.is_array()) return v.array().dtype() == dtype ? v.array() : astype(v.array(), dtype);
  return full(Shape{}, Scalar::typed(v.scalar(), dtype), dtype, device);
}

}  // namespace

ndarray searchsorted(const ndarray& a, const operand& v, const std::string& side, const std::optional<ndarray>& sorter) {
  const bool right = right_side(side);
  if (a.ndim() == 0) throw ValueError("object of too small depth for desired array");
  if (a.ndim() > 1) throw ValueError("object too deep for desired array");
  const Device device = a.device();
  if (v.is_array()) api::common_device({&a, &v.array()}, device);
  ndarray sorted = a;
  if (sorter) {
    api::common_device({&a, &*sorter}, device);
    if (!is_integer(sorter->dtype()) && sorter->dtype() != DType::bool_)
      throw TypeError("sorter must only contain integers");
    if (sorter->ndim() != 1) throw TypeError("could not parse sorter argument");
    if (sorter->size() != a.size()) throw ValueError("sorter.size must equal a.size");
    const ndarray idx = astype(*sorter, DType::int64);
    if (idx.size()) {
      const bool in_range = all(logical_and(greater_equal(idx, 0), less(idx, a.size()))).item().to_bool();
      if (!in_range) throw ValueError("Sorter index out of range.");
    }
    sorted = api::take_first_axis(a, idx);
  }
  const DType t = search_dtype(a, v);
  sorted = ascontiguousarray(sorted, t);
  const ndarray q = ascontiguousarray(as_array(v, t, device));
  ndarray out = api::allocate(q.shape(), DType::int64, device);
  if (out.size())
    api::backend_of(out).searchsorted(backend::view_of(sorted), backend::view_of(q), right, backend::view_of(out));
  return out;
}

ndarray digitize(const operand& x, const ndarray& bins, bool right) {
  const DType xt = x.is_array() ? x.array().dtype() : x.scalar().dtype();
  if (is_complex(xt) || is_complex(bins.dtype())) throw TypeError("x may not be complex");
  if (bins.ndim() == 0) throw ValueError("object of too small depth for desired array");
  if (bins.ndim() > 1) throw ValueError("object too deep for desired array");
  const std::int64_t n = bins.size();
  bool increasing = true;
  if (n > 1) {
    const ndarray head = bins[Index{Slice(0, n - 1)}], tail = bins[Index{Slice(1, n)}];
    increasing = all(greater_equal(tail, head)).item().to_bool();
    if (!increasing && !all(less_equal(tail, head)).item().to_bool())
      throw ValueError("bins must be monotonically increasing or decreasing");
  }
  // A value on an edge goes left of it when right=False (searchsorted's "right" side).
  const std::string side = right ? "left" : "right";
  if (increasing) return searchsorted(bins, x, side);
  const ndarray reversed = flip(bins);
  return subtract(n, searchsorted(reversed, x, side));
}

}  // namespace copper
