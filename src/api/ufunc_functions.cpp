// The ufunc objects' calls and attributes: every call goes to apply_ufunc with the
// object's op id; attributes read the op catalogue.
#include <limits>

#include "api/ufunc.h"
#include "copper/indexing.hpp"
#include "copper/manipulation.hpp"

namespace copper {

ndarray unary_ufunc::operator()(const operand& x, const UfuncOptions& opts) const {
  const operand* in[] = {&x};
  return api::apply_ufunc(id_, in, opts);
}
ndarray binary_ufunc::operator()(const operand& x1, const operand& x2, const UfuncOptions& opts) const {
  const operand* in[] = {&x1, &x2};
  return api::apply_ufunc(id_, in, opts);
}
ndarray ternary_ufunc::operator()(const operand& x1, const operand& x2, const operand& x3,
                                  const UfuncOptions& opts) const {
  const operand* in[] = {&x1, &x2, &x3};
  return api::apply_ufunc(id_, in, opts);
}
std::pair<ndarray, ndarray> unary_ufunc2::operator()(const operand& x, const UfuncOptions& opts) const {
  const operand* in[] = {&x};
  ndarray r[2];
  api::apply_ufunc(id_, in, opts, r);
  return {std::move(r[0]), std::move(r[1])};
}
std::pair<ndarray, ndarray> binary_ufunc2::operator()(const operand& x1, const operand& x2,
                                                      const UfuncOptions& opts) const {
  const operand* in[] = {&x1, &x2};
  ndarray r[2];
  api::apply_ufunc(id_, in, opts, r);
  return {std::move(r[0]), std::move(r[1])};
}

std::vector<ndarray> ufunc::call(std::span<const operand> inputs, const UfuncOptions& opts) const {
  std::vector<const operand*> in;
  for (const operand& x : inputs) in.push_back(&x);
  ndarray r[2];
  api::apply_ufunc(id_, in, opts, r);
  return std::vector<ndarray>(r, r + nout());
}

std::string ufunc::name() const { return api::ufunc_name(id_); }
int ufunc::nin() const { return ops::info(id_).nin; }
int ufunc::nout() const { return ops::info(id_).nout; }
std::vector<std::string> ufunc::types() const { return ops::loop_signatures(id_); }
int ufunc::ntypes() const { return static_cast<int>(types().size()); }

std::optional<Scalar> ufunc::identity() const {
  switch (ops::info(id_).identity) {
    case ops::Identity::none: return std::nullopt;
    case ops::Identity::zero: return Scalar(0);
    case ops::Identity::one: return Scalar(1);
    case ops::Identity::minus_one: return Scalar(-1);
    case ops::Identity::true_: return Scalar(true);
    case ops::Identity::false_: return Scalar(false);
    case ops::Identity::minus_inf: return Scalar(-std::numeric_limits<double>::infinity());
  }
  return std::nullopt;
}

// outer: a gets b.ndim trailing length-1 axes, then the call broadcasts them.
std::vector<ndarray> ufunc::outer_all(const operand& a, const operand& b, const UfuncOptions& opts) const {
  if (nin() != 2) throw ValueError("outer product only supported for binary functions");
  const int bdim = b.is_array() ? b.array().ndim() : 0;
  std::vector<operand> in;
  if (a.is_array()) {
    Shape shape = a.array().shape();
    shape.insert(shape.end(), static_cast<std::size_t>(bdim), 1);
    in.emplace_back(reshape(a.array(), shape));
  } else {
    in.push_back(a);
  }
  in.push_back(b);
  return call(in, opts);
}

void ufunc::at(const ndarray& a, const Index& indices, const std::optional<operand>& b) const {
  ufunc_at(ops::info(id_).name, a, indices, b);
}

ndarray binary_ufunc::outer(const operand& a, const operand& b, const UfuncOptions& opts) const {
  return std::move(outer_all(a, b, opts)[0]);
}
std::pair<ndarray, ndarray> binary_ufunc2::outer(const operand& a, const operand& b, const UfuncOptions& opts) const {
  auto r = outer_all(a, b, opts);
  return {std::move(r[0]), std::move(r[1])};
}

}  // namespace copper
