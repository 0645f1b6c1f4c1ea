// Parameter strings and type resolution of user kernels, as CuPy's (_kernel.pyx):
// "raw" and "_non_const" modifiers, one-letter (or non-dtype) type names as
// placeholders, NumPy dtype names as fixed types.
#include <cctype>
#include <map>
#include <sstream>

#include "api/user_kernel.h"
#include "backend/user_kernel_source.h"

namespace copper::api {
namespace {

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

}  // namespace

std::optional<DType> kernel_dtype_from_name(const std::string& n) {
  static const std::map<std::string, DType> aliases = {
      {"b1", DType::bool_},        {"i1", DType::int8},         {"u1", DType::uint8},        {"i2", DType::int16},
      {"u2", DType::uint16},       {"i4", DType::int32},        {"u4", DType::uint32},       {"i8", DType::int64},
      {"u8", DType::uint64},       {"f2", DType::float16},      {"f4", DType::float32},      {"f8", DType::float64},
      {"c8", DType::complex64},    {"c16", DType::complex128},  {"byte", DType::int8},       {"ubyte", DType::uint8},
      {"short", DType::int16},     {"ushort", DType::uint16},   {"intc", DType::int32},      {"uintc", DType::uint32},
      {"int_", DType::int64},      {"intp", DType::int64},      {"uintp", DType::uint64},    {"uint", DType::uint64},
      {"long", DType::int64},      {"ulong", DType::uint64},    {"longlong", DType::int64},  {"ulonglong", DType::uint64},
      {"float_", DType::float64},  {"csingle", DType::complex64}, {"cdouble", DType::complex128},
      {"cfloat", DType::complex128}, {"complex_", DType::complex128},
  };
  if (auto it = aliases.find(n); it != aliases.end()) return it->second;
  try {
    return dtype_from_name(n);
  } catch (const TypeError&) {
    return std::nullopt;
  }
}

void check_kernel_name(const std::string& name) {
  if (!is_identifier(name)) throw ValueError("Invalid kernel name: \"" + name + "\"");
}

std::vector<KernelParam> parse_kernel_params(const std::string& text, bool is_const) {
  std::vector<KernelParam> params;
  if (trim(text).empty()) return params;
  std::stringstream pieces(text);
  for (std::string piece; std::getline(pieces, piece, ',');) {
    std::istringstream words(piece);
    std::vector<std::string> w;
    for (std::string s; words >> s;) w.push_back(s);
    if (w.size() < 2) throw ValueError("Syntax error: " + trim(piece));
    KernelParam p;
    p.is_const = is_const;
    const std::string type = w[w.size() - 2];
    p.name = w.back();
    for (std::size_t k = 0; k + 2 < w.size(); ++k) {
      if (w[k] == "raw") p.raw = true;
      else if (w[k] == "_non_const") p.is_const = false;
      else throw ValueError("Unknown keyword \"" + w[k] + "\"");
    }
    if (!is_identifier(p.name)) throw ValueError("Invalid parameter name: \"" + p.name + "\"");
    if (p.name == "i") throw ValueError("Can not use 'i' as a parameter name");
    if (type.size() > 1) p.dtype = kernel_dtype_from_name(type);
    if (p.dtype) {
      p.ctype = backend::user_type_name(*p.dtype);
    } else if (is_identifier(type)) {
      p.placeholder = p.ctype = type;
    } else {
      throw TypeError("data type '" + type + "' not understood");
    }
    params.push_back(std::move(p));
  }
  return params;
}

std::string defines_from_options(const std::vector<std::string>& options) {
  std::string s;
  auto define = [&](std::string d) {
    const auto eq = d.find('=');
    if (eq == std::string::npos) s += "#define " + d + " 1\n";
    else s += "#define " + d.substr(0, eq) + " " + d.substr(eq + 1) + "\n";
  };
  for (std::size_t k = 0; k < options.size(); ++k) {
    const std::string& o = options[k];
    if (o == "-D" || o == "--define-macro") {
      if (k + 1 < options.size()) define(options[++k]);
    } else if (o.rfind("--define-macro=", 0) == 0) {
      define(o.substr(15));
    } else if (o.rfind("-D", 0) == 0) {
      define(o.substr(2));
    }
  }
  return s;
}

ResolvedTypes resolve_param_types(const std::vector<KernelParam>& in_params, const std::vector<KernelParam>& out_params,
                                  const std::vector<operand>& in_args, const std::vector<const ndarray*>& out_args) {
  std::map<std::string, DType> types;
  auto fix = [&](const KernelParam& p, DType a) {
    if (p.dtype) {
      if (a != *p.dtype)
        throw TypeError("Type is mismatched. " + p.name + " " + std::string(name(a)) + " " + std::string(name(*p.dtype)));
      return;
    }
    auto [it, inserted] = types.emplace(p.placeholder, a);
    if (!inserted && it->second != a)
      throw TypeError("Type is mismatched. " + p.name + " " + std::string(name(a)) + " " +
                      std::string(name(it->second)) + " " + p.placeholder);
  };
  for (std::size_t k = 0; k < out_args.size(); ++k) fix(out_params[k], out_args[k]->dtype());
  for (std::size_t k = 0; k < in_params.size(); ++k)
    if (in_args[k].is_array()) fix(in_params[k], in_args[k].array().dtype());
  // Placeholders no array names: the first scalar's own dtype (CuPy cannot call these).
  for (std::size_t k = 0; k < in_params.size(); ++k)
    if (!in_params[k].dtype && !in_args[k].is_array()) types.emplace(in_params[k].placeholder, in_args[k].scalar().dtype());
  auto type_of = [&](const KernelParam& p) {
    if (p.dtype) return *p.dtype;
    auto it = types.find(p.placeholder);
    if (it == types.end())
      throw TypeError("cannot determine the type of '" + p.placeholder + "' (parameter '" + p.name +
                      "'): no argument of that type was given; pass the output array");
    return it->second;
  };
  ResolvedTypes r;
  for (const auto& p : in_params) r.in.push_back(type_of(p));
  for (const auto& p : out_params) r.out.push_back(type_of(p));
  r.typedefs.assign(types.begin(), types.end());
  return r;
}

backend::UserKernelArg make_kernel_arg(const KernelParam& p, const operand& v, DType t, const Shape& loop_shape) {
  backend::UserKernelArg a;
  a.name = p.name;
  a.dtype = t;
  a.is_const = p.is_const;
  a.ctype = p.ctype;
  if (!v.is_array()) {
    a.kind = backend::UserArgKind::scalar;
    v.scalar().store(t, a.value);
    return a;
  }
  const ndarray& arr = v.array();
  a.view = backend::view_of(arr);
  if (p.raw) {
    a.kind = backend::UserArgKind::raw;
    return a;
  }
  // Broadcast to the loop shape: leading new axes and length-1 axes get stride 0.
  a.kind = backend::UserArgKind::array;
  const std::size_t nd = loop_shape.size(), off = nd - arr.shape().size();
  Strides strides(nd, 0);
  for (std::size_t d = 0; d < arr.shape().size(); ++d)
    strides[off + d] = arr.shape()[d] == 1 && loop_shape[off + d] != 1 ? 0 : arr.strides()[d];
  a.view.shape = loop_shape;
  a.view.strides = std::move(strides);
  return a;
}

}  // namespace copper::api
