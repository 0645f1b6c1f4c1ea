// Which loop a ufunc runs: NumPy's linear search over its loops in dtype order for
// the first one every input casts to safely, plus the few resolvers NumPy special-cases.
#include <algorithm>
#include <string>

#include "api/promotion.h"
#include "api/ufunc.h"

namespace copper::api {

using ops::UfuncId;

std::string ufunc_name(UfuncId op) {
  return op == UfuncId::true_divide ? "divide" : std::string(ops::info(op).name);
}

std::string dtype_repr(DType t) { return "dtype('" + std::string(name(t)) + "')"; }

// numpy.dtypes class names, as the "did not contain a loop" message prints them.
std::string dtype_class_name(DType t) {
  static constexpr const char* names[] = {"Bool",    "Int8",    "UInt8",   "Int16",     "UInt16",
                                          "Int32",   "UInt32",  "Int64",   "UInt64",    "Float16",
                                          "Float32", "Float64", "Complex64", "Complex128"};
  return std::string("<class 'numpy.dtypes.") + names[static_cast<int>(t)] + "DType'>";
}

namespace {

bool all_int_or_bool(std::span<const DType> in) {
  for (DType t : in)
    if (!(is_integer(t) || t == bool_)) return false;
  return true;
}

bool has_loop(UfuncId op, DType t) { return ops::out_dtype(op, t).has_value(); }

// Whether input k (dtype `in`, weak when a Python scalar) reaches the loop over t under
// `casting`. An input of fixed type (ldexp's int64 exponent) takes a weak scalar of a
// compatible kind: NEP 50 scalars adapt to the loop rather than choose it.
bool input_fits(UfuncId op, DType t, int k, DType in, bool weak, Casting casting) {
  const DType want = ops::input_dtype(op, t, k);
  if (weak && want != t) {
    const Kind wk = kind(in);
    return wk == Kind::bool_ || ((wk == Kind::int_ || wk == Kind::uint_) && is_integer(want)) ||
           (wk == Kind::float_ && is_inexact(want)) || (wk == Kind::complex_ && is_complex(want));
  }
  return can_cast(in, want, casting);
}

[[noreturn]] void throw_unsupported(UfuncId op) {
  throw TypeError("ufunc '" + ufunc_name(op) +
                  "' not supported for the input types, and the inputs could not be safely coerced to any supported "
                  "types according to the casting rule ''safe''");
}

// The first loop returning `forced` that every input casts to under `casting`.
std::optional<DType> first_loop_returning(UfuncId op, std::span<const DType> in, DType forced, Casting casting) {
  for (int d = 0; d < num_dtypes; ++d) {
    DType t = static_cast<DType>(d);
    if (ops::out_dtype(op, t) != forced) continue;
    bool ok = true;
    for (std::size_t k = 0; k < in.size(); ++k) ok = ok && can_cast(in[k], ops::input_dtype(op, t, static_cast<int>(k)), casting);
    if (ok) return t;
  }
  return std::nullopt;
}

[[noreturn]] void throw_no_signature_loop(UfuncId op) {
  throw TypeError("No loop matching the specified signature and casting was found for ufunc " + ufunc_name(op));
}

// signature=: the first loop whose types equal every dtype given (inputs, then outputs).
// With only outputs given it is dtype= (NumPy treats them alike).
DType resolve_with_signature(UfuncId op, std::span<const DType> in, std::span<const bool> weak,
                             const UfuncOptions& opts);


// dtype=: NumPy fixes the output dtype. A loop returning it that the inputs reach by safe
// casts wins (less(float32, ..., dtype=bool) runs the float32 loop); else the loop over
// that dtype itself (inputs then cast under the casting rule, checked by the caller);
// else any loop returning it under the casting rule.
DType resolve_with_dtype(UfuncId op, std::span<const DType> in, DType forced, Casting casting) {
  if (auto t = first_loop_returning(op, in, forced, Casting::safe)) return *t;
  if (ops::out_dtype(op, forced) == forced) return forced;
  if (auto t = first_loop_returning(op, in, forced, casting)) return *t;
  throw_no_signature_loop(op);
}

DType resolve_with_signature(UfuncId op, std::span<const DType> in, std::span<const bool> weak,
                             const UfuncOptions& opts) {
  const ops::UfuncInfo& info = ops::info(op);
  const auto& sig = opts.signature;
  if (static_cast<int>(sig.size()) != info.nin + info.nout) {
    throw ValueError("a type-tuple must be specified of length " + std::to_string(info.nin + info.nout) + " for ufunc '" +
                     ufunc_name(op) + "'");
  }
  bool inputs_given = false;
  for (int k = 0; k < info.nin; ++k) inputs_given = inputs_given || sig[k].has_value();
  if (!inputs_given) {
    if (!sig[info.nin] && (info.nout == 1 || !sig[info.nin + 1])) {
      UfuncOptions plain = opts;
      plain.signature.clear();
      return resolve_loop(op, in, weak, plain);
    }
    if (sig[info.nin]) return resolve_with_dtype(op, in, *sig[info.nin], opts.casting);
  }
  for (int d = 0; d < num_dtypes; ++d) {
    if (!info.out[d]) continue;
    const DType t = static_cast<DType>(d);
    bool ok = true;
    for (int k = 0; k < info.nin; ++k) ok = ok && (!sig[k] || *sig[k] == ops::input_dtype(op, t, k));
    ok = ok && (!sig[info.nin] || *sig[info.nin] == *info.out[d]);
    if (info.nout == 2) ok = ok && (!sig[info.nin + 1] || *sig[info.nin + 1] == *info.out2[d]);
    if (ok) return t;
  }
  throw_no_signature_loop(op);
}

}  // namespace

std::array<DType, 3> operand_dtypes(std::span<const operand* const> inputs) {
  std::optional<DType> strong;
  for (const operand* x : inputs) {
    if (x->is_array()) strong = strong ? promote_types(*strong, x->array().dtype()) : x->array().dtype();
    else if (!x->scalar().weak()) strong = strong ? promote_types(*strong, x->scalar().dtype()) : x->scalar().dtype();
  }
  std::array<DType, 3> out{};
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    const operand& x = *inputs[k];
    if (x.is_array()) out[k] = x.array().dtype();
    else if (!x.scalar().weak() || !strong) out[k] = x.scalar().dtype();
    else out[k] = weak_scalar_dtype(x.scalar(), *strong);
  }
  return out;
}

DType resolve_loop(UfuncId op, std::span<const DType> in, std::span<const bool> weak, const UfuncOptions& opts) {
  const std::string op_name = ufunc_name(op);
  DType loop;
  if (!opts.signature.empty()) {
    loop = resolve_with_signature(op, in, weak, opts);
  } else if (opts.dtype) {
    loop = resolve_with_dtype(op, in, *opts.dtype, opts.casting);
  } else if (op == UfuncId::negative && in[0] == bool_) {
    throw TypeError(
        "The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or the logical_not "
        "function instead.");
  } else if (op == UfuncId::subtract && in[0] == bool_ && in[1] == bool_) {
    throw TypeError(
        "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, or the "
        "logical_xor function instead.");
  } else if (op == UfuncId::true_divide && all_int_or_bool(in)) {
    loop = float64;  // NumPy divides integers in double precision whatever their size
  } else if (op == UfuncId::positive || op == UfuncId::sign) {
    // NumPy resolves these by the input's own dtype, with no search through casts.
    if (!has_loop(op, in[0])) {
      throw TypeError("ufunc '" + std::string(op_name) + "' did not contain a loop with signature matching types " +
                      dtype_class_name(in[0]) + " -> None");
    }
    loop = in[0];
  } else if (in.size() >= 1 && std::all_of(in.begin(), in.end(), [&](DType t) { return t == in[0]; }) &&
             has_loop(op, in[0]) && ops::input_dtype(op, in[0], static_cast<int>(in.size()) - 1) == in[0]) {
    loop = in[0];  // the common case: no earlier loop is a safe cast target of a type with its own loop
  } else {
    int found = -1;
    // NumPy's gcd/lcm loops are integer-only, and bool operands alone do not promote into them.
    const bool all_bool = std::all_of(in.begin(), in.end(), [](DType t) { return t == bool_; });
    const bool integer_only = op == UfuncId::gcd || op == UfuncId::lcm;
    for (int d = integer_only && all_bool ? num_dtypes : 0; d < num_dtypes && found < 0; ++d) {
      DType t = static_cast<DType>(d);
      if (!has_loop(op, t)) continue;
      bool ok = true;
      for (std::size_t k = 0; k < in.size(); ++k)
        ok = ok && input_fits(op, t, static_cast<int>(k), in[k], !weak.empty() && weak[k], Casting::safe);
      if (ok) found = d;
    }
    if (found < 0 && (op == UfuncId::gcd || op == UfuncId::lcm)) {
      // NumPy's newer-style loops report the operand DTypes, Python scalars as abstract ones.
      std::string types;
      for (std::size_t k = 0; k < in.size(); ++k) {
        const bool w = !weak.empty() && weak[k];
        const Kind wk = kind(in[k]);
        types += (k ? ", " : "") + (!w || wk == Kind::bool_ ? dtype_class_name(in[k])
                                    : std::string("<class 'numpy.dtypes._Py") +
                                          (wk == Kind::float_ ? "Float" : wk == Kind::complex_ ? "Complex" : "Long") +
                                          "DType'>");
      }
      throw TypeError("ufunc '" + op_name + "' did not contain a loop with signature matching types (" + types +
                      ") -> None");
    }
    if (found < 0) throw_unsupported(op);
    loop = static_cast<DType>(found);
  }
  // Strong inputs must cast to the loop under the casting rule (weak scalars adapt).
  for (std::size_t k = 0; k < in.size(); ++k) {
    const DType want = ops::input_dtype(op, loop, static_cast<int>(k));
    if ((!weak.empty() && weak[k]) || can_cast(in[k], want, opts.casting)) continue;
    throw TypeError("Cannot cast ufunc '" + std::string(op_name) + "' input " + std::to_string(k) + " from " +
                    dtype_repr(in[k]) + " to " + dtype_repr(want) + " with casting rule '" +
                    std::string(name(opts.casting)) + "'");
  }
  return loop;
}

}  // namespace copper::api
