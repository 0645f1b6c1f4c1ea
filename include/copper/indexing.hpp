// Indexing functions (NumPy's "indexing routines"): gathers and scatters by index
// arrays, selection by masks, index generators, and ufunc.at. Advanced indexing itself
// is ndarray::operator[] / assign with array items (ndarray.hpp).
#pragma once
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "copper/manipulation.hpp"
#include "copper/ndarray.hpp"

namespace copper {

// What an out-of-range index does: raise IndexError (negative indices count from the
// end), wrap around (modulo the length) or clip to the valid range (mode= of take/put/choose).
enum class IndexMode { raise, wrap, clip };

// ---- gathers and scatters ----
// axis none: the flattened array. out (optional) receives the result (NumPy's out=).
ndarray take(const ndarray& a, const ndarray& indices, std::optional<int> axis = std::nullopt,
             IndexMode mode = IndexMode::raise, const std::optional<ndarray>& out = std::nullopt);
// a.flat[ind] = v, v repeated as needed (the last of repeated targets wins).
void put(const ndarray& a, const ndarray& ind, const operand& v, IndexMode mode = IndexMode::raise);
ndarray take_along_axis(const ndarray& arr, const ndarray& indices, std::optional<int> axis = -1);
void put_along_axis(const ndarray& arr, const ndarray& indices, const operand& values, std::optional<int> axis);
// One of `choices` per element: out[i] = choices[a[i]][i] (a and every choice broadcast together).
ndarray choose(const ndarray& a, const std::vector<ndarray>& choices, const std::optional<ndarray>& out = std::nullopt,
               IndexMode mode = IndexMode::raise);
// The first choice whose condition holds, else default_.
ndarray select(const std::vector<ndarray>& condlist, const std::vector<ndarray>& choicelist,
               const operand& default_ = 0);

// ---- masks ----
ndarray compress(const ndarray& condition, const ndarray& a, std::optional<int> axis = std::nullopt,
                 const std::optional<ndarray>& out = std::nullopt);
ndarray extract(const ndarray& condition, const ndarray& arr);  // ravel(arr)[ravel(condition) != 0]
void place(const ndarray& arr, const ndarray& mask, const ndarray& vals);  // vals cycled over the true places
void putmask(const ndarray& a, const ndarray& mask, const operand& values);  // values repeated over a's size
std::vector<ndarray> nonzero(const ndarray& a);  // one int64 array per dimension
ndarray flatnonzero(const ndarray& a);
ndarray argwhere(const ndarray& a);              // (count, ndim) int64
inline std::vector<ndarray> where(const ndarray& condition) { return nonzero(condition); }

// ---- index generators ----
std::vector<ndarray> ix_(const std::vector<ndarray>& args);
ndarray indices(const Shape& dimensions, DType dtype = int64, Device device = default_device());
std::vector<ndarray> indices_sparse(const Shape& dimensions, DType dtype = int64, Device device = default_device());
std::vector<ndarray> unravel_index(const ndarray& indices, const Shape& shape, Order order = Order::C);
// modes: one for every dimension, or a single one for all.
ndarray ravel_multi_index(const std::vector<ndarray>& multi_index, const Shape& dims,
                          const std::vector<IndexMode>& modes = {IndexMode::raise}, Order order = Order::C);
std::vector<ndarray> diag_indices(std::int64_t n, int ndim = 2, Device device = default_device());
std::vector<ndarray> diag_indices_from(const ndarray& arr);
std::vector<ndarray> tril_indices(std::int64_t n, std::int64_t k = 0, std::optional<std::int64_t> m = std::nullopt,
                                  Device device = default_device());
std::vector<ndarray> tril_indices_from(const ndarray& arr, std::int64_t k = 0);
std::vector<ndarray> triu_indices(std::int64_t n, std::int64_t k = 0, std::optional<std::int64_t> m = std::nullopt,
                                  Device device = default_device());
std::vector<ndarray> triu_indices_from(const ndarray& arr, std::int64_t k = 0);
// nonzero(mask_func(ones((n, n)), k)), e.g. mask_indices(n, copper::triu).
std::vector<ndarray> mask_indices(std::int64_t n, const std::function<ndarray(const ndarray&, std::int64_t)>& mask_func,
                                  std::int64_t k = 0, Device device = default_device());
void fill_diagonal(const ndarray& a, const operand& val, bool wrap = false);

// ---- ufunc.at ----
// NumPy's unbuffered in-place op: for every element the index selects (repeats
// included, in order), a[i] = op(a[i], values[...]); unary ops take no values. `op` is
// the ufunc's name ("add", "maximum", "negative", ...); values broadcast to a[indices].
void ufunc_at(std::string_view op, const ndarray& a, const Index& indices,
              const std::optional<operand>& values = std::nullopt);

}  // namespace copper
