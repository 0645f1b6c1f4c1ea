// unique and the set functions, composed as NumPy's are: a sort (or stable argsort),
// run starts (not_equal of neighbours), their positions (Backend::flag_positions) and
// gathers (Backend::take_rows). Output sizes depend on data: one host read per compaction.
// Integers over a small range count instead of sorting (unique_by_counting).
#include "api/histogram_support.h"
#include "api/sorting_support.h"
#include "copper/creation.hpp"
#include "copper/errors.hpp"
#include "copper/manipulation.hpp"
#include "copper/reductions.hpp"
#include "copper/sorting.hpp"
#include "copper/ufuncs.hpp"

namespace copper {

namespace {

const Slice kAllButFirst{1, std::nullopt}, kAllButLast{std::nullopt, -1};

UfuncOptions into(const ndarray& out) {
  UfuncOptions o;
  o.out = out;
  return o;
}

ndarray array_of(const operand& x) {
  if (x.is_array()) return x.array();
  return full(Shape{}, x.scalar(), x.scalar().dtype(), default_device());
}

// mask[i]: the sorted 1-d aux[i] starts a new run of equal elements. With equal_nan the
// NaNs (sorted last) form one run.
ndarray run_starts(const ndarray& aux, bool equal_nan) {
  const std::int64_t n = aux.size();
  ndarray mask = api::allocate(Shape{n}, DType::bool_, aux.device());
  if (n == 0) return mask;
  mask.assign(Index{0}, true);
  not_equal(aux[Index{kAllButFirst}], aux[Index{kAllButLast}], into(mask[Index{kAllButFirst}]));
  if (equal_nan && is_inexact(aux.dtype())) {
    const std::int64_t nans = sum(isnan(aux)).item().to_int64();
    if (nans > 1) mask.assign(Index{Slice(n - nans + 1, std::nullopt)}, false);
  }
  return mask;
}

// counts[i] = starts[i + 1] - starts[i], with starts ending at n.
ndarray run_lengths(const ndarray& starts, std::int64_t n) {
  const ndarray ends = concatenate({starts, full(Shape{1}, n, DType::int64, starts.device())});
  return subtract(ends[Index{kAllButFirst}], ends[Index{kAllButLast}]);
}

// The unique rows of the sorted (n, ...) `aux` (perm: the stable permutation that sorted
// them, when indices or the inverse are asked for) and what NumPy returns with them.
UniqueResult unique_sorted(const ndarray& aux, const ndarray& mask, const std::optional<ndarray>& perm,
                           bool return_index, bool return_inverse, bool return_counts) {
  UniqueResult r;
  const ndarray starts = api::true_positions(mask);
  r.values = api::take_first_axis(aux, starts);
  if (return_index) r.indices = api::take_first_axis(*perm, starts);
  if (return_inverse) {
    // inverse[perm[i]] = (run of i): gathered through the inverse permutation.
    const ndarray run = subtract(cumsum(mask, 0, DType::int64), 1);
    r.inverse = api::take_first_axis(run, argsort(*perm));
  }
  if (return_counts) r.counts = run_lengths(starts, aux.shape()[0]);
  return r;
}

// unique of integers whose range [min, max] is small next to their count: a histogram with
// one bin per integer gives the unique values (the bins in use) and their counts, and the
// inverse is each value's rank among the bins in use: two reductions (min and max, one host
// read) and a counting pass over the data instead of a radix sort's several read-write
// passes. Without counts the histogram is a bool one (which bins are hit: no atomics on
// the GPU). Nothing when the range is too wide or the input small (the caller sorts).
// Up to 2^24 bins: with 1e8 int32 spread over 8e6 values this beat the sort 2-3x on an
// H200 and on 2 CPU cores (docs/benchmarks.md, session 31).
std::optional<UniqueResult> unique_by_counting(const ndarray& flat, bool return_inverse, bool return_counts) {
  constexpr std::int64_t kMinSize = 1 << 14, kMaxBins = std::int64_t(1) << 24;
  const DType t = flat.dtype();
  const std::int64_t n = flat.size();
  if (n < kMinSize || !(is_integer(t) || t == DType::bool_) || t == DType::uint64) return std::nullopt;
  const auto [lo, hi] = api::integer_range(flat);
  const std::uint64_t span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
  if (span >= static_cast<std::uint64_t>(std::min(kMaxBins, 4 * n))) return std::nullopt;
  const std::int64_t nbins = static_cast<std::int64_t>(span) + 1;
  const ndarray edges = arange(Scalar(lo), Scalar(lo + nbins + 1), Scalar(1), DType::int64, flat.device());
  // Without counts, a bool histogram: which bins are hit.
  const ndarray hits = api::count_into_bins({{flat, edges, backend::HistogramBins::uniform_edges}}, std::nullopt,
                                            Shape{nbins}, return_counts ? DType::int64 : DType::bool_);
  const ndarray present = return_counts ? greater(hits, 0) : hits;
  const ndarray bins = api::true_positions(present);
  UniqueResult r;
  r.values = add(bins, lo).astype(t);
  if (return_counts) r.counts = api::take_first_axis(hits, bins);
  if (return_inverse) {
    const ndarray rank = subtract(cumsum(present, 0, DType::int64), 1);
    ndarray offset = flat.astype(DType::int64);
    subtract(offset, lo, into(offset));
    r.inverse = api::take_first_axis(rank, offset);
  }
  return r;
}

UniqueResult unique_flat(const ndarray& ar, bool return_index, bool return_inverse, bool return_counts,
                         bool equal_nan) {
  const ndarray flat = ravel(ar);
  if (!return_index) {
    if (auto counted = unique_by_counting(flat, return_inverse, return_counts)) {
      if (counted->inverse) counted->inverse = reshape(*counted->inverse, ar.shape());
      return *counted;
    }
  }
  std::optional<ndarray> perm;
  ndarray aux;
  if (return_index || return_inverse) {
    perm = argsort(flat);
    aux = api::take_first_axis(flat, *perm);
  } else {
    aux = sort(flat);
  }
  UniqueResult r = unique_sorted(aux, run_starts(aux, equal_nan), perm, return_index, return_inverse, return_counts);
  if (r.inverse) r.inverse = reshape(*r.inverse, ar.shape());
  return r;
}

// Unique slices along `axis`: rows of the (n, m) matrix sorted lexicographically.
UniqueResult unique_along(const ndarray& ar, int axis, bool return_index, bool return_inverse, bool return_counts) {
  const int ax = normalize_axis(axis, ar.ndim());
  const ndarray moved = moveaxis(ar, {ax}, {0});
  const Shape orig = moved.shape();
  const std::int64_t n = orig[0], m = n ? moved.size() / n : shape_size(Shape(orig.begin() + 1, orig.end()));
  const ndarray mat = ascontiguousarray(reshape(moved, Shape{n, m}));
  ndarray perm;
  if (m == 0 || n == 0) {
    perm = arange(n, DType::int64, ar.device());
  } else {
    const ndarray columns = ascontiguousarray(transpose(mat));  // (m, n): column j is a key
    std::vector<ndarray> keys;
    for (std::int64_t j = m; j-- > 0;) keys.push_back(columns[j]);  // column 0 decides first
    perm = lexsort(keys);
  }
  const ndarray aux = api::take_first_axis(mat, perm);
  ndarray mask = api::allocate(Shape{n}, DType::bool_, ar.device());
  if (n) {
    mask.assign(Index{0}, true);
    const ndarray differs = not_equal(aux[Index{kAllButFirst}], aux[Index{kAllButLast}]);
    any(differs, 1, {.out = mask[Index{kAllButFirst}]});
  }
  UniqueResult r = unique_sorted(aux, mask, perm, return_index, return_inverse, return_counts);
  Shape shape = orig;
  shape[0] = r.values.shape()[0];
  r.values = ascontiguousarray(moveaxis(reshape(r.values, shape), {0}, {ax}));
  return r;
}

// Both arrays raveled and in their common dtype.
std::pair<ndarray, ndarray> common_1d(const operand& a, const operand& b) {
  const ndarray x = array_of(a), y = array_of(b);
  api::common_device({&x, &y}, x.device());
  const DType t = promote_types(x.dtype(), y.dtype());
  return {ravel(astype(x, t, Casting::unsafe, false)), ravel(astype(y, t, Casting::unsafe, false))};
}

// Membership of each of `a` (1-d) in `b` (1-d, same dtype): a binary search in sorted b.
ndarray in1d(const ndarray& a, const ndarray& b, bool invert) {
  if (b.size() == 0 || a.size() == 0) return full(a.shape(), invert, DType::bool_, a.device());
  const ndarray sorted_b = sort(b);
  const ndarray at = minimum(searchsorted(sorted_b, a), b.size() - 1);
  const ndarray found = equal(api::take_first_axis(sorted_b, at), a);
  return invert ? logical_not(found) : found;
}

}  // namespace

UniqueResult unique(const ndarray& ar, bool return_index, bool return_inverse, bool return_counts,
                    std::optional<int> axis, bool equal_nan) {
  if (axis) return unique_along(ar, *axis, return_index, return_inverse, return_counts);
  return unique_flat(ar, return_index, return_inverse, return_counts, equal_nan);
}

UniqueResult unique_all(const ndarray& x) { return unique(x, true, true, true, std::nullopt, false); }
UniqueResult unique_counts(const ndarray& x) { return unique(x, false, false, true, std::nullopt, false); }
UniqueResult unique_inverse(const ndarray& x) { return unique(x, false, true, false, std::nullopt, false); }
ndarray unique_values(const ndarray& x) { return unique(x, false, false, false, std::nullopt, false).values; }

ndarray isin(const operand& element, const operand& test_elements, bool assume_unique, bool invert,
             const std::optional<std::string>& kind) {
  if (kind && *kind != "sort" && *kind != "table")
    throw ValueError("Invalid kind: '" + *kind + "'. Please use None, 'sort' or 'table'.");
  auto [a, b] = common_1d(element, test_elements);
  if (kind && *kind == "table" && !is_integer(a.dtype()) && a.dtype() != DType::bool_)
    throw ValueError("The 'table' method is only supported for boolean or integer arrays. Please select 'sort' or None for kind.");
  return reshape(in1d(a, b, invert), array_of(element).shape());
}

Intersect1dResult intersect1d(const operand& ar1, const operand& ar2, bool assume_unique, bool return_indices) {
  auto [a, b] = common_1d(ar1, ar2);
  std::optional<ndarray> ind1, ind2;
  if (!assume_unique) {
    UniqueResult ua = unique(a, return_indices), ub = unique(b, return_indices);
    a = ua.values;
    b = ub.values;
    ind1 = ua.indices;
    ind2 = ub.indices;
  }
  ndarray aux = concatenate({a, b});
  std::optional<ndarray> perm;
  if (return_indices) {
    perm = argsort(aux);
    aux = api::take_first_axis(aux, *perm);
  } else {
    aux = sort(aux);
  }
  const ndarray mask = equal(aux[Index{kAllButFirst}], aux[Index{kAllButLast}]);
  Intersect1dResult r{api::compress_1d(aux[Index{kAllButLast}], mask), std::nullopt, std::nullopt};
  if (return_indices) {
    ndarray i1 = api::compress_1d((*perm)[Index{kAllButLast}], mask);
    ndarray i2 = subtract(api::compress_1d((*perm)[Index{kAllButFirst}], mask), a.size());
    if (!assume_unique) {
      i1 = api::take_first_axis(*ind1, i1);
      i2 = api::take_first_axis(*ind2, i2);
    }
    r.indices1 = i1;
    r.indices2 = i2;
  }
  return r;
}

ndarray union1d(const operand& ar1, const operand& ar2) {
  auto [a, b] = common_1d(ar1, ar2);
  return unique(concatenate({a, b})).values;
}

ndarray setdiff1d(const operand& ar1, const operand& ar2, bool assume_unique) {
  // The result keeps ar1's dtype; the membership test compares in the common one.
  ndarray a = ravel(array_of(ar1));
  if (!assume_unique) a = unique(a).values;
  auto [x, y] = common_1d(a, ar2);
  if (!assume_unique) y = unique(y).values;
  return api::compress_1d(a, in1d(x, y, true));
}

ndarray setxor1d(const operand& ar1, const operand& ar2, bool assume_unique) {
  auto [a, b] = common_1d(ar1, ar2);
  if (!assume_unique) {
    a = unique(a).values;
    b = unique(b).values;
  }
  const ndarray aux = sort(concatenate({a, b}));
  const std::int64_t n = aux.size();
  if (n == 0) return aux;
  // Elements whose neighbours on both sides differ from them occur once.
  ndarray flag = api::allocate(Shape{n + 1}, DType::bool_, aux.device());
  flag.assign(Index{0}, true);
  flag.assign(Index{n}, true);
  not_equal(aux[Index{kAllButFirst}], aux[Index{kAllButLast}], into(flag[Index{Slice(1, n)}]));
  return api::compress_1d(aux, logical_and(flag[Index{kAllButFirst}], flag[Index{kAllButLast}]));
}

}  // namespace copper
