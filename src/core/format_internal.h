// Pieces shared by the array printer's files (private to src/core/format_*.cpp).
#pragma once
#include <string>
#include <vector>

#include "copper/format.hpp"

namespace copper::format {

// A host copy of the elements a print shows: the whole array, or for a summarized
// array only its corners (each long axis keeps its leading and trailing edgeitems),
// joined in C order as NumPy's _leading_trailing joins them.
struct PrintedData {
  DType dtype = DType::float64;
  Shape shape;  // per axis: the original length, or the joined edges' length
  std::vector<unsigned char> bytes;
};
PrintedData gather_printed(const ndarray& a, bool summarize, int edgeitems);

// The text of every element of `data` (C order), padded to common widths as NumPy's
// Bool/Integer/Floating/ComplexFloating formatters pad them. zero_dim: a 0-d array.
std::vector<std::string> format_elements(const PrintedData& data, const PrintOptions& options, bool zero_dim);

// str() of a NumPy scalar of `dtype` stored at `element` (what str of a 0-d array prints).
std::string scalar_str(DType dtype, const void* element);

}  // namespace copper::format
