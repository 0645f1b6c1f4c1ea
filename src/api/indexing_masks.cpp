// Selection by masks: nonzero, flatnonzero, argwhere, compress, extract, place,
// putmask. Positions come from the backend's stream compaction (one host read of the
// count); a mask with one value to write is an elementwise where() with no count at all.
#include "api/array_factory.h"
#include "api/indexing_advanced.h"
#include "api/ufunc.h"
#include "copper/creation.hpp"
#include "copper/indexing.hpp"

namespace copper {

std::vector<ndarray> nonzero(const ndarray& a) {
  if (a.ndim() == 0) {
    throw ValueError(
        "Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead.");
  }
  return api::mask_positions(a);
}

ndarray flatnonzero(const ndarray& a) { return nonzero(ravel(a))[0]; }

ndarray argwhere(const ndarray& a) {
  backend::Backend& be = api::backend_of(a);
  backend::Selection sel = be.select_count(backend::view_of(a));
  ndarray out = api::allocate({sel.count, a.ndim()}, int64, a.device());
  if (out.size() > 0) be.select_coordinates(backend::view_of(a), sel, backend::view_of(out));
  return out;
}

ndarray compress(const ndarray& condition, const ndarray& a, std::optional<int> axis,
                 const std::optional<ndarray>& out) {
  if (condition.ndim() != 1) throw ValueError("condition must be a 1-d array");
  api::common_device({&a, &condition}, a.device());
  ndarray src = axis ? a : ravel(a);
  const int ax = axis ? normalize_axis(*axis, a.ndim()) : 0;
  return take(src, nonzero(condition)[0], ax, IndexMode::raise, out);
}

ndarray extract(const ndarray& condition, const ndarray& arr) {
  api::common_device({&arr, &condition}, arr.device());
  ndarray flags = ravel(condition), src = ravel(arr);
  if (flags.size() != src.size()) return take(src, nonzero(flags)[0]);
  backend::Backend& be = api::backend_of(arr);
  backend::Selection sel = be.select_count(backend::view_of(flags));
  ndarray out = api::allocate({sel.count}, arr.dtype(), arr.device());
  if (sel.count > 0) be.select_values(backend::view_of(flags), sel, backend::view_of(src), backend::view_of(out));
  return out;
}

void place(const ndarray& arr, const ndarray& mask, const ndarray& vals) {
  if (mask.size() != arr.size()) throw ValueError("place: mask and data must be the same size");
  api::common_device({&arr, &mask, &vals}, arr.device());
  const ndarray target = arr.ndim() == 0 ? arr.reshape({1}) : arr;
  std::vector<ndarray> positions = api::mask_positions(mask.reshape(target.shape()));
  const std::int64_t count = positions[0].size();
  if (count == 0) return;
  if (vals.size() == 0) throw ValueError("Cannot insert from an empty array!");
  ndarray values = api::repeated_to(ravel(vals.astype(arr.dtype(), Casting::unsafe, false)), count);
  if (api::overlaps(values, arr)) values = copy(values);
  backend::IndexArrays ia;
  for (int d = 0; d < target.ndim(); ++d) {
    ia.arrays.push_back(backend::view_of(positions[d]));
    ia.axes.push_back(d);
  }
  api::backend_of(arr).scatter(backend::view_of(target), ia, backend::view_of(values), true);
}

void putmask(const ndarray& a, const ndarray& mask, const operand& values) {
  if (mask.size() != a.size()) throw ValueError("putmask: mask and data must be the same size");
  api::common_device({&a, &mask}, a.device());
  if (values.is_array() && !can_cast(values.array().dtype(), a.dtype(), Casting::safe)) {
    throw TypeError("Cannot cast array data from " + api::dtype_repr(values.array().dtype()) + " to " +
                    api::dtype_repr(a.dtype()) + " according to the rule 'safe'");
  }
  ndarray v = ravel(api::values_as(values, a.dtype(), a.device()));
  if (v.size() == 0 || a.size() == 0) return;
  // Element i of a takes values[i % len(values)] where the mask holds.
  ndarray spread = v.size() == 1 ? broadcast_to(v.reshape({}), a.shape()) : api::repeated_to(v, a.size()).reshape(a.shape());
  if (api::overlaps(spread, a)) spread = copy(spread);
  ndarray flags = mask.dtype() == bool_ ? mask.reshape(a.shape()) : mask.astype(bool_).reshape(a.shape());
  api::backend_of(a).where(backend::view_of(flags), backend::view_of(spread), backend::view_of(a),
                           backend::view_of(a));
}

}  // namespace copper
