// Elementwise operations (NumPy's ufuncs) with NumPy 2 type rules, broadcasting and out=.
#pragma once
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "copper/ndarray.hpp"
#include "copper/reductions.hpp"
#include "copper/ufunc_id.hpp"

namespace copper {

// Default member initializers throughout, so designated and partial aggregate
// initialization ({out, dtype, casting}) stays warning-free.
struct UfuncOptions {
  std::optional<ndarray> out = std::nullopt;    // write here (shape must equal the broadcast shape)
  std::optional<DType> dtype = std::nullopt;    // compute in this dtype (NumPy's dtype=)
  Casting casting = Casting::same_kind;
  std::optional<ndarray> out2 = std::nullopt;   // the second output of two-output ufuncs (divmod, modf, frexp)
  std::optional<ndarray> where = std::nullopt;  // only where true (bool, broadcast like an input) is out written
  char order = 'K';                             // memory order of new outputs: 'K', 'C', 'F' or 'A'
  // NumPy's signature=: one dtype (or none) per input then output, fixing the loop.
  std::vector<std::optional<DType>> signature = {};
};

// ufunc.reduce's keywords (axis is its own argument).
struct UfuncReduceOptions {
  std::optional<DType> dtype = std::nullopt;
  std::optional<ndarray> out = std::nullopt;
  bool keepdims = false;
  std::optional<Scalar> initial = std::nullopt;  // the fold's start value (else the identity, else the first element)
  std::optional<ndarray> where = std::nullopt;   // only these elements take part (needs an identity or initial)
  bool use_identity = true;  // false: NumPy's initial=None, no start value (an empty slice raises)
};

// NumPy's ufunc objects: every op of the catalogue is one (copper::add, copper::sqrt, ...),
// with NumPy's attributes and methods. The typed subclasses below add the call operator
// for their number of inputs and outputs.
class ufunc {
 public:
  constexpr explicit ufunc(UfuncId id) : id_(id) {}
  UfuncId id() const { return id_; }
  std::string name() const;  // NumPy's __name__ ("divide" for true_divide)
  int nin() const;
  int nout() const;
  int nargs() const { return nin() + nout(); }
  int ntypes() const;
  std::vector<std::string> types() const;  // "ii->i", ... in loop order
  std::optional<Scalar> identity() const;  // none for ufuncs without one

  // Any ufunc: the outputs (one or two) for these inputs.
  std::vector<ndarray> call(std::span<const operand> inputs, const UfuncOptions& opts = {}) const;
  // Binary ufuncs only (nin 2, nout 1), as NumPy's methods.
  ndarray reduce(const ndarray& a, const Axes& axis = Axes(0), const UfuncReduceOptions& opts = {}) const;
  ndarray accumulate(const ndarray& a, int axis = 0, std::optional<DType> dtype = std::nullopt,
                     const std::optional<ndarray>& out = std::nullopt) const;
  ndarray reduceat(const ndarray& a, const ndarray& indices, int axis = 0, std::optional<DType> dtype = std::nullopt,
                   const std::optional<ndarray>& out = std::nullopt) const;
  // op(a[i..., newaxis...], b[newaxis..., j...]) for every pair: all outputs.
  std::vector<ndarray> outer_all(const operand& a, const operand& b, const UfuncOptions& opts = {}) const;
  // a[indices] = op(a[indices], b) unbuffered (repeated indices apply repeatedly); unary
  // ufuncs take no b. copper::ufunc_at (indexing.hpp) does the work.
  void at(const ndarray& a, const Index& indices, const std::optional<operand>& b = std::nullopt) const;

 protected:
  UfuncId id_;
};

class unary_ufunc : public ufunc {
 public:
  using ufunc::ufunc;
  ndarray operator()(const operand& x, const UfuncOptions& opts = {}) const;
};
class binary_ufunc : public ufunc {
 public:
  using ufunc::ufunc;
  ndarray operator()(const operand& x1, const operand& x2, const UfuncOptions& opts = {}) const;
  ndarray outer(const operand& a, const operand& b, const UfuncOptions& opts = {}) const;
};
class ternary_ufunc : public ufunc {
 public:
  using ufunc::ufunc;
  ndarray operator()(const operand& x1, const operand& x2, const operand& x3, const UfuncOptions& opts = {}) const;
};
// Two outputs (modf, frexp; divmod).
class unary_ufunc2 : public ufunc {
 public:
  using ufunc::ufunc;
  std::pair<ndarray, ndarray> operator()(const operand& x, const UfuncOptions& opts = {}) const;
};
class binary_ufunc2 : public ufunc {
 public:
  using ufunc::ufunc;
  std::pair<ndarray, ndarray> operator()(const operand& x1, const operand& x2, const UfuncOptions& opts = {}) const;
  std::pair<ndarray, ndarray> outer(const operand& a, const operand& b, const UfuncOptions& opts = {}) const;
};

#define COPPER_DECLARE_UFUNC(cls, name) inline constexpr cls name{UfuncId::name};
#define COPPER_DECLARE_UNARY(name) COPPER_DECLARE_UFUNC(unary_ufunc, name)
#define COPPER_DECLARE_BINARY(name) COPPER_DECLARE_UFUNC(binary_ufunc, name)
#define COPPER_DECLARE_TERNARY(name) COPPER_DECLARE_UFUNC(ternary_ufunc, name)
#define COPPER_DECLARE_UNARY2(name) COPPER_DECLARE_UFUNC(unary_ufunc2, name)
#define COPPER_DECLARE_BINARY2(name) COPPER_DECLARE_UFUNC(binary_ufunc2, name)
COPPER_UNARY_UFUNCS(COPPER_DECLARE_UNARY)
COPPER_BINARY_UFUNCS(COPPER_DECLARE_BINARY)
COPPER_TERNARY_UFUNCS(COPPER_DECLARE_TERNARY)
COPPER_UNARY2_UFUNCS(COPPER_DECLARE_UNARY2)
COPPER_BINARY2_UFUNCS(COPPER_DECLARE_BINARY2)
#undef COPPER_DECLARE_UFUNC
#undef COPPER_DECLARE_UNARY
#undef COPPER_DECLARE_BINARY
#undef COPPER_DECLARE_TERNARY
#undef COPPER_DECLARE_UNARY2
#undef COPPER_DECLARE_BINARY2

// Aliases NumPy users know: the same objects under a second name.
inline constexpr const unary_ufunc& abs = absolute;
inline constexpr const binary_ufunc& divide = true_divide;
inline constexpr const binary_ufunc& mod = remainder;
inline constexpr const unary_ufunc& conj = conjugate;
inline constexpr const unary_ufunc& bitwise_not = invert;

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
