// The CPU side of ops/sort_keys.h: which key a dtype sorts by, and loops that turn rows
// of elements into keys and back.
#pragma once
#include <cstdint>

#include "copper/dtype.hpp"
#include "ops/sort_keys.h"

namespace copper::backend::cpu {

using ops::sort_keys::KeyClass;

// A real dtype's key class (complex dtypes: their parts' class, floating).
inline KeyClass key_class(DType t) {
  switch (kind(t)) {
    case Kind::bool_: return KeyClass::boolean;
    case Kind::int_: return KeyClass::signed_int;
    case Kind::uint_: return KeyClass::unsigned_int;
    default: return KeyClass::floating;
  }
}

// Calls fn(U{}) with the unsigned type of t's element bits (of one part for complex).
template <class Fn> decltype(auto) with_key_type(DType t, Fn&& fn) {
  switch (is_complex(t) ? itemsize(t) / 2 : itemsize(t)) {
    case 1: return fn(std::uint8_t{});
    case 2: return fn(std::uint16_t{});
    case 4: return fn(std::uint32_t{});
    default: return fn(std::uint64_t{});
  }
}

template <class U> void encode_keys(const U* in, U* keys, std::int64_t n, KeyClass c, bool canonical) {
  for (std::int64_t i = 0; i < n; ++i) keys[i] = ops::sort_keys::encode_key(c, in[i], canonical);
}
template <class U> void decode_keys(const U* keys, U* out, std::int64_t n, KeyClass c) {
  for (std::int64_t i = 0; i < n; ++i) out[i] = ops::sort_keys::decode_key(c, keys[i]);
}

// The canonical key of element i of a real or complex row as up to three 64-bit words
// compared in order (class, real, imaginary for complex; the key alone otherwise).
struct WideKey {
  std::uint64_t w[3];
  int count;
};
template <class U> WideKey wide_key(const U* row, std::int64_t i, KeyClass c, bool complex) {
  namespace sk = ops::sort_keys;
  if (!complex) return {{sk::encode_key(c, row[i], true), 0, 0}, 1};
  const U re = row[2 * i], im = row[2 * i + 1];
  return {{sk::complex_class(re, im), sk::complex_real_key(re, im), sk::complex_imag_key(re, im)}, 3};
}

}  // namespace copper::backend::cpu
