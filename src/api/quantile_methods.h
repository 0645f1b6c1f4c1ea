// numpy.quantile's methods as arithmetic on arrays: which sorted positions each
// quantile reads, and the weight between them (NumPy's _QuantileMethods, step for step,
// in q's dtype, so the positions and weights are NumPy's bit for bit).
#pragma once
#include <optional>

#include "copper/statistics.hpp"

namespace copper::api {

// The sorted positions (int64, in [0, n)) a quantile reads, and how to combine them.
struct QuantilePick {
  ndarray previous;              // the position read when there is no interpolation
  ndarray next;                  // == previous for discrete picks
  std::optional<ndarray> gamma;  // the weight of `next` (q's dtype); none for discrete picks
};

// `n`: the count of sorted values per row: a weak Python-int scalar (the same for every
// row) or an array already in q's dtype (NaN-skipping forms: one per row). `q`: the
// quantiles (any real dtype; bool counts as integer), shaped to broadcast against n.
// `inexact_data`: NaN positions (a NaN q) mean the last value, as NumPy's.
QuantilePick quantile_pick(QuantileMethod method, const operand& n, const ndarray& q, bool inexact_data);

}  // namespace copper::api
