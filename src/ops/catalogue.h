// The op catalogue: every elementwise op, reduction and scan named once, with the
// type facts the front end needs (which loop types exist, what they return).
// The loop tables are derived from the functors in scalar_ops.h, not typed twice.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

#include "copper/dtype.hpp"
#include "copper/ufunc_list.hpp"

namespace copper::ops {

enum class UfuncId : std::uint8_t {
#define COPPER_UFUNC_ID(name) name,
  COPPER_UNARY_UFUNCS(COPPER_UFUNC_ID) COPPER_BINARY_UFUNCS(COPPER_UFUNC_ID)
      COPPER_TERNARY_UFUNCS(COPPER_UFUNC_ID)
#undef COPPER_UFUNC_ID
};
inline constexpr int num_ufuncs = 0
#define COPPER_UFUNC_COUNT(name) +1
    COPPER_UNARY_UFUNCS(COPPER_UFUNC_COUNT) COPPER_BINARY_UFUNCS(COPPER_UFUNC_COUNT)
        COPPER_TERNARY_UFUNCS(COPPER_UFUNC_COUNT);
#undef COPPER_UFUNC_COUNT

struct UfuncInfo {
  std::string_view name;
  int nin;
  // out[t]: the output dtype of the loop over dtype t, or nullopt where the op has no such loop.
  std::optional<DType> out[num_dtypes];
};
const UfuncInfo& info(UfuncId op);
inline std::optional<DType> out_dtype(UfuncId op, DType loop) { return info(op).out[static_cast<int>(loop)]; }

// Every op functor, declared so tables can name them all; scalar_ops.h defines them.
// (An op whose functor is not yet defined simply has no loops.)
#define COPPER_DECLARE_FUNCTOR(name) struct name;
COPPER_UNARY_UFUNCS(COPPER_DECLARE_FUNCTOR)
COPPER_BINARY_UFUNCS(COPPER_DECLARE_FUNCTOR)
COPPER_TERNARY_UFUNCS(COPPER_DECLARE_FUNCTOR)
#undef COPPER_DECLARE_FUNCTOR

enum class ReduceOp : std::uint8_t { sum, prod, min, max, all, any, argmin, argmax, nansum, nanprod, nanmin, nanmax,
                                          l2norm /* sqrt of the sum of |x|^2: linalg.norm, real output */ };
enum class ScanOp : std::uint8_t { cumsum, cumprod };
std::string_view name(ReduceOp op);

}  // namespace copper::ops
