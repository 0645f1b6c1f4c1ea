#include "backend/user_kernel_source.h"

#include <atomic>
#include <cstdio>
#include <cstring>

#include "backend/user_kernel_headers.h"
#include "copper/errors.hpp"

namespace copper::backend {
namespace {

std::string_view header_text(std::string_view name) {
  for (int i = 0; i < kNumUserKernelHeaders; ++i)
    if (name == kUserKernelHeaders[i].name) return kUserKernelHeaders[i].text;
  throw RuntimeError("user kernels: header " + std::string(name) + " is not built into the library");
}

// `text` without `#pragma once` and, when asked, without its #include "ops/..." lines
// (they are inlined by the caller): the generated file is the main file.
std::string inline_header(std::string_view text, bool drop_ops_includes) {
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    const bool drop = line.starts_with("#pragma once") || (drop_ops_includes && line.starts_with("#include \"ops/"));
    out += drop ? std::string_view("//") : line;
    out += '\n';
    pos = end + 1;
  }
  return out;
}

}  // namespace

const char* user_type_name(DType t) {
  switch (t) {
    case DType::bool_: return "bool";
    case DType::int8: return "signed char";
    case DType::uint8: return "unsigned char";
    case DType::int16: return "short";
    case DType::uint16: return "unsigned short";
    case DType::int32: return "int";
    case DType::uint32: return "unsigned int";
    case DType::int64: return "long long";
    case DType::uint64: return "unsigned long long";
    case DType::float16: return "float16";
    case DType::float32: return "float";
    case DType::float64: return "double";
    case DType::complex64: return "complex<float>";
    case DType::complex128: return "complex<double>";
  }
  throw RuntimeError("user_type_name: unknown dtype");
}

std::string user_kernel_prologue(bool device) {
  static const std::string device_text =
      "#include \"ops/scalar_types.h\"\n#include \"ops/scalar_math.h\"\n#include \"copper_kernels/common.cuh\"\n" +
      inline_header(header_text("ops/user_kernel_types.h"), false);
  static const std::string host_text = inline_header(header_text("ops/scalar_types.h"), true) +
                                       inline_header(header_text("ops/scalar_math.h"), true) +
                                       inline_header(header_text("ops/user_kernel_types.h"), true);
  return device ? device_text : host_text;
}

std::string user_ops_source() {
  static const std::string text = [] {
    std::string s = "#if defined(__CUDACC_RTC__)\n#include \"ops/scalar_ops.h\"\n#include \"ops/casting.h\"\n#else\n";
    for (const char* name : {"ops/scalar_invoke.h", "ops/scalar_ops.h", "ops/scalar_ops_float.h",
                             "ops/scalar_ops_integer.h", "ops/casting.h"})
      s += inline_header(header_text(name), true);
    return s + "#endif\n";
  }();
  return text;
}

SourceWriter& SourceWriter::operator<<(std::string_view s) {
  text_ += s;
  for (char c : s) lines_ += c == '\n';
  return *this;
}

void SourceWriter::user_block(const std::string& label, const std::string& code) {
  // The directive line is physical line lines_ + 1; the line after the reset is lines_ + 2
  // of the generated file once the user's lines are counted.
  *this << "#line 1 \"" << label << "\"\n" << code << "\n";
  const std::string reset = "#line " + std::to_string(lines_ + 2) + " \"" + file_ + "\"\n";
  *this << reset;
}

std::string typedef_lines(const UserTypedefs& typedefs) {
  std::string s;
  for (const auto& [placeholder, t] : typedefs) s += "typedef " + std::string(user_type_name(t)) + " " + placeholder + ";\n";
  return s;
}

void add_preamble(SourceWriter& w, const UserKernelCode& code, const UserTypedefs& typedefs) {
  w << code.defines << typedef_lines(typedefs);
  if (!code.preamble.empty()) w.user_block(code.name + "_preamble", code.preamble);
}

bool c_contiguous(const ArrayView& v) {
  std::int64_t expected = itemsize(v.dtype);
  for (int d = static_cast<int>(v.shape.size()) - 1; d >= 0; --d) {
    if (v.shape[d] != 1 && v.strides[d] != expected) return false;
    expected *= v.shape[d];
  }
  return true;
}

std::string param_decl(const UserKernelArg& a) {
  const std::string c = a.is_const ? "const " : "";
  switch (a.kind) {
    case UserArgKind::array: return c + a.ctype + "* _raw_" + a.name;
    case UserArgKind::scalar: return c + a.ctype + " " + a.name;
    case UserArgKind::raw: return raw_type(a) + " " + a.name;
  }
  return "";
}

std::string raw_type(const UserKernelArg& a) {
  return "copper::user::RawArray<" + std::string(a.is_const ? "const " : "") + a.ctype + ", " +
         std::to_string(a.view.shape.size()) + ", " + (c_contiguous(a.view) ? "true" : "false") + ">";
}

std::string element_ref(const UserKernelArg& a, const std::string& address) {
  return (a.is_const ? "const " : "") + a.ctype + "& " + a.name + " = " + address + ";";
}

std::string element_load(const UserKernelArg& a, const std::string& address) {
  if (a.dtype != DType::bool_ || !a.is_const) return element_ref(a, address);
  return "const bool " + a.name + " = *reinterpret_cast<const unsigned char*>(&(" + address + ")) != 0;";
}

std::string element_address(const UserKernelArg& a, bool contiguous, const std::string& index,
                            const std::string& offset) {
  return contiguous ? "_raw_" + a.name + "[" + index + "]" : "copper::user::at_offset(_raw_" + a.name + ", " + offset + ")";
}

UserLayout collapse_layout(const Shape& shape, const std::vector<const Strides*>& strides) {
  UserLayout l = collapse_dims(shape, strides);
  if (l.shape.size() > static_cast<std::size_t>(kUserMaxDims))
    throw NotImplementedError("user kernels handle at most " + std::to_string(kUserMaxDims) +
                              " non-mergeable dimensions; this call needs " + std::to_string(l.shape.size()));
  return l;
}

void ParamBlock::add_bytes(const void* p, std::size_t n) {
  std::vector<std::uint64_t> blob((n + 7) / 8, 0);
  std::memcpy(blob.data(), p, n);
  blobs_.push_back(std::move(blob));
  total_ += (n + 7) / 8 * 8;
}

void ParamBlock::add_arg(const UserKernelArg& a) {
  switch (a.kind) {
    case UserArgKind::array: add(a.view.data); return;
    case UserArgKind::scalar: add_bytes(a.value, static_cast<std::size_t>(itemsize(a.dtype))); return;
    case UserArgKind::raw: {
      // copper::user::RawArray<T, N, C>: data, size, shape[M], strides[M] (M = max(N, 1)).
      const std::size_t m = std::max<std::size_t>(a.view.shape.size(), 1);
      std::vector<std::int64_t> words(2 + 2 * m, 0);
      std::memcpy(&words[0], &a.view.data, sizeof(void*));
      words[1] = shape_size(a.view.shape);
      if (a.view.shape.empty()) words[2] = 1;
      for (std::size_t d = 0; d < a.view.shape.size(); ++d) {
        words[2 + d] = a.view.shape[d];
        words[2 + m + d] = a.view.strides[d];
      }
      add_bytes(words.data(), words.size() * 8);
      return;
    }
  }
}

void ParamBlock::add_layout(const UserLayout& l, const std::vector<std::array<unsigned, 3>>& fast_div) {
  // int ndim; long long shape[16]; unsigned div[16][3]; long long strides[K][16]
  constexpr std::size_t kShape = 8, kDiv = kShape + 8 * kUserMaxDims, kStrides = kDiv + 12 * kUserMaxDims;
  static_assert(kStrides % 8 == 0);
  const std::size_t k = l.strides.size();
  std::vector<unsigned char> bytes(kStrides + 8 * kUserMaxDims * k, 0);
  const int ndim = static_cast<int>(l.shape.size());
  std::memcpy(bytes.data(), &ndim, 4);
  for (int d = 0; d < ndim; ++d) {
    std::memcpy(bytes.data() + kShape + 8 * d, &l.shape[d], 8);
    if (d < static_cast<int>(fast_div.size())) std::memcpy(bytes.data() + kDiv + 12 * d, fast_div[d].data(), 12);
    for (std::size_t o = 0; o < k; ++o)
      std::memcpy(bytes.data() + kStrides + 8 * (kUserMaxDims * o + d), &l.strides[o][d], 8);
  }
  add_bytes(bytes.data(), bytes.size());
}

void* const* ParamBlock::pointers() {
  pointers_.clear();
  for (auto& b : blobs_) pointers_.push_back(b.data());
  return pointers_.data();
}

std::string SourceHash::hex() const {
  char buf[49];
  std::snprintf(buf, sizeof buf, "%016llx%016llx%016llx", static_cast<unsigned long long>(h1),
                static_cast<unsigned long long>(h2), static_cast<unsigned long long>(length));
  return buf;
}

SourceHash hash_source(std::string_view text) {
  // FNV-1a, and an independent multiply-rotate hash with a final avalanche.
  std::uint64_t a = 0xcbf29ce484222325ull, b = 0x6a09e667f3bcc909ull;
  for (unsigned char c : text) {
    a = (a ^ c) * 0x100000001b3ull;
    b = ((b ^ c) * 0x9e3779b97f4a7c15ull);
    b = (b << 23) | (b >> 41);
  }
  b ^= b >> 33;
  b *= 0xff51afd7ed558ccdull;
  b ^= b >> 33;
  return SourceHash{a, b, text.size()};
}

std::string call_signature(const UserKernelCode& code, const UserTypedefs& typedefs,
                           const std::vector<UserKernelArg>& args) {
  std::string s = std::to_string(code.id) + "|";
  for (const auto& [placeholder, t] : typedefs) s += placeholder + "=" + std::to_string(static_cast<int>(t)) + ",";
  for (const auto& a : args) {
    s += "|" + std::to_string(static_cast<int>(a.kind)) + std::to_string(static_cast<int>(a.dtype)) +
         (a.is_const ? "c" : "m") + a.ctype;
    if (a.kind == UserArgKind::raw) s += ":" + std::to_string(a.view.shape.size()) + (c_contiguous(a.view) ? "C" : "S");
  }
  return s;
}

std::uint64_t next_user_kernel_id() {
  static std::atomic<std::uint64_t> next{1};
  return next++;
}

}  // namespace copper::backend
