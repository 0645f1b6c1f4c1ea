// take, put, take_along_axis, put_along_axis, choose, select: gathers and scatters
// along one axis, or advanced indexing with index arrays built from aranges.
#include <numeric>

#include "api/array_factory.h"
#include "api/indexing_advanced.h"
#include "api/ufunc.h"
#include "copper/creation.hpp"
#include "copper/indexing.hpp"
#include "copper/reductions.hpp"
#include "copper/runtime.hpp"
#include "copper/ufuncs.hpp"

namespace copper {

namespace {

// An index array the backend takes (int32 or int64); other integers become int64.
// NumPy casts index arrays to intp with the 'same_kind' rule, so floats raise.
ndarray index_array(const ndarray& a) {
  if (a.dtype() == int64 || a.dtype() == int32) return a;
  if (is_integer(a.dtype()) || a.dtype() == bool_) return a.astype(int64);
  throw TypeError("Cannot cast array data from " + api::dtype_repr(a.dtype()) +
                  " to dtype('int64') according to the rule 'safe'");
}

// The arange of axis d of an ndim-dimensional index, shaped to broadcast along d only.
ndarray axis_arange(std::int64_t n, int d, int ndim, Device device) {
  Shape s(ndim, 1);
  s[d] = n;
  return arange(n, int64, device).reshape(s);
}

}  // namespace

ndarray take(const ndarray& a, const ndarray& indices, std::optional<int> axis, IndexMode mode,
             const std::optional<ndarray>& out) {
  // With an axis, a 0-d array is taken from as the one-element 1-d array (NumPy's axis check).
  ndarray src = axis && a.ndim() > 0 ? a : ravel(a);
  const int ax = axis ? normalize_axis(*axis, src.ndim()) : 0;
  api::common_device({&a, &indices}, a.device());
  ndarray idx = index_array(indices);
  Shape shape(src.shape().begin(), src.shape().begin() + ax);
  shape.insert(shape.end(), idx.shape().begin(), idx.shape().end());
  shape.insert(shape.end(), src.shape().begin() + ax + 1, src.shape().end());
  // NumPy checks out='s shape before any index. The result goes into out unsafely, as from
  // NumPy 2.5 (which warns where the kinds differ; the Python module gives that warning,
  // or NumPy 2.4's TypeError when that NumPy is installed).
  if (out && out->shape() != shape) throw ValueError("output array does not match result of ndarray.take");
  if (src.shape()[ax] == 0 && idx.size() > 0) throw IndexError("cannot do a non-empty take from an empty axes.");
  ndarray result = api::allocate(shape, a.dtype(), a.device());
  if (result.size() > 0) {
    std::vector<int> src_perm{ax}, out_perm;
    for (int d = 0; d < src.ndim(); ++d)
      if (d != ax) src_perm.push_back(d);
    for (int d = 0; d < idx.ndim(); ++d) out_perm.push_back(ax + d);
    for (int d = 0; d < result.ndim(); ++d)
      if (d < ax || d >= ax + idx.ndim()) out_perm.push_back(d);
    backend::IndexArrays ia{{backend::view_of(idx)}, {ax}, mode};
    api::backend_of(a).gather(backend::view_of(transpose(src, src_perm)), ia,
                              backend::view_of(transpose(result, out_perm)));
  }
  if (!out) return result;
  copyto(*out, result, Casting::unsafe);
  return *out;
}

void put(const ndarray& a, const ndarray& ind, const operand& v, IndexMode mode) {
  api::common_device({&a, &ind}, a.device());
  ndarray idx = index_array(ravel(ind));
  const std::int64_t n = idx.size();
  ndarray values = ravel(api::values_as(v, a.dtype(), a.device()));
  if (n == 0 || values.size() == 0) return;
  if (a.size() == 0) throw IndexError("cannot replace elements of an empty array");
  values = api::repeated_to(values, n);
  if (api::overlaps(values, a)) values = copy(values);
  // put works on a's elements in C order: through a flat view, or a C-ordered copy.
  const bool direct = a.is_c_contiguous();
  ndarray target = direct ? a.reshape({a.size()}) : copy(a, Order::C).reshape({a.size()});
  backend::IndexArrays ia{{backend::view_of(idx)}, {0}, mode};
  api::backend_of(a).scatter(backend::view_of(target), ia, backend::view_of(values), false);
  if (!direct) copyto(a, target.reshape(a.shape()), Casting::unsafe);
  // A GPU records a bad index for the next synchronization (docs/architecture.md), where
  // an unrelated later call would raise it. put's raise mode, NumPy's default and an
  // explicit request for the error, waits here so that the IndexError is put's own (CuPy's
  // put raises at the call too).
  if (mode == IndexMode::raise && a.device().type == DeviceType::cuda) synchronize(a.device());
}

namespace {

// NumPy's _make_along_axis_idx: the index arrays that pick indices[...] along `axis`.
Index along_axis_index(const ndarray& arr, const ndarray& indices, int axis) {
  if (!is_integer(indices.dtype())) throw IndexError("`indices` must be an integer array");
  if (arr.ndim() != indices.ndim())
    throw ValueError("`indices` and `arr` must have the same number of dimensions");
  Index index;
  for (int d = 0; d < arr.ndim(); ++d)
    index.push_back(d == axis ? indices : axis_arange(arr.shape()[d], d, arr.ndim(), arr.device()));
  return index;
}

}  // namespace

ndarray take_along_axis(const ndarray& arr, const ndarray& indices, std::optional<int> axis) {
  if (!axis) {
    if (indices.ndim() != 1) throw ValueError("when axis=None, `indices` must have a single dimension.");
    return take_along_axis(ravel(arr), indices, 0);
  }
  return arr[along_axis_index(arr, indices, normalize_axis(*axis, arr.ndim()))];
}

void put_along_axis(const ndarray& arr, const ndarray& indices, const operand& values, std::optional<int> axis) {
  if (!axis) {
    if (indices.ndim() != 1) throw ValueError("when axis=None, `indices` must have a single dimension.");
    if (!arr.is_c_contiguous()) throw ValueError("put_along_axis with axis=None needs a C-contiguous array");
    return put_along_axis(arr.reshape({arr.size()}), indices, values, 0);
  }
  ndarray target = arr;  // a handle: writes reach arr's memory
  target.assign(along_axis_index(arr, indices, normalize_axis(*axis, arr.ndim())), values);
}

ndarray choose(const ndarray& a, const std::vector<ndarray>& choices, const std::optional<ndarray>& out,
               IndexMode mode) {
  if (choices.empty()) throw ValueError("0-length sequence.");
  std::vector<const ndarray*> all{&a};
  std::vector<operand> typed;
  std::vector<Shape> shapes{a.shape()};
  for (const ndarray& c : choices) {
    all.push_back(&c);
    typed.emplace_back(c);
    shapes.push_back(c.shape());
  }
  api::common_device(all, a.device());
  const Shape shape = broadcast_shapes(shapes);
  const DType dtype = result_type(typed);
  const std::int64_t n = static_cast<std::int64_t>(choices.size());
  ndarray idx = index_array(a);
  if (mode == IndexMode::raise) {
    if (idx.size() > 0 && (amin(idx).item().to_int64() < 0 || amax(idx).item().to_int64() >= n))
      throw ValueError("invalid entry in choice array");
  } else if (mode == IndexMode::wrap) {
    idx = remainder(idx, n);
  } else {
    idx = clip(idx, 0, n - 1);
  }
  std::vector<ndarray> spread;
  for (const ndarray& c : choices) spread.push_back(broadcast_to(c.astype(dtype, Casting::unsafe, false), shape));
  ndarray stacked = stack(spread, 0);
  Index index{broadcast_to(idx, shape)};
  const int nd = static_cast<int>(shape.size());
  for (int d = 0; d < nd; ++d) index.push_back(axis_arange(shape[d], d, nd, a.device()));
  ndarray result = stacked[index];
  if (!out) return result;
  copyto(*out, result, Casting::unsafe);
  return *out;
}

ndarray select(const std::vector<ndarray>& condlist, const std::vector<ndarray>& choicelist, const operand& default_) {
  if (condlist.size() != choicelist.size())
    throw ValueError("list of cases must be same length as list of conditions");
  if (condlist.empty()) throw ValueError("select with an empty condition list is not possible");
  std::vector<operand> typed;
  for (const ndarray& c : choicelist) typed.emplace_back(c);
  typed.push_back(default_);
  const DType dtype = result_type(typed);
  std::vector<Shape> shapes;
  for (std::size_t i = 0; i < condlist.size(); ++i) {
    if (condlist[i].dtype() != bool_)
      throw TypeError("invalid entry " + std::to_string(i) + " in condlist: should be boolean ndarray");
    shapes.push_back(condlist[i].shape());
    shapes.push_back(choicelist[i].shape());
  }
  const Shape shape = broadcast_shapes(shapes);
  ndarray result = empty(shape, dtype, condlist[0].device());
  copyto(result, default_, Casting::unsafe);
  for (std::size_t i = condlist.size(); i-- > 0;) result = where(condlist[i], choicelist[i].astype(dtype), result);
  return result;
}

}  // namespace copper
