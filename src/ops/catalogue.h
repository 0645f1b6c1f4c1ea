// The op catalogue: every elementwise op, reduction and scan named once, with the
// type facts the front end needs (which loop types exist, what they return).
// The loop tables are derived from the functors in scalar_ops.h, not typed twice.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "copper/dtype.hpp"
#include "copper/ufunc_id.hpp"

namespace copper::ops {

using copper::UfuncId;
using copper::num_ufuncs;

// A reduction's starting value (NumPy's ufunc.identity); none for ops without one.
enum class Identity : std::uint8_t { none, zero, one, minus_one, true_, false_, minus_inf };

struct UfuncInfo {
  std::string_view name;
  int nin;
  int nout;
  // out[t]: the (first) output dtype of the loop over dtype t, or nullopt where the op has no such loop.
  std::optional<DType> out[num_dtypes];
  std::optional<DType> out2[num_dtypes];  // the second output's dtype (nout == 2)
  DType in[3][num_dtypes];                // input k's dtype in the loop over t: t, but ldexp's int64 exponent
  Identity identity;
  bool reorderable;  // reduce may combine elements in any order (several axes at once)
};
const UfuncInfo& info(UfuncId op);
inline std::optional<DType> out_dtype(UfuncId op, DType loop) { return info(op).out[static_cast<int>(loop)]; }
inline DType input_dtype(UfuncId op, DType loop, int k) { return info(op).in[k][static_cast<int>(loop)]; }
// NumPy's ufunc.types: "ii->i" per loop, in loop order.
std::vector<std::string> loop_signatures(UfuncId op);

// Every op functor, declared so tables can name them all; scalar_ops.h defines them.
// (An op whose functor is not yet defined simply has no loops.)
#define COPPER_DECLARE_FUNCTOR(name) struct name;
COPPER_UNARY_UFUNCS(COPPER_DECLARE_FUNCTOR)
COPPER_BINARY_UFUNCS(COPPER_DECLARE_FUNCTOR)
COPPER_TERNARY_UFUNCS(COPPER_DECLARE_FUNCTOR)
COPPER_UNARY2_UFUNCS(COPPER_DECLARE_FUNCTOR)
COPPER_BINARY2_UFUNCS(COPPER_DECLARE_FUNCTOR)
#undef COPPER_DECLARE_FUNCTOR

enum class ReduceOp : std::uint8_t { sum, prod, min, max, all, any, argmin, argmax, nansum, nanprod, nanmin, nanmax,
                                          l2norm /* sqrt of the sum of |x|^2: linalg.norm, real output */ };
enum class ScanOp : std::uint8_t { cumsum, cumprod };
std::string_view name(ReduceOp op);

}  // namespace copper::ops
