// ediff1d, gradient, trapezoid and unwrap: slices of the input combined elementwise
// (both devices), with NumPy's checks and dtype rules.
#include <algorithm>
#include <string>

#include "copper/array_api.hpp"
#include "copper/creation.hpp"
#include "copper/manipulation.hpp"
#include "copper/numerical.hpp"
#include "copper/reductions.hpp"
#include "copper/ufuncs.hpp"

namespace copper {
namespace {

ndarray along(const ndarray& a, int axis, std::optional<std::int64_t> start, std::optional<std::int64_t> stop) {
  Index idx(static_cast<std::size_t>(axis), Slice());
  idx.push_back(Slice(start, stop));
  return a[idx];
}

// A 1-d array shaped to broadcast along `axis` of an ndim-dimensional array.
ndarray on_axis(const ndarray& v, int axis, int ndim) {
  Shape s(static_cast<std::size_t>(ndim), 1);
  s[axis] = v.size();
  return reshape(v, s);
}

// k * dx and k / dx: a weak scalar stays weak (Python's float arithmetic), a 0-d array strong.
operand times(double k, const operand& dx) {
  if (!dx.is_array()) return Scalar(k * dx.scalar().to_double());
  return multiply(k, dx.array());
}
operand over(double k, const operand& dx) {
  if (!dx.is_array()) return Scalar(k / dx.scalar().to_double());
  return divide(k, dx.array());
}

ndarray one_gradient(const ndarray& f, int axis, const operand& dx, int edge_order) {
  const std::int64_t n = f.shape()[axis];
  if (n < edge_order + 1)
    throw ValueError("Shape of array too small to calculate a numerical gradient, at least (edge_order + 1) "
                     "elements are required.");
  const int nd = f.ndim();
  auto at = [&](std::int64_t i) { return along(f, axis, i < 0 ? n + i : i, (i < 0 ? n + i : i) + 1); };
  ndarray inner, first, last;
  if (!dx.is_array() || dx.array().ndim() == 0) {
    inner = divide(subtract(along(f, axis, 2, std::nullopt), along(f, axis, std::nullopt, n - 2)), times(2.0, dx));
    if (edge_order == 1) {
      first = divide(subtract(at(1), at(0)), dx);
      last = divide(subtract(at(-1), at(-2)), dx);
    } else {
      first = add(add(multiply(at(0), over(-1.5, dx)), multiply(at(1), over(2.0, dx))), multiply(at(2), over(-0.5, dx)));
      last = add(add(multiply(at(-3), over(0.5, dx)), multiply(at(-2), over(-2.0, dx))), multiply(at(-1), over(1.5, dx)));
    }
  } else {
    const ndarray& coords = dx.array();
    const std::int64_t m = coords.shape()[0];
    const ndarray dx1 = coords[{Slice(std::nullopt, m - 1)}], dx2 = coords[{Slice(1, std::nullopt)}];
    const ndarray a = divide(negative(dx2), multiply(dx1, add(dx1, dx2)));
    const ndarray b = divide(subtract(dx2, dx1), multiply(dx1, dx2));
    const ndarray c = divide(dx1, multiply(dx2, add(dx1, dx2)));
    inner = add(add(multiply(on_axis(a, axis, nd), along(f, axis, std::nullopt, n - 2)),
                    multiply(on_axis(b, axis, nd), along(f, axis, 1, n - 1))),
                multiply(on_axis(c, axis, nd), along(f, axis, 2, std::nullopt)));
    auto d = [&](std::int64_t i) { return coords[{i < 0 ? m + i : i}]; };
    if (edge_order == 1) {
      first = divide(subtract(at(1), at(0)), d(0));
      last = divide(subtract(at(-1), at(-2)), d(-1));
    } else {
      ndarray p = d(0), q = d(1);
      first = add(add(multiply(divide(negative(add(multiply(2.0, p), q)), multiply(p, add(p, q))), at(0)),
                      multiply(divide(add(p, q), multiply(p, q)), at(1))),
                  multiply(divide(negative(p), multiply(q, add(p, q))), at(2)));
      p = d(-2), q = d(-1);
      last = add(add(multiply(divide(q, multiply(p, add(p, q))), at(-3)),
                     multiply(divide(negative(add(q, p)), multiply(p, q)), at(-2))),
                 multiply(divide(add(multiply(2.0, q), p), multiply(q, add(p, q))), at(-1)));
    }
  }
  return concatenate({first, inner, last}, axis);
}

}  // namespace

ndarray ediff1d(const ndarray& ary, const std::optional<ndarray>& to_end, const std::optional<ndarray>& to_begin) {
  const ndarray flat = ravel(ary);
  const DType t = flat.dtype();
  auto extra = [&](const std::optional<ndarray>& v, const char* name) {
    if (!can_cast(v->dtype(), t, Casting::same_kind))
      throw TypeError(std::string("dtype of `") + name + "` must be compatible with input `ary` under the " +
                      "`same_kind` rule.");
    return ravel(*v).astype(t);
  };
  std::vector<ndarray> parts;
  if (to_begin) parts.push_back(extra(to_begin, "to_begin"));
  const std::int64_t n = flat.size();
  parts.push_back(subtract(flat[{Slice(1, std::nullopt)}], flat[{Slice(std::nullopt, std::max<std::int64_t>(n - 1, 0))}])
                      .astype(t, Casting::unsafe, false));
  if (to_end) parts.push_back(extra(to_end, "to_end"));
  return parts.size() == 1 ? parts[0] : concatenate(parts, 0);
}

std::vector<ndarray> gradient(const ndarray& f, const std::vector<Spacing>& spacing, std::optional<std::vector<int>> axis,
                              int edge_order) {
  const int nd = f.ndim();
  std::vector<int> axes;
  if (!axis) {
    for (int i = 0; i < nd; ++i) axes.push_back(i);
  } else {
    for (int a : *axis) {
      const int ax = normalize_axis(a, nd);
      if (std::find(axes.begin(), axes.end(), ax) != axes.end()) throw ValueError("repeated axis");
      axes.push_back(ax);
    }
  }
  // Each axis's spacing, held by value: a weak scalar, a 0-d array or the differences of coordinates.
  auto is_scalar = [](const Spacing& s) {
    return std::holds_alternative<Scalar>(s) || std::get<ndarray>(s).ndim() == 0;
  };
  auto as_operand = [](const Spacing& s) -> operand {
    if (std::holds_alternative<Scalar>(s)) return std::get<Scalar>(s);
    return ndarray(std::get<ndarray>(s));
  };
  std::vector<operand> dx;
  if (spacing.empty()) {
    dx.assign(axes.size(), operand(Scalar(1.0)));
  } else if (spacing.size() == 1 && is_scalar(spacing[0])) {
    dx.assign(axes.size(), as_operand(spacing[0]));
  } else if (spacing.size() == axes.size()) {
    for (std::size_t i = 0; i < spacing.size(); ++i) {
      if (is_scalar(spacing[i])) {
        dx.push_back(as_operand(spacing[i]));
        continue;
      }
      ndarray d = std::get<ndarray>(spacing[i]);
      if (d.ndim() != 1) throw ValueError("distances must be either scalars or 1d");
      if (d.shape()[0] != f.shape()[axes[i]])
        throw ValueError("when 1d, distances must match the length of the corresponding dimension");
      if (is_integer(d.dtype())) d = d.astype(float64);
      ndarray diffx = diff(d);
      if (diffx.size() > 0 && all(equal(diffx, diffx[{std::int64_t{0}}])).item().to_bool())
        diffx = diffx[{std::int64_t{0}}];
      dx.push_back(std::move(diffx));
    }
  } else {
    throw TypeError("invalid number of arguments");
  }
  if (edge_order > 2) throw ValueError("'edge_order' greater than 2 not supported");
  ndarray work = f;
  DType otype = f.dtype();
  if (!is_inexact(otype)) {
    if (is_integer(otype)) work = f.astype(float64);
    otype = float64;
  }
  std::vector<ndarray> out;
  for (std::size_t i = 0; i < axes.size(); ++i)
    out.push_back(one_gradient(work, axes[i], dx[i], edge_order).astype(otype, Casting::unsafe, false));
  return out;
}

ndarray trapezoid(const ndarray& y, const std::optional<ndarray>& x, const Scalar& dx, int axis) {
  const int nd = y.ndim();
  const int ax = normalize_axis(axis, nd);
  const std::int64_t n = y.shape()[ax];
  const ndarray hi = along(y, ax, 1, std::nullopt), lo = along(y, ax, std::nullopt, std::max<std::int64_t>(n - 1, 0));
  const ndarray pair_sum = add(hi, lo);
  ndarray weighted;
  if (!x) {
    weighted = multiply(operand(dx), pair_sum);
  } else if (x->ndim() == 1) {
    weighted = multiply(on_axis(diff(*x), ax, nd), pair_sum);
  } else {
    weighted = multiply(diff(*x, 1, ax), pair_sum);
  }
  return sum(divide(weighted, 2.0), ax);
}

ndarray unwrap(const ndarray& p, std::optional<Scalar> discont, int axis, const Scalar& period) {
  const int nd = p.ndim();
  const int ax = normalize_axis(axis, nd);
  const ndarray dd = diff(p, 1, ax);
  const DType t = result_type({dd, period});
  operand interval_high = 0.0;
  bool boundary_ambiguous = true;
  if (is_integer(t)) {
    // Integer periods split exactly: divmod(period, 2).
    const std::int64_t per = period.to_int64();
    const std::int64_t q = per >= 0 ? per / 2 : -((-per + 1) / 2);
    interval_high = Scalar(q);
    boundary_ambiguous = (per - 2 * q) == 0;
  } else {
    interval_high = Scalar(period.to_double() / 2);
  }
  const Scalar high = interval_high.scalar();
  const Scalar low = is_integer(t) ? Scalar(-high.to_int64()) : Scalar(-high.to_double());
  ndarray ddmod = add(remainder(subtract(dd, low), period), low);
  if (boundary_ambiguous) ddmod = where(logical_and(equal(ddmod, low), greater(dd, 0)), high, ddmod).astype(ddmod.dtype());
  ndarray ph_correct = subtract(ddmod, dd);
  const Scalar disc = discont.value_or(Scalar(period.to_double() / 2));
  ph_correct = where(less(absolute(dd), disc), 0, ph_correct).astype(ph_correct.dtype());
  ndarray up = array(p, t);
  if (p.shape()[ax] > 1)
    along(up, ax, 1, std::nullopt).assign(add(along(p, ax, 1, std::nullopt), cumsum(ph_correct, ax)));
  return up;
}

}  // namespace copper
