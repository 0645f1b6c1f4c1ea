// Loads of one array element by the CPU kernels that compute with it.
//
// A bool element may hold any byte: a bool view of other data (x_int8.view(bool)), or
// memory that came from elsewhere (DLPack, a raw kernel). NumPy reads every nonzero byte
// as True. C++ reading such a byte as a bool is undefined, and compilers pass the byte on
// (3 + 4 gives 7; a mask of 3s counts 3 per element, and the selected elements then fill
// only part of a result sized by that count). So every kernel that computes with an
// element loads it here: a bool as its byte != 0, other types as they are. Kernels that
// only move bytes (copies, gathers, sorts) keep the byte, as NumPy's do.
#pragma once
#include <cstring>
#include <type_traits>

namespace copper::backend::cpu {

template <class T> inline T load_element(const void* p) {
  if constexpr (std::is_same_v<T, bool>) {
    return *static_cast<const unsigned char*>(p) != 0;
  } else {
    T v;
    std::memcpy(&v, p, sizeof(T));  // a plain load once inlined, aligned or not
    return v;
  }
}

}  // namespace copper::backend::cpu
