// ufunc.at: a[indices] op= values without buffering, so repeated indices accumulate.
// The loop dtype is NumPy's for op(a, values); the backend applies it in place
// (Backend::scatter_apply) and casts each result back to a's dtype.
#include "api/array_factory.h"
#include "api/indexing_advanced.h"
#include "api/ufunc.h"
#include "copper/creation.hpp"
#include "copper/indexing.hpp"

namespace copper {

namespace {

ops::UfuncId ufunc_by_name(std::string_view name) {
  static const std::pair<std::string_view, std::string_view> aliases[] = {
      {"divide", "true_divide"}, {"mod", "remainder"},  {"abs", "absolute"},   {"conj", "conjugate"},
      {"bitwise_not", "invert"}, {"bitwise_invert", "invert"}, {"pow", "power"}, {"atan2", "arctan2"},
      {"bitwise_left_shift", "left_shift"}, {"bitwise_right_shift", "right_shift"}};
  for (auto [alias, real] : aliases)
    if (name == alias) name = real;
  for (int i = 0; i < ops::num_ufuncs; ++i)
    if (ops::info(static_cast<ops::UfuncId>(i)).name == name) return static_cast<ops::UfuncId>(i);
  throw ValueError("no ufunc named '" + std::string(name) + "'");
}

}  // namespace

void ufunc_at(std::string_view op_name, const ndarray& a, const Index& indices, const std::optional<operand>& values) {
  const ops::UfuncId op = ufunc_by_name(op_name);
  const int nin = ops::info(op).nin;
  if (ops::info(op).nout != 1) throw ValueError("Only single output ufuncs supported at this time");
  if (nin > 2) throw ValueError("Only unary and binary ufuncs supported at this time");
  if (nin == 2 && !values) throw ValueError("second operand needed for ufunc");
  if (nin == 1 && values) throw ValueError("second operand provided when ufunc is unary");

  const operand target(a);
  const operand* inputs[2] = {&target, values ? &*values : nullptr};
  std::array<DType, 3> dtypes = api::operand_dtypes(std::span<const operand* const>(inputs, nin));
  bool weak[2] = {false, nin == 2 && !values->is_array() && values->scalar().weak()};
  const DType loop =
      api::resolve_loop(op, std::span<const DType>(dtypes.data(), nin), std::span<const bool>(weak, nin), {});

  if (!api::is_advanced(indices)) {  // a basic view: no target repeats, one elementwise call
    ndarray view = a[indices];
    UfuncOptions opts{view, std::nullopt, Casting::unsafe};
    std::vector<const operand*> in{&target};
    const operand view_op(view);
    in[0] = &view_op;
    if (nin == 2) in.push_back(&*values);
    api::apply_ufunc(op, in, opts);
    return;
  }

  api::AdvancedIndex plan = api::plan_advanced(a, indices, false);
  const Shape shape = api::advanced_result_shape(plan);
  backend::Backend& be = api::backend_of(a);
  ndarray dst = transpose(plan.view, api::indexed_axes_first(plan));
  if (nin == 1) {
    if (shape_size(shape) > 0) be.scatter_apply(op, loop, backend::view_of(dst), api::index_arrays(plan), nullptr);
    return;
  }
  ndarray v;
  if (values->is_array()) {
    api::common_device({&a, &values->array()}, a.device());
    v = values->array().astype(loop, Casting::unsafe, false);
    if (api::overlaps(v, a)) v = copy(v);
  } else {
    v = empty({}, loop, a.device());
    copyto(v, *values, Casting::unsafe);
  }
  ndarray spread;
  try {
    spread = broadcast_to(v, shape);
  } catch (const ValueError&) {
    throw ValueError("array is not broadcastable to correct shape");
  }
  if (spread.size() == 0) return;
  ndarray ordered = transpose(spread, api::b_axes_first(plan));
  const backend::ArrayView vals = backend::view_of(ordered);
  be.scatter_apply(op, loop, backend::view_of(dst), api::index_arrays(plan), &vals);
}

}  // namespace copper
