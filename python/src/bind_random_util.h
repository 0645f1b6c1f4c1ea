// Conversions the copper.random binding files share (defined in bind_random.cpp).
#pragma once
#include <optional>
#include <vector>

#include "bindings.h"
#include "copper/random.hpp"

namespace copper::python {

Shape size_of(nb::handle size);               // None -> () (CuPy's 0-d result)
std::optional<Shape> opt_size(nb::handle size);  // None -> nullopt (the parameters' shape)
const ndarray* out_of(nb::handle out);        // None -> nullptr; a copper array otherwise
bool is_array_param(nb::handle v);            // ndim > 0 or a sequence
double real_of(nb::handle v, const char* name);
random::Param param_of(nb::handle v);         // a number or an array parameter
ndarray int_param_of(nb::handle v);           // an integer bound (0-d int64/uint64 for Python ints)
DType dtype_or(nb::handle dtype, DType fallback);  // None -> fallback
// A seed as 64-bit words: an int (split into words) or a sequence of non-negative ints;
// floats and complex numbers raise TypeError, negative values ValueError.
std::vector<std::uint64_t> seed_words(nb::handle seed);
// Registers the distribution entry points `_dist` and the vector distributions on both classes.
void bind_random_distributions(nb::class_<random::Generator>& gen, nb::class_<random::RandomState>& legacy);

}  // namespace copper::python
