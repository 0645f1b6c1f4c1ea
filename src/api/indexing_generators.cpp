// Index generators: ix_, indices, unravel_index, ravel_multi_index, diag_indices,
// tril/triu_indices, mask_indices, and fill_diagonal. All composed from aranges,
// ufuncs and reductions on the array's device; checks that need values read one
// reduction result back.
#include <algorithm>
#include <limits>

#include "api/array_factory.h"
#include "copper/creation.hpp"
#include "copper/indexing.hpp"
#include "copper/reductions.hpp"
#include "copper/ufuncs.hpp"

namespace copper {

namespace {

ndarray int64_index(const ndarray& a) { return a.dtype() == int64 ? a : a.astype(int64); }

}  // namespace

std::vector<ndarray> ix_(const std::vector<ndarray>& args) {
  std::vector<ndarray> out;
  const int nd = static_cast<int>(args.size());
  for (int k = 0; k < nd; ++k) {
    ndarray a = args[k];
    if (a.ndim() != 1) throw ValueError("Cross index must be 1 dimensional");
    if (a.dtype() == bool_) a = nonzero(a)[0];
    Shape s(nd, 1);
    s[k] = a.size();
    out.push_back(a.reshape(s));
  }
  return out;
}

std::vector<ndarray> indices_sparse(const Shape& dimensions, DType dtype, Device device) {
  std::vector<ndarray> out;
  const int nd = static_cast<int>(dimensions.size());
  for (int d = 0; d < nd; ++d) {
    Shape s(nd, 1);
    s[d] = dimensions[d];
    out.push_back(arange(dimensions[d], dtype, device).reshape(s));
  }
  return out;
}

ndarray indices(const Shape& dimensions, DType dtype, Device device) {
  Shape shape{static_cast<std::int64_t>(dimensions.size())};
  shape.insert(shape.end(), dimensions.begin(), dimensions.end());
  ndarray out = empty(shape, dtype, device);
  std::vector<ndarray> rows = indices_sparse(dimensions, dtype, device);
  for (std::size_t d = 0; d < rows.size(); ++d) copyto(out[static_cast<std::int64_t>(d)], rows[d]);
  return out;
}

std::vector<ndarray> unravel_index(const ndarray& indices, const Shape& shape, Order order) {
  if (!is_integer(indices.dtype())) throw TypeError("only int indices permitted");
  const std::int64_t total = shape_size(shape);
  ndarray rest = int64_index(indices);
  if (rest.size() > 0) {
    const std::int64_t lo = amin(rest).item().to_int64(), hi = amax(rest).item().to_int64();
    if (lo < 0 || hi >= total) {
      throw ValueError("index " + std::to_string(lo < 0 ? lo : hi) + " is out of bounds for array with size " +
                       std::to_string(total));
    }
  }
  const int nd = static_cast<int>(shape.size());
  std::vector<ndarray> out(nd);
  for (int k = 0; k < nd; ++k) {
    const int d = order == Order::C ? nd - 1 - k : k;
    out[d] = remainder(rest, shape[d]);
    if (k + 1 < nd) rest = floor_divide(rest, shape[d]);
  }
  return out;
}

ndarray ravel_multi_index(const std::vector<ndarray>& multi_index, const Shape& dims,
                          const std::vector<IndexMode>& modes, Order order) {
  const int nd = static_cast<int>(dims.size());
  if (static_cast<int>(multi_index.size()) != nd)
    throw ValueError("parameter multi_index must be a sequence of length " + std::to_string(nd));
  if (modes.size() != 1 && static_cast<int>(modes.size()) != nd)
    throw ValueError("mode must be a single mode or one per dimension");
  // The flat size must fit in int64, as NumPy checks before looking at the coordinates.
  std::int64_t size = 1;
  for (std::int64_t d : dims) {
    if (d != 0 && size > std::numeric_limits<std::int64_t>::max() / std::max<std::int64_t>(d, 1))
      throw ValueError("invalid dims: array size defined by dims is larger than the maximum possible size.");
    size *= std::max<std::int64_t>(d, 1);
  }
  if (nd == 0) return zeros({}, int64);  // NumPy: ravel_multi_index((), ()) == 0
  std::vector<ndarray> coords = broadcast_arrays(multi_index);
  std::optional<ndarray> result;
  std::int64_t stride = 1;
  for (int k = 0; k < nd; ++k) {
    const int d = order == Order::C ? nd - 1 - k : k;
    if (!is_integer(coords[d].dtype()) && coords[d].dtype() != bool_) throw TypeError("only int indices permitted");
    ndarray c = int64_index(coords[d]);
    const IndexMode mode = modes.size() == 1 ? modes[0] : modes[d];
    if (mode == IndexMode::raise) {
      if (c.size() > 0 && (amin(c).item().to_int64() < 0 || amax(c).item().to_int64() >= dims[d]))
        throw ValueError("invalid entry in coordinates array");
    } else if (mode == IndexMode::wrap) {
      c = remainder(c, dims[d]);
    } else {
      c = clip(c, 0, dims[d] - 1);
    }
    ndarray term = multiply(c, stride);
    result = result ? add(*result, term) : term;
    stride *= dims[d];
  }
  return *result;
}

std::vector<ndarray> diag_indices(std::int64_t n, int ndim, Device device) {
  ndarray idx = arange(std::max<std::int64_t>(n, 0), int64, device);
  return std::vector<ndarray>(static_cast<std::size_t>(std::max(ndim, 0)), idx);  // NumPy: (idx,) * ndim
}

std::vector<ndarray> diag_indices_from(const ndarray& arr) {
  if (arr.ndim() < 2) throw ValueError("input array must be at least 2-d");
  for (std::int64_t d : arr.shape())
    if (d != arr.shape()[0]) throw ValueError("All dimensions of input must be of equal length");
  return diag_indices(arr.shape()[0], arr.ndim(), arr.device());
}

namespace {

// Rows i and columns j of an (n, m) grid, shaped to broadcast.
std::pair<ndarray, ndarray> grid(std::int64_t n, std::int64_t m, Device device) {
  return {arange(n, int64, device).reshape({n, 1}), arange(m, int64, device).reshape({1, m})};
}

}  // namespace

std::vector<ndarray> tril_indices(std::int64_t n, std::int64_t k, std::optional<std::int64_t> m, Device device) {
  auto [i, j] = grid(n, m.value_or(n), device);
  return nonzero(greater_equal(add(i, k), j));  // j <= i + k
}

std::vector<ndarray> triu_indices(std::int64_t n, std::int64_t k, std::optional<std::int64_t> m, Device device) {
  auto [i, j] = grid(n, m.value_or(n), device);
  return nonzero(less_equal(add(i, k), j));  // j >= i + k
}

std::vector<ndarray> tril_indices_from(const ndarray& arr, std::int64_t k) {
  if (arr.ndim() != 2) throw ValueError("input array must be 2-d");
  return tril_indices(arr.shape()[0], k, arr.shape()[1], arr.device());
}

std::vector<ndarray> triu_indices_from(const ndarray& arr, std::int64_t k) {
  if (arr.ndim() != 2) throw ValueError("input array must be 2-d");
  return triu_indices(arr.shape()[0], k, arr.shape()[1], arr.device());
}

std::vector<ndarray> mask_indices(std::int64_t n, const std::function<ndarray(const ndarray&, std::int64_t)>& mask_func,
                                  std::int64_t k, Device device) {
  ndarray m = ones({n, n}, int64, device);
  return nonzero(not_equal(mask_func(m, k), 0));
}

void fill_diagonal(const ndarray& a, const operand& val, bool wrap) {
  if (a.ndim() < 2) throw ValueError("array must be at least 2-d");
  std::int64_t step, end = a.size();
  if (a.ndim() == 2) {
    step = a.shape()[1] + 1;
    if (!wrap) end = std::min(end, a.shape()[1] * a.shape()[1]);
  } else {
    for (std::int64_t d : a.shape())
      if (d != a.shape()[0]) throw ValueError("All dimensions of input must be of equal length");
    step = 1;
    std::int64_t prod = 1;
    for (int d = 0; d + 1 < a.ndim(); ++d) step += (prod *= a.shape()[d]);
  }
  if (end <= 0) return;
  put(a, arange(0, end, step, int64, a.device()), val);
}

}  // namespace copper
