// The array API standard's functions that compose copper's own operations
// (include/copper/array_api.hpp): checks here, computing in the composed functions.
#include <algorithm>
#include <numeric>
#include <string>

#include "copper/array_api.hpp"
#include "copper/creation.hpp"
#include "copper/linalg.hpp"
#include "copper/manipulation.hpp"
#include "copper/ufuncs.hpp"

namespace copper {
namespace {

int scan_axis(const ndarray& x, std::optional<int> axis, const char* fn) {
  if (!axis) {
    if (x.ndim() != 1)
      throw ValueError(std::string(fn) + ": axis must be given for arrays of more than one dimension");
    return 0;
  }
  return normalize_axis(*axis, x.ndim());
}

// The scan with the identity (0 or 1) prepended along the axis when asked.
ndarray with_initial(const ndarray& scanned, int axis, bool include_initial, int identity) {
  if (!include_initial) return scanned;
  Shape first = scanned.shape();
  first[axis] = 1;
  ndarray init = identity == 0 ? zeros(first, scanned.dtype(), scanned.device())
                               : ones(first, scanned.dtype(), scanned.device());
  return concatenate({init, scanned}, axis);
}

// x[..., start:stop, ...] with the slice on `axis`.
ndarray slice_axis(const ndarray& x, int axis, std::int64_t start, std::int64_t stop) {
  Index idx(static_cast<std::size_t>(axis), Slice());
  idx.push_back(Slice(start, stop));
  return x[idx];
}

}  // namespace

ndarray cumulative_sum(const ndarray& x_in, std::optional<int> axis, std::optional<DType> dtype, bool include_initial) {
  const ndarray x = x_in.ndim() == 0 ? ravel(x_in) : x_in;  // NumPy scans a 0-d input as 1-d
  const int ax = scan_axis(x, axis, "cumulative_sum");
  return with_initial(cumsum(x, ax, dtype), ax, include_initial, 0);
}

ndarray cumulative_prod(const ndarray& x_in, std::optional<int> axis, std::optional<DType> dtype, bool include_initial) {
  const ndarray x = x_in.ndim() == 0 ? ravel(x_in) : x_in;  // NumPy scans a 0-d input as 1-d
  const int ax = scan_axis(x, axis, "cumulative_prod");
  return with_initial(cumprod(x, ax, dtype), ax, include_initial, 1);
}

ndarray matrix_transpose(const ndarray& x) {
  if (x.ndim() < 2)
    throw ValueError("Input array must be at least 2-dimensional, but it is " + std::to_string(x.ndim()));
  return swapaxes(x, -1, -2);
}

ndarray vecdot(const ndarray& x1, const ndarray& x2, int axis) {
  if (x1.ndim() == 0 || x2.ndim() == 0) throw ValueError("vecdot: inputs must have at least one dimension");
  // The axis is each operand's own, as NumPy's gufunc applies it (AxisError from moveaxis).
  const ndarray a = moveaxis(x1, {axis}, {-1});
  const ndarray b = moveaxis(x2, {axis}, {-1});
  if (a.shape().back() != b.shape().back())
    throw ValueError("vecdot: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                     "(n),(n)->() (size " + std::to_string(b.shape().back()) + " is different from " +
                     std::to_string(a.shape().back()) + ")");
  // On the CPU, rows that are contiguous along the core axis go through matmul's dot products
  // (BLAS ?gemv_ or the dot kernel, conjugating x1 as they read it): one pass without the
  // product's temporary (multiply then sum took 2-3x NumPy's time, 14x for complex). On a
  // GPU multiply and sum stay (a batched GEMM of 1 x 1 products is slow).
  auto unit_stride = [](const ndarray& x) { return x.shape().back() <= 1 || x.strides().back() == x.itemsize(); };
  if (a.device().type == DeviceType::cpu && b.device() == a.device() && unit_stride(a) && unit_stride(b)) {
    MatmulOptions conjugated;
    conjugated.conjugate_a = true;
    const ndarray product = matmul(expand_dims(a, {-2}), expand_dims(b, {-1}), std::nullopt, conjugated);
    return squeeze(product, std::vector<int>{-2, -1});
  }
  const ndarray product = is_complex(a.dtype()) ? multiply(conjugate(a), b) : multiply(a, b);
  // The product's dtype, as NumPy's vecdot (sum would widen small integers).
  return sum(product, -1, ReduceOptions{.dtype = product.dtype()});
}

std::vector<ndarray> unstack(const ndarray& x, int axis) {
  const int ax = normalize_axis(axis, x.ndim());
  const ndarray moved = moveaxis(x, {ax}, {0});
  std::vector<ndarray> out;
  for (std::int64_t i = 0; i < moved.shape()[0]; ++i) out.push_back(moved[i]);
  return out;
}

ndarray diff(const ndarray& a, int n, int axis, const std::optional<ndarray>& prepend,
             const std::optional<ndarray>& append) {
  if (n < 0) throw ValueError("order must be non-negative but got " + std::to_string(n));
  if (a.ndim() == 0) throw ValueError("diff requires input that is at least one dimensional");
  const int ax = normalize_axis(axis, a.ndim());
  auto fit = [&](const ndarray& v) {  // a scalar becomes a length-1 slice along the axis
    if (v.ndim() != 0) return v;
    Shape s = a.shape();
    s[ax] = 1;
    return broadcast_to(v, s);
  };
  std::vector<ndarray> parts;
  if (prepend) parts.push_back(fit(*prepend));
  parts.push_back(a);
  if (append) parts.push_back(fit(*append));
  ndarray cur = parts.size() > 1 ? concatenate(parts, ax) : a;
  for (int i = 0; i < n; ++i) {
    const std::int64_t len = cur.shape()[ax];
    const ndarray hi = slice_axis(cur, ax, std::min<std::int64_t>(1, len), len);
    const ndarray lo = slice_axis(cur, ax, 0, std::max<std::int64_t>(len - 1, 0));
    cur = cur.dtype() == bool_ ? not_equal(hi, lo) : subtract(hi, lo);
  }
  return cur;
}

std::vector<ndarray> meshgrid(const std::vector<ndarray>& xi, std::string_view indexing, bool sparse, bool copy) {
  if (indexing != "xy" && indexing != "ij") throw ValueError("Valid values for `indexing` are 'xy' and 'ij'.");
  const std::size_t ndim = xi.size();
  std::vector<ndarray> out;
  for (std::size_t i = 0; i < ndim; ++i) {
    const ndarray flat = ravel(xi[i]);
    Shape s(ndim, 1);
    s[i] = flat.size();
    if (indexing == "xy" && ndim > 1 && i < 2) std::swap(s[0], s[1]);  // Cartesian: x varies along columns
    out.push_back(reshape(flat, s));
  }
  if (!sparse && ndim > 0) out = broadcast_arrays(out);
  if (copy) {
    for (ndarray& o : out) o = o.copy();
  }
  return out;
}

ndarray concat(const std::vector<ndarray>& arrays, std::optional<int> axis) { return concatenate(arrays, axis); }

bool isdtype(DType dtype, std::string_view kind_name) {
  const Kind k = kind(dtype);
  if (kind_name == "bool") return k == Kind::bool_;
  if (kind_name == "signed integer") return k == Kind::int_;
  if (kind_name == "unsigned integer") return k == Kind::uint_;
  if (kind_name == "integral") return k == Kind::int_ || k == Kind::uint_;
  if (kind_name == "real floating") return k == Kind::float_;
  if (kind_name == "complex floating") return k == Kind::complex_;
  if (kind_name == "numeric") return k != Kind::bool_;
  throw ValueError("kind argument must be one of 'bool', 'signed integer', 'unsigned integer', 'integral', "
                   "'real floating', 'complex floating' or 'numeric', not '" + std::string(kind_name) + "'");
}

namespace linalg {

ndarray vector_norm(const ndarray& x, const Axes& axis, bool keepdims, double ord) {
  std::vector<int> axes;
  if (axis.all()) {
    axes.resize(static_cast<std::size_t>(x.ndim()));
    std::iota(axes.begin(), axes.end(), 0);
  } else {
    for (int a : axis.list()) axes.push_back(normalize_axis(a, x.ndim()));
    std::sort(axes.begin(), axes.end());
    if (std::adjacent_find(axes.begin(), axes.end()) != axes.end()) throw ValueError("repeated axis");
  }
  // The reduced axes last, flattened into one, then one vector norm along it.
  std::vector<int> order;
  for (int d = 0; d < x.ndim(); ++d) {
    if (!std::binary_search(axes.begin(), axes.end(), d)) order.push_back(d);
  }
  Shape kept;
  for (int d : order) kept.push_back(x.shape()[static_cast<std::size_t>(d)]);
  order.insert(order.end(), axes.begin(), axes.end());
  Shape flat = kept;
  flat.push_back(-1);
  if (x.size() == 0) {  // reshape cannot infer -1 from zero elements
    std::int64_t len = 1;
    for (int d : axes) len *= x.shape()[static_cast<std::size_t>(d)];
    flat.back() = len;
  }
  ndarray result = norm(reshape(transpose(x, order), flat), ord, std::vector<int>{-1}, false);
  if (!keepdims) return result;
  Shape with_ones = x.shape();
  for (int d : axes) with_ones[static_cast<std::size_t>(d)] = 1;
  return reshape(result, with_ones);
}

}  // namespace linalg
}  // namespace copper
