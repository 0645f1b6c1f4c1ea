// shares_memory / may_share_memory: do two arrays have a byte in common?
// Every element's bytes are base + sum_i stride_i * x_i + t (0 <= x_i < n_i, 0 <= t <
// itemsize). Overlap is a bounded linear Diophantine equation: after flipping negative
// strides and moving b's terms to the other side, find z_k in [0, ub_k] with
// sum c_k z_k == rhs, all c_k > 0. A depth-first search over the largest coefficients
// first, pruned by the reachable range and by gcds, decides it exactly; max_work caps
// the number of candidate values it tries (NumPy's meaning of max_work).
#include <algorithm>
#include <numeric>
#include <vector>

#include "copper/errors.hpp"
#include "copper/utilities.hpp"

namespace copper {

namespace {

struct Term {
  std::int64_t coef, ub;
};

// Appends a's terms (|stride| per axis with n - 1 as bound, and its item bytes) and
// returns the lowest byte offset of its elements (negative strides reach below a.offset()).
std::int64_t add_terms(const ndarray& a, std::vector<Term>& terms) {
  std::int64_t lowest = a.offset();
  for (int d = 0; d < a.ndim(); ++d) {
    const std::int64_t s = a.strides()[d];
    if (s < 0) lowest += s * (a.shape()[d] - 1);
    if (a.shape()[d] > 1 && s != 0) terms.push_back({s < 0 ? -s : s, a.shape()[d] - 1});
  }
  if (a.itemsize() > 1) terms.push_back({1, a.itemsize() - 1});
  return lowest;
}

// The sum of coef * ub over terms[from, to): an array's byte span above its lowest byte.
std::int64_t span(const std::vector<Term>& terms, std::size_t from, std::size_t to) {
  std::int64_t total = 0;
  for (std::size_t k = from; k < to; ++k) total += terms[k].coef * terms[k].ub;
  return total;
}

struct Search {
  std::vector<Term> terms;
  std::vector<std::int64_t> rest_max, rest_gcd;  // over terms[k:]
  std::int64_t work = 0, max_work = -1;

  bool solve(std::size_t k, std::int64_t rhs) {
    if (rhs < 0 || rhs > rest_max[k]) return false;
    if (k == terms.size()) return rhs == 0;
    if (rest_gcd[k] > 1 && rhs % rest_gcd[k] != 0) return false;
    const Term& t = terms[k];
    const std::int64_t after = rest_max[k + 1];
    const std::int64_t hi = std::min(t.ub, rhs / t.coef);
    const std::int64_t lo = rhs > after ? (rhs - after + t.coef - 1) / t.coef : 0;
    for (std::int64_t z = hi; z >= lo; --z) {
      if (max_work >= 0 && ++work > max_work) throw TooHardError("Exceeded max_work");
      if (solve(k + 1, rhs - z * t.coef)) return true;
    }
    return false;
  }
};

}  // namespace

bool may_share_memory(const ndarray& a, const ndarray& b, std::int64_t max_work) {
  try {
    return shares_memory(a, b, max_work);
  } catch (const TooHardError&) {
    return true;  // undecided within max_work: they may
  }
}

bool shares_memory(const ndarray& a, const ndarray& b, std::int64_t max_work) {
  if (!a.valid() || !b.valid() || a.buffer() != b.buffer() || a.size() == 0 || b.size() == 0) return false;
  // a's byte alo + sum |sa| x + t equals b's byte blo + sum |sb| y + u; with y' = ub - y
  // every coefficient is positive and the right side is a constant.
  Search s;
  s.max_work = max_work;
  const std::int64_t alo = add_terms(a, s.terms);
  const std::size_t na = s.terms.size();
  const std::int64_t blo = add_terms(b, s.terms);
  const std::int64_t a_span = span(s.terms, 0, na), b_span = span(s.terms, na, s.terms.size());
  if (alo > blo + b_span || blo > alo + a_span) return false;  // byte extents [lo, lo + span] apart
  if (max_work == 0) throw TooHardError("Exceeded max_work");  // bounds only: undecided, as NumPy
  const std::int64_t rhs = blo - alo + b_span;
  // Equal coefficients merge (c*[0,p] + c*[0,q] == c*[0,p+q]); largest first.
  std::sort(s.terms.begin(), s.terms.end(), [](const Term& x, const Term& y) { return x.coef > y.coef; });
  std::vector<Term> merged;
  for (const Term& t : s.terms) {
    if (!merged.empty() && merged.back().coef == t.coef) merged.back().ub += t.ub;
    else merged.push_back(t);
  }
  s.terms = std::move(merged);
  const std::size_t n = s.terms.size();
  s.rest_max.assign(n + 1, 0);
  s.rest_gcd.assign(n + 1, 0);
  for (std::size_t k = n; k-- > 0;) {
    s.rest_max[k] = s.rest_max[k + 1] + s.terms[k].coef * s.terms[k].ub;
    s.rest_gcd[k] = std::gcd(s.rest_gcd[k + 1], s.terms[k].coef);
  }
  return s.solve(0, rhs);
}

bool isfortran(const ndarray& a) { return a.is_f_contiguous() && !a.is_c_contiguous(); }

}  // namespace copper
