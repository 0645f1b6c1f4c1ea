// copper::add, copper::sqrt, ...: one definition per name in ufunc_list.hpp, each a
// call into apply_ufunc with its op id.
#include "api/ufunc.h"

namespace copper {

#define COPPER_DEFINE_UNARY(name)                                           \
  ndarray name(const operand& x, const UfuncOptions& opts) {               \
    const operand* in[] = {&x};                                             \
    return api::apply_ufunc(ops::UfuncId::name, in, opts);                  \
  }
#define COPPER_DEFINE_BINARY(name)                                          \
  ndarray name(const operand& x1, const operand& x2, const UfuncOptions& opts) { \
    const operand* in[] = {&x1, &x2};                                       \
    return api::apply_ufunc(ops::UfuncId::name, in, opts);                  \
  }
#define COPPER_DEFINE_TERNARY(name)                                                            \
  ndarray name(const operand& x1, const operand& x2, const operand& x3, const UfuncOptions& opts) { \
    const operand* in[] = {&x1, &x2, &x3};                                                     \
    return api::apply_ufunc(ops::UfuncId::name, in, opts);                                     \
  }
COPPER_UNARY_UFUNCS(COPPER_DEFINE_UNARY)
COPPER_BINARY_UFUNCS(COPPER_DEFINE_BINARY)
COPPER_TERNARY_UFUNCS(COPPER_DEFINE_TERNARY)
#undef COPPER_DEFINE_UNARY
#undef COPPER_DEFINE_BINARY
#undef COPPER_DEFINE_TERNARY

}  // namespace copper
