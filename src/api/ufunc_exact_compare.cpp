// Comparisons of signed integers with uint64, exact as in NumPy 2: the common type of the
// two is float64, which would lose every bit past 2**53 (2**63 == 2**63 - 1 would hold).
// Built from exact pieces on either backend: a negative signed value is below every
// uint64; the others compare as uint64.
#include "api/ufunc_exact_compare.h"

#include "copper/creation.hpp"

namespace copper::api {
namespace {

using ops::UfuncId;

bool is_signed_int(DType t) {
  return t == DType::int8 || t == DType::int16 || t == DType::int32 || t == DType::int64;
}

// op(y, x) == mirrored(op)(x, y).
UfuncId mirrored(UfuncId op) {
  switch (op) {
    case UfuncId::less: return UfuncId::greater;
    case UfuncId::less_equal: return UfuncId::greater_equal;
    case UfuncId::greater: return UfuncId::less;
    case UfuncId::greater_equal: return UfuncId::less_equal;
    default: return op;  // equal, not_equal
  }
}

ndarray call(UfuncId op, const operand& a, const operand& b, const UfuncOptions& opts = {}) {
  const operand* in[2] = {&a, &b};
  return apply_ufunc(op, in, opts);
}

}  // namespace

bool exact_signed_unsigned_comparison(UfuncId op, std::span<const operand* const> inputs,
                                      const std::array<DType, 3>& dtypes, const UfuncOptions& opts,
                                      ndarray* results) {
  const bool comparison = op == UfuncId::less || op == UfuncId::less_equal || op == UfuncId::greater ||
                          op == UfuncId::greater_equal || op == UfuncId::equal || op == UfuncId::not_equal;
  if (!comparison || inputs.size() != 2 || opts.dtype || !opts.signature.empty()) return false;
  int s = -1;  // the signed operand
  for (int k = 0; k < 2; ++k)
    if (dtypes[1 - k] == DType::uint64 && is_signed_int(dtypes[k])) s = k;
  if (s < 0) return false;
  for (const operand* x : inputs)
    if (!x->is_array() && x->scalar().weak()) return false;  // NEP 50 adapts those

  const UfuncId cmp = s == 0 ? op : mirrored(op);  // now cmp(x, y) with x signed
  const operand& x = *inputs[s];
  const operand& y = *inputs[1 - s];
  // Where x < 0 the answer is fixed: true for <, <= and !=, false for the others.
  const bool negative_answer = cmp == UfuncId::less || cmp == UfuncId::less_equal || cmp == UfuncId::not_equal;
  const UfuncId join = negative_answer ? UfuncId::logical_or : UfuncId::logical_and;
  UfuncOptions last;
  last.out = opts.out;
  last.casting = opts.casting;
  last.order = opts.order;
  if (!x.is_array()) {
    const Scalar& v = x.scalar();
    if (v.to_int64() < 0) {  // the same answer everywhere: an exact bool of the broadcast shape
      const ndarray like = call(UfuncId::equal, y, y);
      results[0] = call(UfuncId::logical_and, like, Scalar::typed(Scalar(negative_answer), DType::bool_), last);
      return true;
    }
    results[0] = call(cmp, Scalar::typed(Scalar(static_cast<std::uint64_t>(v.to_int64())), DType::uint64), y, last);
    return true;
  }
  const ndarray& xa = x.array();
  ndarray unsigned_cmp = call(cmp, xa.astype(DType::uint64, Casting::unsafe, false), y);
  ndarray sign = call(negative_answer ? UfuncId::less : UfuncId::greater_equal, xa, Scalar(0));
  results[0] = call(join, sign, unsigned_cmp, last);
  return true;
}

}  // namespace copper::api
