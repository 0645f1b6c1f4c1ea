// Text forms of arrays, as NumPy prints them (repr, str, summarization of large arrays).
#pragma once
#include <ostream>
#include <string>

#include "copper/ndarray.hpp"

namespace copper {

struct PrintOptions {
  int precision = 8;
  std::int64_t threshold = 1000;  // summarize above this many elements
  int edgeitems = 3;
  int linewidth = 75;
  bool suppress = false;
};
PrintOptions get_printoptions();
void set_printoptions(const PrintOptions& options);

std::string array_repr(const ndarray& a);  // "array([1, 2, 3], dtype=int32)"
std::string array_str(const ndarray& a);   // "[1 2 3]"
std::ostream& operator<<(std::ostream& os, const ndarray& a);  // str form

}  // namespace copper
