// Builds the ufunc tables by asking each functor, at compile time, which loop
// types it accepts and what it returns for them.
#include "ops/catalogue.h"

#include <array>

#include "ops/dtype_traits.h"
#include "ops/functor_traits.h"
#include "ops/scalar_ops.h"

namespace copper::ops {
namespace {

// The loop over T stores what functor_traits.h says it stores (float16 loops run the
// float32 functor and store float16); an op without a loop over T has no entry.
template <class Op, int N, class T>
constexpr std::optional<DType> loop_out() {
  if constexpr (has_loop<Op, N, T>) return dtype_v<stored_result_t<Op, N, T>>;
  else return std::nullopt;
}

template <class Op, int N, class... T>
UfuncInfo make_info(std::string_view name, type_list<T...>) {
  return UfuncInfo{name, N, {loop_out<Op, N, T>()...}};
}

const std::array<UfuncInfo, num_ufuncs>& table() {
  static const std::array<UfuncInfo, num_ufuncs> t = {
#define COPPER_INFO_1(name) make_info<ops::name, 1>(#name, all_types{}),
#define COPPER_INFO_2(name) make_info<ops::name, 2>(#name, all_types{}),
#define COPPER_INFO_3(name) make_info<ops::name, 3>(#name, all_types{}),
      COPPER_UNARY_UFUNCS(COPPER_INFO_1) COPPER_BINARY_UFUNCS(COPPER_INFO_2) COPPER_TERNARY_UFUNCS(COPPER_INFO_3)
#undef COPPER_INFO_1
#undef COPPER_INFO_2
#undef COPPER_INFO_3
  };
  return t;
}

}  // namespace

const UfuncInfo& info(UfuncId op) { return table()[static_cast<int>(op)]; }

std::string_view name(ReduceOp op) {
  static constexpr std::string_view names[] = {"sum", "prod", "min", "max", "all", "any", "argmin",
                                                "argmax", "nansum", "nanprod", "nanmin", "nanmax", "l2norm"};
  return names[static_cast<int>(op)];
}

}  // namespace copper::ops
