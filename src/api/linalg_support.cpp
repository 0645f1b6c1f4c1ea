#include "api/linalg_support.h"

#include <algorithm>

#include "backend/backend.h"
#include "copper/creation.hpp"
#include "copper/linalg_errstate.hpp"
#include "copper/manipulation.hpp"

namespace copper::api::linalg_detail {

DType result_type(std::initializer_list<const ndarray*> arrays) {
  bool is_double = false, complex = false;
  for (const ndarray* a : arrays) {
    const DType t = a->dtype();
    if (t == float16) throw TypeError("array type float16 is unsupported in linalg");
    if (is_complex(t)) complex = true;
    if (!is_inexact(t) || t == float64 || t == complex128) is_double = true;
  }
  if (complex) return is_double ? complex128 : complex64;
  return is_double ? float64 : float32;
}

DType compute_type(DType result, Device device) {
  if (device.type == DeviceType::cpu) return is_complex(result) ? complex128 : float64;
  return result;
}

int named_axis(const char* name, int axis, int ndim) {
  if (axis < -ndim || axis >= ndim)
    throw AxisError(std::string(name) + ": axis " + std::to_string(axis) + " is out of bounds for array of dimension " +
                    std::to_string(ndim));
  return axis < 0 ? axis + ndim : axis;
}

void check_stacked_2d(const ndarray& a) {
  if (a.ndim() < 2)
    throw LinAlgError(std::to_string(a.ndim()) + "-dimensional array given. Array must be at least two-dimensional");
}

void check_stacked_square(const ndarray& a) {
  check_stacked_2d(a);
  if (a.shape()[a.ndim() - 1] != a.shape()[a.ndim() - 2])
    throw LinAlgError("Last 2 dimensions of the array must be square");
}

backend::DenseSolver& solver_for(Device device) {
  backend::DenseSolver* s = backend::backend_for(device).dense_solver();
  if (!s) throw RuntimeError("copper.linalg: no dense solver for device " + device.str());
  return *s;
}

ndarray packed_copy(const ndarray& a, DType t, bool transposed) {
  const std::int64_t r = a.shape()[a.ndim() - 2], c = a.shape().back();
  const std::int64_t count = shape_size(batch_of(a));
  // A new C-contiguous array (a transposing copy when asked), so the solver may overwrite it.
  const ndarray packed = astype(transposed ? swapaxes(a, -1, -2) : a, t, Casting::unsafe, true, Order::C);
  return transposed ? reshape(packed, {count, c, r}) : reshape(packed, {count, r, c});
}

backend::MatrixStack column_major(const ndarray& packed) {
  return backend::MatrixStack{packed.data(), packed.dtype(), packed.shape()[0], packed.shape()[2], packed.shape()[1]};
}

ndarray new_info(std::int64_t count, Device device, std::int64_t rows) {
  return zeros({rows, count}, int32, device);
}

std::vector<int> read_info(const ndarray& info) {
  std::vector<int> host(static_cast<std::size_t>(info.size()));
  if (!host.empty()) info.copy_to_host(host.data());
  return host;
}

void raise_if_failed(const std::vector<int>& info, const char* message) {
  if (copper::linalg::get_error_mode() == copper::linalg::ErrorMode::ignore) return;
  if (std::any_of(info.begin(), info.end(), [](int v) { return v > 0; })) throw LinAlgError(message);
}

void raise_if_failed(const ndarray& info, const char* message) {
  if (copper::linalg::get_error_mode() == copper::linalg::ErrorMode::raise) raise_if_failed(read_info(info), message);
}

}  // namespace copper::api::linalg_detail
