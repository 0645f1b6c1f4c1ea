// Array layout as NumPy's array2string lays it out: nested brackets, rows wrapped at the
// line width with a hanging indent, blank lines between blocks, "..." for summarized
// axes; and the repr/str wrappers around it ("array(", dtype= and shape= suffixes).
#include <ostream>

#include "core/format_float.h"
#include "core/format_internal.h"

namespace copper {

namespace {

using format::text_width;

std::string rstrip(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n')) s.pop_back();
  return s;
}

// Python's repr of a shape tuple: "(5,)", "(2, 3)", "()".
std::string shape_repr(const Shape& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

// The dtypes NumPy's repr leaves unsaid, because the values already imply them.
bool dtype_is_implied(DType t) {
  return t == DType::float64 || t == DType::int64 || t == DType::complex128 || t == DType::bool_;
}

class Layout {
 public:
  Layout(const std::vector<std::string>& words, const Shape& shape, const Shape& printed_shape,
         std::string_view separator, int edgeitems, bool summarize)
      : words_(words),
        shape_(shape),
        printed_shape_(printed_shape),
        printed_strides_(c_strides(printed_shape, 1)),
        separator_(separator),
        edgeitems_(edgeitems),
        summarize_(summarize) {}

  std::string recurse(int axis, std::int64_t offset, const std::string& hanging_indent, int curr_width) const {
    const int ndim = static_cast<int>(shape_.size());
    if (axis == ndim) return words_[static_cast<std::size_t>(offset)];
    const int axes_left = ndim - axis;
    const std::string next_hanging_indent = hanging_indent + " ";
    const int next_width = curr_width - 1;  // room for the closing ']'
    const std::int64_t a_len = shape_[axis];
    const bool show_summary = summarize_ && 2 * static_cast<std::int64_t>(edgeitems_) < a_len;
    const std::int64_t leading = show_summary ? edgeitems_ : 0;
    const std::int64_t trailing = show_summary ? edgeitems_ : a_len;
    // Leading items count from the front of the printed copy, trailing ones from its back.
    auto child = [&](std::int64_t i) {
      const std::int64_t pos = i >= 0 ? i : printed_shape_[axis] + i;
      return recurse(axis + 1, offset + pos * printed_strides_[axis], next_hanging_indent, next_width);
    };
    std::string s;
    if (axes_left == 1) {
      const std::string sep_stripped = rstrip(std::string(separator_));
      const int elem_width = curr_width - std::max(text_width(sep_stripped), 1);
      std::string line = hanging_indent;
      for (std::int64_t i = 0; i < leading; ++i) {
        extend_line(s, line, child(i), elem_width, hanging_indent);
        line += separator_;
      }
      if (show_summary) {
        extend_line(s, line, "...", elem_width, hanging_indent);
        line += separator_;
      }
      for (std::int64_t i = trailing; i > 1; --i) {
        extend_line(s, line, child(-i), elem_width, hanging_indent);
        line += separator_;
      }
      extend_line(s, line, child(-1), elem_width, hanging_indent);
      s += line;
    } else {
      const std::string line_sep = rstrip(std::string(separator_)) + std::string(axes_left - 1, '\n');
      auto add_block = [&](const std::string& block, bool last) {
        s += hanging_indent;
        s += block;
        if (!last) s += line_sep;
      };
      for (std::int64_t i = 0; i < leading; ++i) add_block(child(i), false);
      if (show_summary) add_block("...", false);
      for (std::int64_t i = trailing; i > 1; --i) add_block(child(-i), false);
      add_block(child(-1), true);
    }
    std::string out(1, '[');
    out.append(s, hanging_indent.size());
    out += ']';
    return out;
  }

 private:
  // Wraps before `word` when it would pass the width, unless the line holds only the indent.
  static void extend_line(std::string& s, std::string& line, const std::string& word, int width,
                          const std::string& next_line_prefix) {
    bool needs_wrap = text_width(line) + text_width(word) > width;
    if (text_width(line) <= text_width(next_line_prefix)) needs_wrap = false;
    if (needs_wrap) {
      std::string trimmed = line;
      while (!trimmed.empty() && trimmed.back() == ' ') trimmed.pop_back();
      s += trimmed + "\n";
      line = next_line_prefix;
    }
    line += word;
  }

  const std::vector<std::string>& words_;
  const Shape& shape_;
  const Shape& printed_shape_;
  Strides printed_strides_;
  std::string_view separator_;
  int edgeitems_;
  bool summarize_;
};

}  // namespace

std::string array2string(const ndarray& a, const PrintOptions& options, std::string_view separator,
                         std::string_view prefix, std::string_view suffix) {
  const int linewidth = options.linewidth - format::text_width(std::string(suffix));
  if (a.size() == 0) return "[]";
  const bool summarize = a.size() > options.threshold;
  format::PrintedData data = format::gather_printed(a, summarize, options.edgeitems);
  std::vector<std::string> words = format::format_elements(data, options, a.ndim() == 0);
  const std::string next_line_prefix(1 + format::text_width(std::string(prefix)), ' ');
  Layout layout(words, a.shape(), data.shape, separator, options.edgeitems, summarize);
  return layout.recurse(0, 0, next_line_prefix, linewidth);
}

std::string array_repr(const ndarray& a, const PrintOptions& options) {
  const std::string prefix = "array(";
  const std::string body = array2string(a, options, ", ", prefix, ")");
  std::vector<std::string> extras;
  const bool shape_implied = a.size() == 0 ? a.shape() == Shape{0} : a.size() <= options.threshold;
  if (!shape_implied) extras.push_back("shape=" + shape_repr(a.shape()));
  if (!dtype_is_implied(a.dtype()) || a.size() == 0) extras.push_back("dtype=" + std::string(name(a.dtype())));
  if (extras.empty()) return prefix + body + ")";
  std::string out = prefix + body + ",";
  std::string extra = extras[0];
  for (std::size_t i = 1; i < extras.size(); ++i) extra += ", " + extras[i];
  extra += ")";
  // Extras go on their own line when they would push the last line past the width.
  const auto last_newline = out.rfind('\n');
  const int last_line_len = format::text_width(last_newline == std::string::npos ? out : out.substr(last_newline + 1));
  const bool wrap = last_line_len + static_cast<int>(extra.size()) + 1 > options.linewidth;
  if (wrap) {
    out += '\n';
    out.append(prefix.size(), ' ');
  } else {
    out += ' ';
  }
  return out + extra;
}

std::string array_str(const ndarray& a, const PrintOptions& options) {
  if (a.ndim() == 0) {
    // Like NumPy: a 0-d array prints as its scalar, untouched by the print options.
    unsigned char element[16];
    a.copy_to_host(element);
    return format::scalar_str(a.dtype(), element);
  }
  return array2string(a, options, " ", "", "");
}

std::string array_repr(const ndarray& a) { return array_repr(a, get_printoptions()); }
std::string array_str(const ndarray& a) { return array_str(a, get_printoptions()); }

std::ostream& operator<<(std::ostream& os, const ndarray& a) { return os << array_str(a); }

}  // namespace copper
