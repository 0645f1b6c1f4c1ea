// Sorting, searching and set operations with NumPy's semantics: NaNs sort last, complex
// numbers lexicographically (NumPy's NaN rules), -0.0 equal to +0.0; argsort, lexsort
// and stable sorts are stable. `kind` accepts NumPy's names ("quicksort", "mergesort",
// "heapsort", "stable", or their first letter); `stable` is NumPy 2's keyword.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "copper/ndarray.hpp"

namespace copper {

// Sorted copy along `axis` (std::nullopt: the flattened array). descending is the array
// API's keyword (NumPy has none).
ndarray sort(const ndarray& a, std::optional<int> axis = -1, const std::optional<std::string>& kind = std::nullopt,
             std::optional<bool> stable = std::nullopt, bool descending = false);
// Indices (int64) that sort `a` along `axis`; always stable (descending too: equal
// elements keep their order, as the array API asks).
ndarray argsort(const ndarray& a, std::optional<int> axis = -1, const std::optional<std::string>& kind = std::nullopt,
                std::optional<bool> stable = std::nullopt, bool descending = false);
// ndarray.sort: sorts `a` (or the view it is) in place.
void sort_inplace(const ndarray& a, int axis = -1, const std::optional<std::string>& kind = std::nullopt,
                  std::optional<bool> stable = std::nullopt);
// Indices sorting by several keys: keys.back() first, then the one before, ... (stable).
ndarray lexsort(const std::vector<ndarray>& keys, int axis = -1);
// The element of sorted rank kth (each of `kth`; negative counts from the end) in its
// sorted place, smaller ones before it and larger ones after. kind: "introselect".
ndarray partition(const ndarray& a, const std::vector<std::int64_t>& kth, std::optional<int> axis = -1,
                  const std::string& kind = "introselect");
ndarray argpartition(const ndarray& a, const std::vector<std::int64_t>& kth, std::optional<int> axis = -1,
                     const std::string& kind = "introselect");
// ndarray.partition: in place.
void partition_inplace(const ndarray& a, const std::vector<std::int64_t>& kth, int axis = -1,
                       const std::string& kind = "introselect");
// Sorted along the last axis, as complex64 (8/16-bit integers) or complex128.
ndarray sort_complex(const ndarray& a);

// Insertion points (int64, v's shape) of v into the ascending 1-d `a` ("left" or "right"),
// or into a[sorter] when `sorter` (int64 indices that sort `a`) is given.
ndarray searchsorted(const ndarray& a, const operand& v, const std::string& side = "left",
                     const std::optional<ndarray>& sorter = std::nullopt);
// The bin of each x: bins increasing or decreasing; right says which edge is inclusive.
ndarray digitize(const operand& x, const ndarray& bins, bool right = false);

// numpy.unique: the sorted unique elements (or, with `axis`, unique slices along it), and
// on request the index of each one's first occurrence, the inverse (x's shape, or 1-d
// along `axis`) and the counts. equal_nan merges NaNs (axis=None only, as NumPy).
struct UniqueResult {
  ndarray values;
  std::optional<ndarray> indices, inverse, counts;
};
UniqueResult unique(const ndarray& ar, bool return_index = false, bool return_inverse = false,
                    bool return_counts = false, std::optional<int> axis = std::nullopt, bool equal_nan = true);
// The array API forms: NaNs are distinct; every field present.
UniqueResult unique_all(const ndarray& x);
UniqueResult unique_counts(const ndarray& x);
UniqueResult unique_inverse(const ndarray& x);
ndarray unique_values(const ndarray& x);

// Whether each element of `element` is in `test_elements` (element's shape). kind is
// accepted for NumPy compatibility ("sort", "table" or none); all kinds sort.
ndarray isin(const operand& element, const operand& test_elements, bool assume_unique = false, bool invert = false,
             const std::optional<std::string>& kind = std::nullopt);
struct Intersect1dResult {
  ndarray values;
  std::optional<ndarray> indices1, indices2;
};
Intersect1dResult intersect1d(const operand& ar1, const operand& ar2, bool assume_unique = false,
                              bool return_indices = false);
ndarray union1d(const operand& ar1, const operand& ar2);
ndarray setdiff1d(const operand& ar1, const operand& ar2, bool assume_unique = false);
ndarray setxor1d(const operand& ar1, const operand& ar2, bool assume_unique = false);

}  // namespace copper
