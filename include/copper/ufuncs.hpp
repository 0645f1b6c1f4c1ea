// Elementwise operations (NumPy's ufuncs) with NumPy 2 type rules, broadcasting and out=.
#pragma once
#include <optional>

#include "copper/ndarray.hpp"
#include "copper/ufunc_list.hpp"

namespace copper {

struct UfuncOptions {
  std::optional<ndarray> out;    // write here (shape must equal the broadcast shape)
  std::optional<DType> dtype;    // compute in this dtype (NumPy's dtype=)
  Casting casting = Casting::same_kind;
};

#define COPPER_DECLARE_UNARY(name) ndarray name(const operand& x, const UfuncOptions& opts = {});
#define COPPER_DECLARE_BINARY(name) \
  ndarray name(const operand& x1, const operand& x2, const UfuncOptions& opts = {});
#define COPPER_DECLARE_TERNARY(name) \
  ndarray name(const operand& x1, const operand& x2, const operand& x3, const UfuncOptions& opts = {});
COPPER_UNARY_UFUNCS(COPPER_DECLARE_UNARY)
COPPER_BINARY_UFUNCS(COPPER_DECLARE_BINARY)
COPPER_TERNARY_UFUNCS(COPPER_DECLARE_TERNARY)
#undef COPPER_DECLARE_UNARY
#undef COPPER_DECLARE_BINARY
#undef COPPER_DECLARE_TERNARY

// Aliases NumPy users know.
inline ndarray abs(const operand& x, const UfuncOptions& o = {}) { return absolute(x, o); }
inline ndarray divide(const operand& a, const operand& b, const UfuncOptions& o = {}) { return true_divide(a, b, o); }
inline ndarray mod(const operand& a, const operand& b, const UfuncOptions& o = {}) { return remainder(a, b, o); }
inline ndarray conj(const operand& x, const UfuncOptions& o = {}) { return conjugate(x, o); }
inline ndarray bitwise_not(const operand& x, const UfuncOptions& o = {}) { return invert(x, o); }

// Not ufuncs in NumPy, but elementwise all the same.
ndarray where(const operand& condition, const operand& x, const operand& y);
ndarray around(const operand& x, int decimals = 0, const std::optional<ndarray>& out = std::nullopt);
inline ndarray round(const operand& x, int decimals = 0, const std::optional<ndarray>& out = std::nullopt) {
  return around(x, decimals, out);
}
ndarray real(const ndarray& x);  // a view for complex input, as NumPy's
ndarray imag(const ndarray& x);

// Type promotion over arrays and (weak) scalars, exactly as numpy.result_type.
DType result_type(const std::vector<operand>& args);

// Operators: at least one side is an array; scalars are weak.
#define COPPER_DECLARE_OPERATOR(op)                                  \
  ndarray operator op(const ndarray& a, const operand& b);           \
  ndarray operator op(const Scalar& a, const ndarray& b);
COPPER_DECLARE_OPERATOR(+)
COPPER_DECLARE_OPERATOR(-)
COPPER_DECLARE_OPERATOR(*)
COPPER_DECLARE_OPERATOR(/)
COPPER_DECLARE_OPERATOR(%)
COPPER_DECLARE_OPERATOR(&)
COPPER_DECLARE_OPERATOR(|)
COPPER_DECLARE_OPERATOR(^)
COPPER_DECLARE_OPERATOR(<<)
COPPER_DECLARE_OPERATOR(>>)
COPPER_DECLARE_OPERATOR(<)
COPPER_DECLARE_OPERATOR(<=)
COPPER_DECLARE_OPERATOR(>)
COPPER_DECLARE_OPERATOR(>=)
COPPER_DECLARE_OPERATOR(==)
COPPER_DECLARE_OPERATOR(!=)
#undef COPPER_DECLARE_OPERATOR
ndarray operator-(const ndarray& a);
ndarray operator+(const ndarray& a);
ndarray operator~(const ndarray& a);

}  // namespace copper
