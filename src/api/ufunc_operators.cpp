// ndarray's arithmetic, comparison and bitwise operators, and the in-place forms
// (out=self, casting 'same_kind', as NumPy's `x += y`).
#include "copper/ufuncs.hpp"

namespace copper {

#define COPPER_DEFINE_OPERATOR(op, fn)                                          \
  ndarray operator op(const ndarray& a, const operand& b) { return fn(a, b); } \
  ndarray operator op(const Scalar& a, const ndarray& b) { return fn(a, b); }
COPPER_DEFINE_OPERATOR(+, add)
COPPER_DEFINE_OPERATOR(-, subtract)
COPPER_DEFINE_OPERATOR(*, multiply)
COPPER_DEFINE_OPERATOR(/, true_divide)
COPPER_DEFINE_OPERATOR(%, remainder)
COPPER_DEFINE_OPERATOR(&, bitwise_and)
COPPER_DEFINE_OPERATOR(|, bitwise_or)
COPPER_DEFINE_OPERATOR(^, bitwise_xor)
COPPER_DEFINE_OPERATOR(<<, left_shift)
COPPER_DEFINE_OPERATOR(>>, right_shift)
COPPER_DEFINE_OPERATOR(<, less)
COPPER_DEFINE_OPERATOR(<=, less_equal)
COPPER_DEFINE_OPERATOR(>, greater)
COPPER_DEFINE_OPERATOR(>=, greater_equal)
COPPER_DEFINE_OPERATOR(==, equal)
COPPER_DEFINE_OPERATOR(!=, not_equal)
#undef COPPER_DEFINE_OPERATOR

ndarray operator-(const ndarray& a) { return negative(a); }
ndarray operator+(const ndarray& a) { return positive(a); }
ndarray operator~(const ndarray& a) { return invert(a); }

#define COPPER_DEFINE_INPLACE(op, fn)                     \
  ndarray& ndarray::operator op(const operand& other) {   \
    UfuncOptions opts;                                    \
    opts.out = *this;                                     \
    fn(*this, other, opts);                               \
    return *this;                                         \
  }
COPPER_DEFINE_INPLACE(+=, add)
COPPER_DEFINE_INPLACE(-=, subtract)
COPPER_DEFINE_INPLACE(*=, multiply)
COPPER_DEFINE_INPLACE(/=, true_divide)
COPPER_DEFINE_INPLACE(%=, remainder)
COPPER_DEFINE_INPLACE(&=, bitwise_and)
COPPER_DEFINE_INPLACE(|=, bitwise_or)
COPPER_DEFINE_INPLACE(^=, bitwise_xor)
COPPER_DEFINE_INPLACE(<<=, left_shift)
COPPER_DEFINE_INPLACE(>>=, right_shift)
#undef COPPER_DEFINE_INPLACE

ndarray ndarray::real() const { return copper::real(*this); }
ndarray ndarray::imag() const { return copper::imag(*this); }
ndarray ndarray::conj() const { return conjugate(*this); }

}  // namespace copper
