#include "backend/cuda/cuda_user_kernel_vector.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace copper::backend::cuda {
namespace {

struct Token {
  std::string_view text;
  bool directive = false;  // on a preprocessor line
};

bool ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$'; }
bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }
bool digit(char c) { return c >= '0' && c <= '9'; }

// C++ tokens of `code` without comments, string/char literals kept as one token each.
std::vector<Token> tokenize(std::string_view s) {
  static constexpr std::array<std::string_view, 26> kPunct = {
      ">>=", "<<=", "->*", "...", "::", "->", "++", "--", "<<", ">>", "<=", ">=", "==",
      "!=",  "&&",  "||",  "+=",  "-=", "*=", "/=", "%=", "&=", "|=", "^=", ".*", "##"};
  std::vector<Token> out;
  bool line_start = true, directive = false;
  std::size_t p = 0;
  while (p < s.size()) {
    const char c = s[p];
    if (c == '\n') {
      // A directive ends at a newline not escaped by a backslash.
      std::size_t q = p;
      while (q > 0 && s[q - 1] == '\r') --q;
      if (!(q > 0 && s[q - 1] == '\\')) directive = false;
      line_start = true;
      ++p;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\\') {
      ++p;
      continue;
    }
    if (s.compare(p, 2, "//") == 0) {
      while (p < s.size() && s[p] != '\n') ++p;
      continue;
    }
    if (s.compare(p, 2, "/*") == 0) {
      const std::size_t end = s.find("*/", p + 2);
      p = end == std::string_view::npos ? s.size() : end + 2;
      continue;
    }
    if (c == '#' && line_start) directive = true;
    line_start = false;
    const std::size_t begin = p;
    if (c == '"' || c == '\'') {
      for (++p; p < s.size() && s[p] != c && s[p] != '\n'; ++p)
        if (s[p] == '\\') ++p;
      p = std::min(p + 1, s.size());
    } else if (ident_start(c)) {
      while (p < s.size() && ident_char(s[p])) ++p;
    } else if (digit(c) || (c == '.' && p + 1 < s.size() && digit(s[p + 1]))) {
      // A pp-number: 1.5e-3f, 0x1Fu, 1'000.
      for (++p; p < s.size(); ++p) {
        const char d = s[p];
        if (ident_char(d) || d == '.' || d == '\'') continue;
        if ((d == '+' || d == '-') && std::string_view("eEpP").find(s[p - 1]) != std::string_view::npos) continue;
        break;
      }
    } else {
      std::size_t len = 1;
      for (std::string_view op : kPunct)
        if (s.compare(p, op.size(), op) == 0) {
          len = op.size();
          break;
        }
      p += len;
    }
    out.push_back({s.substr(begin, p - begin), directive});
  }
  return out;
}

bool starts_with_any(std::string_view t, std::initializer_list<std::string_view> prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(), [&](std::string_view p) { return t.starts_with(p); });
}

// Statements that leave the element early: with several elements per thread they would
// skip the others (or the deferred stores).
bool leaves_early(std::string_view t) { return t == "return" || t == "break" || t == "continue" || t == "goto"; }

// Code that depends on which thread runs which element (inline PTX could read %tid).
bool thread_mapping(std::string_view t) {
  return t == "asm" || t == "__asm__" || t == "__asm" || t == "threadIdx" || t == "blockIdx" || t == "blockDim" ||
         t == "gridDim" || t == "warpSize" ||
         starts_with_any(
             t, {"__shfl", "__ballot", "__any", "__all", "__activemask", "__match", "__reduce", "__sync", "__lane",
                 "cooperative_groups", "this_thread_block", "tiled_partition", "coalesced_threads", "this_grid"});
}

// Operations on an address that must stay the operand's global memory (atomics).
bool address_sensitive(std::string_view t) {
  return t.starts_with("atomic") || t.starts_with("__nv_atomic") || t.starts_with("__atomic") || t == "addressof" ||
         t == "__builtin_addressof";
}

bool is_operand(const UserElementwiseJob& job, std::string_view t) {
  return std::any_of(job.args.begin(), job.args.end(),
                     [&](const UserKernelArg& a) { return a.kind == UserArgKind::array && a.name == t; });
}

// Preprocessor lines of the preamble, -D defines and the operation: macros could hide
// any of the above, or an operand's name (also by pasting), from the operation's own tokens.
bool macros_allow(const UserElementwiseJob& job, const std::vector<Token>& preamble, const std::vector<Token>& defines,
                  const std::vector<Token>& op) {
  for (const auto* tokens : {&preamble, &defines, &op})
    for (const Token& t : *tokens)
      if (t.directive && (leaves_early(t.text) || thread_mapping(t.text) || address_sensitive(t.text) ||
                          t.text == "&" || t.text == "##" || is_operand(job, t.text)))
        return false;
  return true;
}

// Whether the mention at `at` is the left side of a top-level statement `name = ...`
// (previous token absent or ';', brackets balanced, next token a plain '=').
bool top_level_assignment(const std::vector<Token>& op, std::size_t at, int depth) {
  if (depth != 0 || at + 1 >= op.size() || op[at + 1].text != "=") return false;
  return at == 0 || op[at - 1].text == ";";
}

}  // namespace

UserVectorTraits user_vector_traits(const UserElementwiseJob& job) {
  const UserKernelCode& code = *job.code;
  UserVectorTraits t;
  t.use.resize(job.args.size());
  const std::vector<Token> op = tokenize(code.operation), preamble = tokenize(code.preamble),
                           defines = tokenize(code.defines);
  if (!macros_allow(job, preamble, defines, op)) return t;
  for (const auto* tokens : {&preamble, &op})
    for (const Token& tok : *tokens)
      if (thread_mapping(tok.text)) return t;
  // A preamble function taking a reference could apply an atomic to a local copy.
  const bool preamble_atomics =
      std::any_of(preamble.begin(), preamble.end(), [](const Token& x) { return address_sensitive(x.text); });
  const bool preamble_refs =
      std::any_of(preamble.begin(), preamble.end(), [](const Token& x) { return x.text == "&"; });
  if (preamble_atomics && preamble_refs) return t;

  bool op_directives = false;
  std::vector<int> mentions(job.args.size(), 0);
  int depth = 0;
  for (std::size_t at = 0; at < op.size(); ++at) {
    const std::string_view x = op[at].text;
    op_directives = op_directives || op[at].directive;
    if (leaves_early(x) || x == "addressof" || x == "__builtin_addressof") return t;
    if (x == "(" || x == "[" || x == "{") ++depth;
    if (x == ")" || x == "]" || x == "}") {
      if (--depth < 0) return t;  // the code closes the generated scope: leave it alone
    }
    for (std::size_t k = 0; k < job.args.size(); ++k) {
      if (job.args[k].kind != UserArgKind::array || job.args[k].name != x) continue;
      // `&x` (or `a & x`): the address of a local copy is not the element's.
      if (at > 0 && op[at - 1].text == "&") return t;
      UserOperandUse& u = t.use[k];
      u.used = true;
      u.last_use = static_cast<int>(at);
      if (++mentions[k] == 1 && !job.args[k].is_const && top_level_assignment(op, at, depth)) {
        u.write_only = true;
        int end_depth = 0;
        std::size_t e = at + 1;
        for (; e < op.size(); ++e) {
          const std::string_view y = op[e].text;
          if (y == "(" || y == "[" || y == "{") ++end_depth;
          if (y == ")" || y == "]" || y == "}") --end_depth;
          if (end_depth == 0 && (y == ";" || y == ",")) break;
        }
        u.assign_end = static_cast<int>(e);
      } else {
        u.write_only = false;
      }
    }
  }
  if (depth != 0) return t;
  // Conditional compilation could skip the assignment: read every written operand.
  if (op_directives)
    for (auto& u : t.use) u.write_only = false;
  t.allowed = true;
  return t;
}

int user_vector_width(const UserElementwiseJob& job, const UserVectorTraits& traits) {
  if (!traits.allowed) return 1;
  const std::int64_t n = shape_size(job.shape);
  std::size_t widest = 0;
  for (std::size_t k = 0; k < job.args.size(); ++k)
    if (job.args[k].kind == UserArgKind::array && traits.use[k].used)
      widest = std::max(widest, static_cast<std::size_t>(itemsize(job.args[k].dtype)));
  if (widest == 0 || widest >= 16) return 1;
  int vec = static_cast<int>(16 / widest);
  auto address = [&](std::size_t k) { return reinterpret_cast<std::uintptr_t>(job.args[k].view.data); };
  for (; vec > 1; vec /= 2) {
    bool ok = true;
    for (std::size_t k = 0; k < job.args.size() && ok; ++k)
      if (job.args[k].kind == UserArgKind::array && traits.use[k].used)
        ok = address(k) % (static_cast<std::uintptr_t>(itemsize(job.args[k].dtype)) * vec) == 0;
    if (ok) break;
  }
  if (vec == 1) return 1;

  // Aliasing. The vector path reads every operand before the operation and writes after
  // it, where the one-element path reads and writes memory in program order.
  struct Range {
    std::uintptr_t begin, end;
  };
  auto array_range = [&](std::size_t k) {
    return Range{address(k), address(k) + static_cast<std::uintptr_t>(n * itemsize(job.args[k].dtype))};
  };
  auto raw_range = [&](const UserKernelArg& a) {
    std::int64_t lo = 0, hi = itemsize(a.dtype);
    for (std::size_t d = 0; d < a.view.shape.size(); ++d) {
      if (a.view.shape[d] == 0) return Range{0, 0};
      (a.view.strides[d] < 0 ? lo : hi) += a.view.strides[d] * (a.view.shape[d] - 1);
    }
    const auto base = reinterpret_cast<std::uintptr_t>(a.view.data);
    return Range{base + static_cast<std::uintptr_t>(lo), base + static_cast<std::uintptr_t>(hi)};
  };
  auto overlap = [](Range a, Range b) { return a.begin < b.end && b.begin < a.end; };
  auto stored = [&](std::size_t k) { return traits.use[k].used && !job.args[k].is_const; };
  for (std::size_t s = 0; s < job.args.size(); ++s) {
    const UserKernelArg& a = job.args[s];
    if (a.kind == UserArgKind::scalar) continue;
    if (a.kind == UserArgKind::raw) {
      // The user's own reads and writes through a raw array would see deferred values.
      const Range r = raw_range(a);
      for (std::size_t o = 0; o < job.args.size(); ++o)
        if (job.args[o].kind == UserArgKind::array && traits.use[o].used && (stored(o) || !a.is_const) &&
            overlap(r, array_range(o)))
          return 1;
      continue;
    }
    if (!stored(s)) continue;
    for (std::size_t o = 0; o < job.args.size(); ++o) {
      if (o == s || job.args[o].kind != UserArgKind::array || !traits.use[o].used ||
          !overlap(array_range(s), array_range(o)))
        continue;
      // Two written operands over the same memory: the order of their stores (of values
      // perhaps never assigned, for a `_non_const` input) would decide.
      if (stored(o)) return 1;
      if (address(o) == address(s)) {
        // The same elements: fine when `s` is assigned once and `o` is only read before that.
        const UserOperandUse& us = traits.use[s];
        if (!(us.write_only && job.args[o].is_const && traits.use[o].last_use < us.assign_end)) return 1;
        continue;
      }
      // Other elements of one array: each thread's vectors of the two are then disjoint
      // (as racy as the one-element path across threads, no more).
      const std::int64_t size = itemsize(a.dtype);
      const auto distance = address(o) > address(s) ? address(o) - address(s) : address(s) - address(o);
      if (itemsize(job.args[o].dtype) != size || distance % static_cast<std::uintptr_t>(size * vec) != 0) return 1;
    }
  }
  return vec;
}

void write_vector_loop(SourceWriter& w, const UserElementwiseJob& job, const UserVectorTraits& traits,
                       const std::vector<int>& arrays, int vec) {
  const UserKernelCode& code = *job.code;
  const std::string V = std::to_string(vec);
  auto vec_type = [&](const UserKernelArg& a) { return "copper::kern::Vec<" + a.ctype + ", " + V + ">"; };
  // Full vectors one aligned access each; the last, partial one element by element.
  auto partial = [&](const std::string& statement) {
    return "      for (int _j = 0; _j < " + V + "; ++_j)\n        if (_base + _j < _nI) " + statement + "\n";
  };
  w << "  // vector variant: " << V << " elements per thread\n";
  w << "  const _I _nI = static_cast<_I>(_n);\n";
  w << "  const _I _nv = _nI / " << V << " + (_nI % " << V << " != 0);\n";
  w << "  const _I _step = static_cast<_I>(gridDim.x) * blockDim.x;\n";
  w << "  for (_I _k = static_cast<_I>(blockIdx.x) * blockDim.x + threadIdx.x; _k < _nv; _k += _step) {\n";
  w << "    const _I _base = _k * " << V << ";\n";
  w << "    const bool _full = _base + " << V << " <= _nI;\n";
  for (int k : arrays) {
    const UserKernelArg& a = job.args[k];
    if (!traits.use[k].used) continue;
    w << "    " << vec_type(a) << " _vec_" << a.name << ";\n";
    if (!traits.load(k)) continue;
    w << "    if (_full) _vec_" << a.name << " = reinterpret_cast<const " << vec_type(a) << "*>(_raw_" << a.name
      << ")[_k];\n    else {\n"
      << partial("_vec_" + a.name + ".v[_j] = _raw_" + a.name + "[_base + _j];") << "    }\n";
  }
  w << "#pragma unroll\n    for (int _j = 0; _j < " << V << "; ++_j) {\n"
    << "      if (!_full && _base + _j >= _nI) continue;\n"
    << "      const ptrdiff_t i = static_cast<ptrdiff_t>(_base + _j);\n      _ind.set(i);\n";
  for (int k : arrays) {
    const UserKernelArg& a = job.args[k];
    if (traits.use[k].used) w << "      " << element_load(a, "_vec_" + a.name + ".v[_j]") << "\n";
  }
  w.user_block(code.name, code.operation);
  w << ";\n    }\n";
  for (int k : arrays) {
    const UserKernelArg& a = job.args[k];
    if (!traits.use[k].used || a.is_const) continue;
    w << "    if (_full) reinterpret_cast<" << vec_type(a) << "*>(_raw_" << a.name << ")[_k] = _vec_" << a.name
      << ";\n    else {\n"
      << partial("_raw_" + a.name + "[_base + _j] = _vec_" + a.name + ".v[_j];") << "    }\n";
  }
  w << "  }\n";
}

}  // namespace copper::backend::cuda
