// Every elementwise op's id, in the order of the lists in ufunc_list.hpp: one input,
// two inputs, three inputs, then the two-output ops. The op catalogue is indexed by it.
#pragma once
#include <cstdint>

#include "copper/ufunc_list.hpp"

namespace copper {

enum class UfuncId : std::uint8_t {
#define COPPER_UFUNC_ID(name) name,
  COPPER_UNARY_UFUNCS(COPPER_UFUNC_ID) COPPER_BINARY_UFUNCS(COPPER_UFUNC_ID) COPPER_TERNARY_UFUNCS(COPPER_UFUNC_ID)
      COPPER_UNARY2_UFUNCS(COPPER_UFUNC_ID) COPPER_BINARY2_UFUNCS(COPPER_UFUNC_ID)
#undef COPPER_UFUNC_ID
};

inline constexpr int num_ufuncs = 0
#define COPPER_UFUNC_COUNT(name) +1
    COPPER_UNARY_UFUNCS(COPPER_UFUNC_COUNT) COPPER_BINARY_UFUNCS(COPPER_UFUNC_COUNT)
        COPPER_TERNARY_UFUNCS(COPPER_UFUNC_COUNT) COPPER_UNARY2_UFUNCS(COPPER_UFUNC_COUNT)
            COPPER_BINARY2_UFUNCS(COPPER_UFUNC_COUNT);
#undef COPPER_UFUNC_COUNT

}  // namespace copper
