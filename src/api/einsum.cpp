// einsum: parse the subscripts, take repeated-index diagonals, sum indices nobody
// else needs, then contract operands left to right as batched matmuls (batch, free
// and summed indices grouped by transposes and reshapes), and transpose to the output.
#include <algorithm>
#include <map>

#include "api/promotion.h"
#include "copper/linalg.hpp"
#include "copper/manipulation.hpp"
#include "copper/reductions.hpp"

namespace copper {
namespace {

struct Term {
  ndarray array;
  std::string labels;  // one char per axis; ellipsis axes get chars below ' '
};

bool is_label(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts{""};
  for (char c : s) {
    if (c == sep) parts.emplace_back();
    else parts.back().push_back(c);
  }
  return parts;
}

// The labels of one operand, "..." expanded right-aligned into `ell_labels`.
std::string expand(const std::string& spec, int ndim, int index, const std::string& ell_labels, bool& has_ellipsis) {
  std::string out;
  const auto dots = spec.find("...");
  has_ellipsis = dots != std::string::npos;
  std::string head = has_ellipsis ? spec.substr(0, dots) : spec;
  std::string tail = has_ellipsis ? spec.substr(dots + 3) : "";
  for (const std::string* part : {&head, &tail})
    for (char c : *part)
      if (!is_label(c)) throw ValueError(std::string("invalid subscript '") + c + "' in einstein sum subscripts string, subscripts must be letters");
  const int named = static_cast<int>(head.size() + tail.size());
  if (named > ndim || (!has_ellipsis && named != ndim)) {
    if (named > ndim)
      throw ValueError("einstein sum subscripts string contains too many subscripts for operand " + std::to_string(index));
    throw ValueError("operand has more dimensions than subscripts given in einstein sum, but no '...' ellipsis "
                     "provided to broadcast the extra dimensions.");
  }
  const int ell = ndim - named;
  return head + ell_labels.substr(ell_labels.size() - ell) + tail;
}

// Takes the diagonal of every label repeated within one operand.
void collapse_repeats(Term& t, int index) {
  for (std::size_t p = 0; p < t.labels.size(); ++p) {
    const auto q = t.labels.find(t.labels[p], p + 1);
    if (q == std::string::npos) continue;
    const std::int64_t np = t.array.shape()[p], nq = t.array.shape()[q];
    if (np != nq)
      throw ValueError(std::string("dimensions in operand ") + std::to_string(index) + " for collapsing index '" +
                       t.labels[p] + "' don't match (" + std::to_string(np) + " != " + std::to_string(nq) + ")");
    const char c = t.labels[p];
    t.array = diagonal(t.array, 0, static_cast<int>(p), static_cast<int>(q));
    t.labels.erase(q, 1);
    t.labels.erase(p, 1);
    t.labels.push_back(c);
    p = static_cast<std::size_t>(-1);  // start over: positions moved
  }
}

// Sums the axes whose labels are not in `keep`, in the operand's own dtype (einsum
// never widens integers the way sum does).
void sum_unneeded(Term& t, const std::string& keep) {
  std::vector<int> axes;
  std::string kept;
  for (std::size_t d = 0; d < t.labels.size(); ++d) {
    if (keep.find(t.labels[d]) == std::string::npos) axes.push_back(static_cast<int>(d));
    else kept.push_back(t.labels[d]);
  }
  if (axes.empty()) return;
  ReduceOptions opts;
  opts.dtype = t.array.dtype();
  t.array = sum(t.array, Axes(axes), opts);
  t.labels = kept;
}

std::vector<int> positions(const std::string& labels, const std::string& order) {
  std::vector<int> p;
  for (char c : order) p.push_back(static_cast<int>(labels.find(c)));
  return p;
}

Shape sizes(const Term& t, const std::string& order) {
  Shape s;
  for (char c : order) s.push_back(t.array.shape()[t.labels.find(c)]);
  return s;
}

// x (labels lx) times y (labels ly), summing the shared labels not in `keep`.
Term contract(const Term& x, const Term& y, const std::string& keep) {
  std::string batch, summed, left, right;
  for (char c : x.labels) {
    if (y.labels.find(c) != std::string::npos) (keep.find(c) != std::string::npos ? batch : summed).push_back(c);
    else left.push_back(c);
  }
  for (char c : y.labels)
    if (x.labels.find(c) == std::string::npos) right.push_back(c);
  const Shape bs = sizes(x, batch), ls = sizes(x, left), ks = sizes(x, summed), rs = sizes(y, right);
  const ndarray a = reshape(transpose(x.array, positions(x.labels, batch + left + summed)),
                            {shape_size(bs), shape_size(ls), shape_size(ks)});
  const ndarray b = reshape(transpose(y.array, positions(y.labels, batch + summed + right)),
                            {shape_size(bs), shape_size(ks), shape_size(rs)});
  Shape result_shape = bs;
  result_shape.insert(result_shape.end(), ls.begin(), ls.end());
  result_shape.insert(result_shape.end(), rs.begin(), rs.end());
  return Term{reshape(matmul(a, b), result_shape), batch + left + right};
}

}  // namespace

std::string einsum_subscripts(const std::vector<std::vector<int>>& inputs, const std::optional<std::vector<int>>& output) {
  auto spec = [](const std::vector<int>& labels) {
    std::string s;
    bool ellipsis = false;
    for (int l : labels) {
      if (l == kEinsumEllipsis) {
        if (ellipsis) throw ValueError("each subscripts list may have only one ellipsis");
        ellipsis = true;
        s += "...";
      } else if (l < 0 || l >= 52) {
        throw ValueError("subscript is not within the valid range [0, 52)");
      } else {
        s.push_back(static_cast<char>(l < 26 ? 'A' + l : 'a' + (l - 26)));
      }
    }
    return s;
  };
  std::string subscripts;
  for (std::size_t i = 0; i < inputs.size(); ++i) subscripts += (i ? "," : "") + spec(inputs[i]);
  if (output) subscripts += "->" + spec(*output);
  return subscripts;
}

ndarray einsum(const std::string& subscripts_in, const std::vector<ndarray>& operands, std::optional<DType> dtype) {
  std::string subscripts;
  for (char c : subscripts_in)
    if (c != ' ') subscripts.push_back(c);
  const auto arrow = subscripts.find("->");
  const bool explicit_output = arrow != std::string::npos;
  const std::string lhs = explicit_output ? subscripts.substr(0, arrow) : subscripts;
  const std::vector<std::string> specs = split(lhs, ',');
  if (operands.size() > specs.size())
    throw ValueError("more operands provided to einstein sum function than specified in the subscripts string");
  if (operands.size() < specs.size())
    throw ValueError("fewer operands provided to einstein sum function than specified in the subscripts string");

  int ell_ndim = 0;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    int named = 0;
    for (char c : specs[i]) named += is_label(c);
    if (specs[i].find("...") != std::string::npos) ell_ndim = std::max(ell_ndim, operands[i].ndim() - named);
  }
  std::string ell_labels;
  for (int i = 0; i < ell_ndim; ++i) ell_labels.push_back(static_cast<char>(1 + i));

  std::vector<Term> terms;
  std::map<char, int> counts;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    bool has_ellipsis = false;
    Term t{operands[i], expand(specs[i], operands[i].ndim(), static_cast<int>(i), ell_labels, has_ellipsis)};
    for (char c : t.labels) ++counts[c];
    terms.push_back(std::move(t));
  }
  std::string output;
  if (explicit_output) {
    bool has_ellipsis = false;
    const std::string spec = subscripts.substr(arrow + 2);
    const auto dots = spec.find("...");
    has_ellipsis = dots != std::string::npos;
    output = has_ellipsis ? spec.substr(0, dots) + ell_labels + spec.substr(dots + 3) : spec;
    for (char c : output) {
      if (c >= ' ' && !is_label(c))
        throw ValueError(std::string("invalid subscript '") + c + "' in einstein sum subscripts string, subscripts must be letters");
      if (!counts.count(c))
        throw ValueError(std::string("einstein sum subscripts string included output subscript '") + c +
                         "' which never appeared in an input");
    }
    if (!has_ellipsis && ell_ndim > 0)
      throw ValueError("output has more dimensions than subscripts given in einstein sum, but no '...' ellipsis "
                       "provided to broadcast the extra dimensions.");
  } else {
    output = ell_labels;  // broadcast dimensions first, then labels seen once, sorted
    for (auto [c, n] : counts)
      if (n == 1 && c >= ' ') output.push_back(c);
  }

  // Every label's size; size-1 axes broadcast against the others.
  std::map<char, std::int64_t> size_of;
  for (auto& t : terms)
    for (std::size_t d = 0; d < t.labels.size(); ++d) {
      std::int64_t& s = size_of.try_emplace(t.labels[d], 1).first->second;
      const std::int64_t n = t.array.shape()[d];
      if (n != 1 && s != 1 && n != s && t.labels.find(t.labels[d]) == d)
        throw ValueError("operands could not be broadcast together with remapped shapes; einsum index '" +
                         std::string(1, t.labels[d]) + "' has sizes " + std::to_string(s) + " and " + std::to_string(n));
      if (n != 1) s = n;
    }
  // One operand and nothing summed: a view (diagonals, then the output's axis order).
  if (terms.size() == 1) {
    Term t = terms[0];
    collapse_repeats(t, 0);
    if (std::all_of(t.labels.begin(), t.labels.end(), [&](char c) { return output.find(c) != std::string::npos; }))
      return transpose(t.array, positions(t.labels, output));
  }
  const DType type = dtype ? *dtype : api::result_type(std::vector<operand>(operands.begin(), operands.end()), false);
  for (std::size_t i = 0; i < terms.size(); ++i) {
    Term& t = terms[i];
    if (t.array.dtype() != type) t.array = astype(t.array, type);
    collapse_repeats(t, static_cast<int>(i));
    Shape full = t.array.shape();
    for (std::size_t d = 0; d < t.labels.size(); ++d) full[d] = size_of[t.labels[d]];
    if (full != t.array.shape()) t.array = broadcast_to(t.array, full);
  }

  // Labels needed after position i: the output's and those of later operands.
  auto needed_after = [&](std::size_t i) {
    std::string keep = output;
    for (std::size_t j = i + 1; j < terms.size(); ++j) keep += terms[j].labels;
    return keep;
  };
  Term acc = terms[0];
  sum_unneeded(acc, needed_after(0) + (terms.size() > 1 ? terms[1].labels : ""));
  for (std::size_t i = 1; i < terms.size(); ++i) {
    Term next = terms[i];
    const std::string keep = needed_after(i);
    sum_unneeded(next, keep + acc.labels);
    acc = contract(acc, next, keep);
  }
  sum_unneeded(acc, output);
  return transpose(acc.array, positions(acc.labels, output));
}

}  // namespace copper
