// choice, permutation and shuffle: index sequences made on the host from a counter
// stream (so identical on every device), then rows gathered on the array's device.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <unordered_map>

#include "api/array_factory.h"
#include "api/random_internal.h"
#include "copper/manipulation.hpp"

namespace copper::random {

using ops::philox::Stream;

namespace {

// An integer in [0, bound] from the stream (multiply-shift, as the integers kernel).
std::uint64_t bounded(Stream& s, std::uint64_t bound) {
  if (bound <= 0xffffffffull) return ops::philox::bounded64(s.next64(), bound);
  const std::uint64_t hi = s.next64();
  return ops::philox::bounded128(hi, s.next64(), bound);
}

// Rows of `a` (along axis 0) picked by `rows`, as a new array on a's device: the
// indices go to the device, the rows never leave it (Backend::take_rows).
ndarray gather_rows(const ndarray& a, const std::vector<std::int64_t>& rows, const Shape& index_shape) {
  Shape shape = index_shape;
  shape.insert(shape.end(), a.shape().begin() + 1, a.shape().end());
  ndarray out = api::allocate(shape, a.dtype(), a.device());
  if (out.size() == 0) return out;
  const ndarray idx = array(rows.data(), Shape{static_cast<std::int64_t>(rows.size())}, int64, a.device());
  api::backend_of(a).take_rows(backend::view_of(a), backend::view_of(idx), backend::view_of(out));
  return out;
}

// A uniformly random permutation of [0, n) (Fisher-Yates on one stream).
std::vector<std::int64_t> permuted_indices(Generator& g, std::int64_t n) {
  const ops::philox::RandomParams p = GeneratorAccess::take(g, 1);
  Stream s(p, 0);
  std::vector<std::int64_t> idx(static_cast<std::size_t>(n));
  std::iota(idx.begin(), idx.end(), 0);
  for (std::int64_t k = n - 1; k > 0; --k) std::swap(idx[k], idx[bounded(s, static_cast<std::uint64_t>(k))]);
  return idx;
}

// k distinct indices of [0, n) in random order: a partial Fisher-Yates whose swaps are
// kept in a map when the population is much larger than the sample.
std::vector<std::int64_t> sample_without_replacement(Generator& g, std::int64_t n, std::int64_t k) {
  const ops::philox::RandomParams p = GeneratorAccess::take(g, 1);
  Stream s(p, 0);
  std::unordered_map<std::int64_t, std::int64_t> moved;
  auto at = [&](std::int64_t i) {
    auto it = moved.find(i);
    return it == moved.end() ? i : it->second;
  };
  std::vector<std::int64_t> out(static_cast<std::size_t>(k));
  for (std::int64_t i = 0; i < k; ++i) {
    const std::int64_t j = i + static_cast<std::int64_t>(bounded(s, static_cast<std::uint64_t>(n - 1 - i)));
    const std::int64_t vi = at(i), vj = at(j);
    out[static_cast<std::size_t>(i)] = vj;
    moved[j] = vi;
  }
  return out;
}

// NumPy's messages, which the legacy RandomState words differently.
struct ChoiceMessages {
  const char* nonpositive;
  const char* same_size;
  const char* negative;
  const char* sum;
  const char* too_many;
};
constexpr ChoiceMessages kGeneratorMessages{
    "a must be a positive integer unless no samples are taken", "a and p must have same size",
    "Probabilities are not non-negative",
    "Probabilities do not sum to 1. See Notes section of docstring for more information.",
    "Cannot take a larger sample than population when replace is False"};
constexpr ChoiceMessages kLegacyMessages{"a must be greater than 0 unless no samples are taken",
                                         "'a' and 'p' must have same size", "probabilities are not non-negative",
                                         "probabilities do not sum to 1",
                                         "Cannot take a larger sample than population when 'replace=False'"};

void check_probabilities(const std::vector<double>& p, std::int64_t n, const ChoiceMessages& m) {
  if (static_cast<std::int64_t>(p.size()) != n) throw ValueError(m.same_size);
  double sum = 0;
  for (double v : p) {
    if (std::isnan(v)) throw ValueError("probabilities contain NaN");
    if (v < 0) throw ValueError(m.negative);
    sum += v;
  }
  if (std::fabs(sum - 1.0) > std::sqrt(std::numeric_limits<double>::epsilon())) throw ValueError(m.sum);
}

std::vector<std::int64_t> choose(Generator& g, std::int64_t n, const Shape& size, bool replace,
                                 const std::vector<double>* p, const ChoiceMessages& m = kGeneratorMessages) {
  check_size(size);
  const std::int64_t k = shape_size(size);
  if (n < 0 || (n == 0 && k > 0)) throw ValueError(m.nonpositive);
  if (p) check_probabilities(*p, n, m);
  if (k == 0) return {};
  if (replace) {
    if (!p) {
      ndarray idx = g.integers(0, n, size);  // the integers kernel's stream; same everywhere
      return idx.to_vector<std::int64_t>();
    }
    std::vector<double> cdf(p->size());
    std::partial_sum(p->begin(), p->end(), cdf.begin());
    const double total = cdf.empty() ? 1.0 : cdf.back();
    const ops::philox::RandomParams params = GeneratorAccess::take(g, 1);
    std::vector<std::int64_t> out(static_cast<std::size_t>(k));
    for (std::int64_t i = 0; i < k; ++i) {
      Stream s(params, static_cast<std::uint32_t>(i));
      const double u = s.uniform() * total;
      auto it = std::upper_bound(cdf.begin(), cdf.end(), u);
      // Never land on a trailing zero-probability entry through rounding.
      std::int64_t j = std::min<std::int64_t>(it - cdf.begin(), n - 1);
      while (j > 0 && (*p)[static_cast<std::size_t>(j)] == 0) --j;
      out[static_cast<std::size_t>(i)] = j;
    }
    return out;
  }
  if (k > n) throw ValueError(m.too_many);
  if (!p) return sample_without_replacement(g, n, k);
  // Weighted, without replacement: the k largest keys U^(1/p_i) (Efraimidis-Spirakis),
  // compared as log(U) / p_i; zero weights never win.
  const std::int64_t nonzero = std::count_if(p->begin(), p->end(), [](double v) { return v > 0; });
  if (nonzero < k) throw ValueError("Fewer non-zero entries in p than size");
  const ops::philox::RandomParams params = GeneratorAccess::take(g, 1);
  std::vector<std::pair<double, std::int64_t>> keys;
  for (std::int64_t i = 0; i < n; ++i) {
    const double w = (*p)[static_cast<std::size_t>(i)];
    if (w <= 0) continue;
    Stream s(params, static_cast<std::uint32_t>(i));
    keys.emplace_back(std::log(s.open_uniform()) / w, i);
  }
  std::partial_sort(keys.begin(), keys.begin() + k, keys.end(), [](auto& x, auto& y) { return x.first > y.first; });
  std::vector<std::int64_t> out(static_cast<std::size_t>(k));
  for (std::int64_t i = 0; i < k; ++i) out[static_cast<std::size_t>(i)] = keys[static_cast<std::size_t>(i)].second;
  return out;
}

}  // namespace

ndarray Generator::choice(std::int64_t n, const Shape& size, bool replace, const std::vector<double>* p, bool) {
  if (replace && !p) {
    check_size(size);
    if (n < 0 || (n == 0 && shape_size(size) > 0))
      throw ValueError("a must be a positive integer unless no samples are taken");
    if (n == 0) return api::allocate(size, int64, default_device());
    return integers(0, n, size);
  }
  std::vector<std::int64_t> idx = choose(*this, n, size, replace, p);
  return array(idx.data(), size, int64, default_device());
}

ndarray Generator::choice(const ndarray& a, const Shape& size, bool replace, const std::vector<double>* p, bool) {
  if (a.ndim() == 0) throw ValueError("a must be a sequence or an integer, not <class 'numpy.ndarray'>");
  std::vector<std::int64_t> idx = choose(*this, a.shape()[0], size, replace, p);
  return gather_rows(a, idx, size);
}

namespace {

int normalized_axis(int axis, int ndim) {
  if (axis < -ndim || axis >= ndim)
    throw AxisError("axis " + std::to_string(axis) + " is out of bounds for array of dimension " + std::to_string(ndim));
  return axis < 0 ? axis + ndim : axis;
}

}  // namespace

ndarray Generator::choice(const ndarray& a, const Shape& size, bool replace, const std::vector<double>* p,
                          bool shuffle, int axis) {
  if (a.ndim() == 0) return choice(a, size, replace, p, shuffle);
  const int ax = normalized_axis(axis, a.ndim());
  if (ax == 0) return choice(a, size, replace, p, shuffle);
  // Rows along `axis`: move it to the front, gather, and put the sample's dimensions there.
  const ndarray picked = choice(moveaxis(a, {ax}, {0}), size, replace, p, shuffle);
  std::vector<int> from, to;
  for (int d = 0; d < static_cast<int>(size.size()); ++d) {
    from.push_back(d);
    to.push_back(ax + d);
  }
  return moveaxis(picked, from, to);
}

ndarray Generator::permutation(std::int64_t n) {
  std::vector<std::int64_t> idx = permuted_indices(*this, std::max<std::int64_t>(n, 0));
  return array(idx.data(), Shape{static_cast<std::int64_t>(idx.size())}, int64, default_device());
}

ndarray Generator::permutation(const ndarray& x, int axis) {
  if (x.ndim() == 0) throw AxisError("axis " + std::to_string(axis) + " is out of bounds for array of dimension 0");
  const int ax = normalized_axis(axis, x.ndim());
  const ndarray front = ax == 0 ? x : moveaxis(x, {ax}, {0});
  std::vector<std::int64_t> idx = permuted_indices(*this, front.shape()[0]);
  const ndarray out = gather_rows(front, idx, Shape{front.shape()[0]});
  return ax == 0 ? out : ascontiguousarray(moveaxis(out, {0}, {ax}));
}

void Generator::shuffle(ndarray& x, int axis) {
  if (x.ndim() == 0) throw TypeError("len() of unsized object");
  const int ax = normalized_axis(axis, x.ndim());
  ndarray front = ax == 0 ? x : moveaxis(x, {ax}, {0});
  std::vector<std::int64_t> idx = permuted_indices(*this, front.shape()[0]);
  front.assign(gather_rows(front, idx, Shape{front.shape()[0]}));  // gathered into a temporary, copied back
}

ndarray RandomState::choice(std::int64_t n, const Shape& size, bool replace, const std::vector<double>* p) {
  if (replace && !p) {
    check_size(size);
    if (n <= 0 && shape_size(size) != 0) throw ValueError(kLegacyMessages.nonpositive);
    if (n <= 0) return api::allocate(size, int64, default_device());
    return gen_.integers(0, n, size);
  }
  if (n <= 0 && shape_size(size) != 0) throw ValueError(kLegacyMessages.nonpositive);
  std::vector<std::int64_t> idx = choose(gen_, std::max<std::int64_t>(n, 0), size, replace, p, kLegacyMessages);
  return array(idx.data(), size, int64, default_device());
}

ndarray RandomState::choice(const ndarray& a, const Shape& size, bool replace, const std::vector<double>* p) {
  if (a.ndim() != 1) throw ValueError("a must be 1-dimensional");
  if (a.shape()[0] == 0 && shape_size(size) != 0) throw ValueError("'a' cannot be empty unless no samples are taken");
  std::vector<std::int64_t> idx = choose(gen_, a.shape()[0], size, replace, p, kLegacyMessages);
  return gather_rows(a, idx, size);
}

}  // namespace copper::random
