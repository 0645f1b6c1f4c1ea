// where(condition, x, y): NEP 50 promotion of x and y, every operand broadcast.
#include <array>

#include "api/array_factory.h"
#include "api/fusion_deferred.h"
#include "api/promotion.h"
#include "api/ufunc.h"
#include "copper/manipulation.hpp"
#include "copper/ufuncs.hpp"

namespace copper {

ndarray where(const operand& condition, const operand& x, const operand& y) {
  const operand* in[] = {&condition, &x, &y};
  const ndarray* arrays[3] = {};
  for (int k = 0; k < 3; ++k)
    if (in[k]->is_array()) arrays[k] = &in[k]->array();
  const Device device = api::common_device({arrays[0], arrays[1], arrays[2]}, default_device());
  const Shape shape = api::broadcast_inputs(in);
  // NumPy casts a weak scalar to the result unchecked here: where(c, int8_array, 500) wraps.
  const DType dtype = api::result_type({x, y}, false);
  // Complex conditions test both parts (a plain bool cast would drop the imaginary one).
  const operand cond = condition.is_array() && is_complex(condition.array().dtype()) ? operand(not_equal(condition, 0))
                                                                                    : condition;
  // Automatic fusion: operands already of their loop dtype (or scalars) join the chain.
  const operand* operands[] = {&cond, &x, &y};
  const DType wanted[] = {bool_, dtype, dtype};
  std::array<api::DeferredInput, 3> deferred;
  bool deferrable = true;
  for (int k = 0; k < 3; ++k) {
    if (!operands[k]->is_array()) deferred[k].scalar = &operands[k]->scalar();
    else if (operands[k]->array().dtype() == wanted[k]) deferred[k].array = &operands[k]->array();
    else deferrable = false;
  }
  ndarray result;
  if (deferrable && api::defer_where(deferred, dtype, shape, result)) return result;
  result = api::allocate(shape, dtype, device);
  if (result.size() == 0) return result;
  auto prepare = [&](api::KernelInput& k, const operand& v, DType t) {
    if (v.is_array()) k = api::array_input(v.array(), shape, t, nullptr);
    else api::scalar_input(k, v.scalar(), shape, t, device);
  };
  api::KernelInput c, a, b;
  prepare(c, cond, bool_);
  prepare(a, x, dtype);
  prepare(b, y, dtype);
  api::backend_of(result).where(c.view, a.view, b.view, backend::view_of(result));
  return result;
}

}  // namespace copper
