// Builds the ufunc tables by asking each functor, at compile time, which loop
// types it accepts and what it returns for them.
#include "ops/catalogue.h"

#include <array>

#include "ops/dtype_traits.h"
#include "ops/functor_traits.h"
#include "ops/scalar_ops.h"

namespace copper::ops {
namespace {

// The loop over T stores what functor_traits.h says it stores (float16 loops run the
// float32 functor and store float16); an op without a loop over T has no entry.
template <class Op, int N, class T, int Output>
constexpr std::optional<DType> loop_out() {
  if constexpr (!has_loop<Op, N, T>) return std::nullopt;
  else if constexpr (Output == 0) return dtype_v<stored_result_t<Op, N, T>>;
  else if constexpr (nout_v<Op, N, T> == 2) return dtype_v<stored_result2_t<Op, N, T>>;
  else return std::nullopt;
}

template <class Op, class T, int K> constexpr DType loop_in() { return dtype_v<op_input_t<Op, T, K>>; }

template <class Op, int N, class T> constexpr bool has_two_outputs() {
  if constexpr (has_loop<Op, N, T>) return nout_v<Op, N, T> == 2;
  else return false;
}

// NumPy's identities, and the ops whose reductions it lets combine several axes.
Identity identity_of(UfuncId op) {
  switch (op) {
    case UfuncId::add:
    case UfuncId::bitwise_or:
    case UfuncId::bitwise_xor:
    case UfuncId::gcd:
    case UfuncId::hypot: return Identity::zero;
    case UfuncId::multiply: return Identity::one;
    case UfuncId::bitwise_and: return Identity::minus_one;
    case UfuncId::logical_and: return Identity::true_;
    case UfuncId::logical_or:
    case UfuncId::logical_xor: return Identity::false_;
    case UfuncId::logaddexp:
    case UfuncId::logaddexp2: return Identity::minus_inf;
    default: return Identity::none;
  }
}
bool reorderable(UfuncId op) {
  return identity_of(op) != Identity::none || op == UfuncId::maximum || op == UfuncId::minimum ||
         op == UfuncId::fmax || op == UfuncId::fmin;
}

template <class Op, int N, class... T>
UfuncInfo make_info(std::string_view name, UfuncId id, type_list<T...>) {
  const bool two = (has_two_outputs<Op, N, T>() || ...);
  return UfuncInfo{name,
                   N,
                   two ? 2 : 1,
                   {loop_out<Op, N, T, 0>()...},
                   {loop_out<Op, N, T, 1>()...},
                   {{loop_in<Op, T, 0>()...}, {loop_in<Op, T, 1>()...}, {loop_in<Op, T, 2>()...}},
                   identity_of(id),
                   reorderable(id)};
}

const std::array<UfuncInfo, num_ufuncs>& table() {
  static const std::array<UfuncInfo, num_ufuncs> t = {
#define COPPER_INFO_1(name) make_info<ops::name, 1>(#name, UfuncId::name, all_types{}),
#define COPPER_INFO_2(name) make_info<ops::name, 2>(#name, UfuncId::name, all_types{}),
#define COPPER_INFO_3(name) make_info<ops::name, 3>(#name, UfuncId::name, all_types{}),
      COPPER_UNARY_UFUNCS(COPPER_INFO_1) COPPER_BINARY_UFUNCS(COPPER_INFO_2) COPPER_TERNARY_UFUNCS(COPPER_INFO_3)
          COPPER_UNARY2_UFUNCS(COPPER_INFO_1) COPPER_BINARY2_UFUNCS(COPPER_INFO_2)
#undef COPPER_INFO_1
#undef COPPER_INFO_2
#undef COPPER_INFO_3
  };
  return t;
}

}  // namespace

const UfuncInfo& info(UfuncId op) { return table()[static_cast<int>(op)]; }

std::vector<std::string> loop_signatures(UfuncId op) {
  const UfuncInfo& u = info(op);
  std::vector<std::string> types;
  for (int t = 0; t < num_dtypes; ++t) {
    if (!u.out[t]) continue;
    std::string outs = "->";
    outs.push_back(char_code(*u.out[t]));
    if (u.nout == 2) outs.push_back(char_code(*u.out2[t]));
    std::string sig;
    for (int k = 0; k < u.nin; ++k) sig.push_back(char_code(u.in[k][t]));
    // NumPy lists an int32-exponent ldexp loop before each int64 one; copper casts such
    // exponents to int64 (same results), so both loops exist as far as callers can tell.
    if (op == UfuncId::ldexp) {
      std::string narrow = sig;
      narrow.back() = char_code(DType::int32);
      types.push_back(narrow.append(outs));
    }
    types.push_back(sig.append(outs));
    // NumPy lists its long long loops (q, Q) after the long ones (l, L), the same types
    // here on Linux; its comparisons add the exact mixed qQ and Qq loops (copper's
    // exact_signed_unsigned_comparison).
    if (static_cast<DType>(t) == DType::uint64 && op != UfuncId::ldexp) {
      const std::size_t n = types.size();
      for (std::size_t i = 0; i < n; ++i) {
        const std::string& s = types[i];
        const std::string ins = s.substr(0, s.find("->"));
        if (ins.find_first_not_of("lL") != std::string::npos) continue;
        std::string q = s;
        for (char& c : q) c = c == 'l' ? 'q' : c == 'L' ? 'Q' : c;
        types.push_back(q);
      }
      if (u.nin == 2 && u.out[t] && *u.out[t] == DType::bool_ && op != UfuncId::logical_and &&
          op != UfuncId::logical_or && op != UfuncId::logical_xor) {
        types.push_back("qQ" + outs);
        types.push_back("Qq" + outs);
      }
    }
  }
  // NumPy's own order for ldexp: the int32-exponent loops of float16 and float32 first
  // (ei, fi, el, fl, di, dl).
  if (op == UfuncId::ldexp && types.size() >= 4) std::swap(types[1], types[2]);
  return types;
}

std::string_view name(ReduceOp op) {
  static constexpr std::string_view names[] = {"sum", "prod", "min", "max", "all", "any", "argmin",
                                                "argmax", "nansum", "nanprod", "nanmin", "nanmax", "l2norm"};
  return names[static_cast<int>(op)];
}

}  // namespace copper::ops
