// cumsum and cumprod: one axis, or the flattened array in C order.
#include "api/reduction_support.h"
#include "copper/creation.hpp"
#include "copper/manipulation.hpp"

namespace copper {

namespace {

ndarray scan(ops::ScanOp op, const ndarray& a, std::optional<int> axis, std::optional<DType> dtype,
             const std::optional<ndarray>& out) {
  DType acc = dtype.value_or(api::default_sum_dtype(a.dtype()));
  ndarray in = a;
  int ax = 0;
  // Flattened, and 0-d arrays (NumPy treats them as 1-d of length 1 here).
  if (!axis || a.ndim() == 0) {
    if (a.ndim() == 0 && axis) normalize_axis(*axis, 1);
    if (!a.is_c_contiguous()) in = ascontiguousarray(a);
    in = ndarray(in.buffer(), in.dtype(), Shape{in.size()}, Strides{in.itemsize()}, in.offset());
  } else {
    ax = normalize_axis(*axis, a.ndim());
  }
  if (out) {
    api::common_device({&a, &*out}, a.device());
    if (!axis && out->shape() != in.shape()) throw ValueError("provided out is the wrong size for the accumulation.");
    if (out->shape() != in.shape())
      throw ValueError("operands could not be broadcast together with remapped shapes [original->remapped]: " +
                       shape_str(out->shape()) + "->" + shape_str(out->shape()) + " " + shape_str(in.shape()) + "->" +
                       shape_str(in.shape()) + " ");
  }
  // In place is fine for an identical view; any other overlap goes through a temporary.
  bool direct = out && out->dtype() == acc &&
                (!api::may_share_memory(*out, in) || (out->data() == in.data() && out->strides() == in.strides()));
  ndarray result = direct ? *out : api::allocate(in.shape(), acc, a.device());
  if (result.size()) api::backend_of(a).scan(op, backend::view_of(in), ax, backend::view_of(result));
  if (!out || direct) return result;
  api::deliver(result, *out);
  return *out;
}

}  // namespace

ndarray cumsum(const ndarray& a, std::optional<int> axis, std::optional<DType> dtype, const std::optional<ndarray>& out) {
  return scan(ops::ScanOp::cumsum, a, axis, dtype, out);
}
ndarray cumprod(const ndarray& a, std::optional<int> axis, std::optional<DType> dtype,
                const std::optional<ndarray>& out) {
  return scan(ops::ScanOp::cumprod, a, axis, dtype, out);
}

}  // namespace copper
