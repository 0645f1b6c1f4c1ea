// The kernels around the radix sorts: elements to keys (ops/sort_keys.h) and back, index
// words, and gathers by sorted indices.
#include "backend/cuda/cub/aot_sort.h"
#include "backend/cuda/cub/aot_support.cuh"
#include "ops/sort_keys.h"

namespace copper::backend::cuda::aot {

namespace {

namespace sk = ops::sort_keys;

sk::KeyClass key_class_of(DType t) {
  switch (kind(t)) {
    case Kind::bool_: return sk::KeyClass::boolean;
    case Kind::int_: return sk::KeyClass::signed_int;
    case Kind::uint_: return sk::KeyClass::unsigned_int;
    default: return sk::KeyClass::floating;
  }
}
// Bytes of one element's bits (one part of a complex number).
int element_word_bytes(DType t) { return is_complex(t) ? itemsize(t) / 2 : itemsize(t); }

template <class U, class K>
__device__ __forceinline__ K key_of(const U* in, std::int64_t e, sk::KeyClass cls, KeyPart part, bool canonical) {
  switch (part) {
    case KeyPart::value: return K(sk::encode_key(cls, in[e], canonical));
    case KeyPart::complex_class: return K(sk::complex_class(in[2 * e], in[2 * e + 1]));
    case KeyPart::complex_real: return K(sk::complex_real_key(in[2 * e], in[2 * e + 1]));
    default: return K(sk::complex_imag_key(in[2 * e], in[2 * e + 1]));
  }
}

template <class U, class K, class P>
__global__ void encode_kernel(const U* in, const P* perm, K* keys, std::int64_t n, sk::KeyClass cls, KeyPart part,
                              bool canonical, std::int64_t row_length, int bits) {
  COPPER_GRID_STRIDE_LOOP(i, n) {
    const std::int64_t e = perm ? static_cast<std::int64_t>(perm[i]) : i;
    K k = key_of<U, K>(in, e, cls, part, canonical);
    if (row_length > 0) k |= K(std::uint64_t(e / row_length) << bits);
    keys[i] = k;
  }
}

template <class U, class K>
__global__ void decode_kernel(const K* keys, U* out, std::int64_t n, sk::KeyClass cls, K mask) {
  COPPER_GRID_STRIDE_LOOP(i, n) { out[i] = sk::decode_key(cls, U(keys[i] & mask)); }
}

template <class P> __global__ void iota_kernel(P* values, std::int64_t n) {
  COPPER_GRID_STRIDE_LOOP(i, n) { values[i] = P(i); }
}

template <class P> __global__ void row_kernel(const P* flat, std::uint32_t* rows, std::int64_t n, std::int64_t row_length) {
  COPPER_GRID_STRIDE_LOOP(i, n) { rows[i] = std::uint32_t(std::int64_t(flat[i]) / row_length); }
}

template <class P>
__global__ void column_kernel(const P* flat, std::int64_t* out, std::int64_t n, std::int64_t row_length) {
  COPPER_GRID_STRIDE_LOOP(i, n) { out[i] = row_length > 0 ? std::int64_t(flat[i]) % row_length : std::int64_t(flat[i]); }
}

struct alignas(16) Bytes16 {
  std::uint64_t lo, hi;
};

template <class E, class P> __global__ void gather_kernel(const E* in, const P* flat, E* out, std::int64_t n) {
  COPPER_GRID_STRIDE_LOOP(i, n) { out[i] = in[flat[i]]; }
}

template <class Fn> void with_index(int bytes, Fn&& fn) {
  if (bytes == 4) fn(std::uint32_t{});
  else fn(std::uint64_t{});
}
template <class Fn> void with_key(int bytes, Fn&& fn) {
  if (bytes == 2) fn(std::uint16_t{});
  else if (bytes == 4) fn(std::uint32_t{});
  else fn(std::uint64_t{});
}

}  // namespace

int key_bits(DType dtype, KeyPart part) {
  if (part == KeyPart::complex_class) return 2;
  return 8 * element_word_bytes(dtype);
}

int key_bytes(DType dtype, KeyPart part) {
  const int bits = key_bits(dtype, part);
  return bits <= 16 ? 2 : bits <= 32 ? 4 : 8;
}

void encode_sort_keys(const Launch& launch, DType dtype, KeyPart part, bool canonical, const void* in, const void* perm,
                      int perm_bytes, void* keys, std::int64_t n, std::int64_t row_length) {
  const int bits = key_bits(dtype, part);
  const int kbytes = row_length > 0 ? 8 : key_bytes(dtype, part);
  detail::with_unsigned(element_word_bytes(dtype), [&](auto u) {
    using U = decltype(u);
    with_key(kbytes, [&](auto k) {
      using K = decltype(k);
      with_index(perm_bytes, [&](auto p) {
        using P = decltype(p);
        detail::launch_loop(launch, "sort (keys)", n, encode_kernel<U, K, P>, static_cast<const U*>(in),
                            static_cast<const P*>(perm), static_cast<K*>(keys), n, key_class_of(dtype), part, canonical,
                            row_length, bits);
      });
    });
  });
}

void decode_sort_keys(const Launch& launch, DType dtype, const void* keys, bool row_keys, void* out, std::int64_t n) {
  const int bits = key_bits(dtype, KeyPart::value);
  const int kbytes = row_keys ? 8 : key_bytes(dtype, KeyPart::value);
  detail::with_unsigned(element_word_bytes(dtype), [&](auto u) {
    using U = decltype(u);
    with_key(kbytes, [&](auto k) {
      using K = decltype(k);
      const K mask = bits >= 8 * int(sizeof(K)) ? K(~K(0)) : K((K(1) << bits) - 1);
      detail::launch_loop(launch, "sort (values)", n, decode_kernel<U, K>, static_cast<const K*>(keys), static_cast<U*>(out),
                          n, key_class_of(dtype), mask);
    });
  });
}

void iota_indices(const Launch& launch, void* values, int value_bytes, std::int64_t n) {
  with_index(value_bytes, [&](auto p) {
    using P = decltype(p);
    detail::launch_loop(launch, "sort (indices)", n, iota_kernel<P>, static_cast<P*>(values), n);
  });
}

void row_of_index(const Launch& launch, const void* flat, int value_bytes, std::uint32_t* rows, std::int64_t n,
                  std::int64_t row_length) {
  with_index(value_bytes, [&](auto p) {
    using P = decltype(p);
    detail::launch_loop(launch, "sort (rows)", n, row_kernel<P>, static_cast<const P*>(flat), rows, n, row_length);
  });
}

void column_of_index(const Launch& launch, const void* flat, int value_bytes, std::int64_t* out, std::int64_t n,
                     std::int64_t row_length) {
  with_index(value_bytes, [&](auto p) {
    using P = decltype(p);
    detail::launch_loop(launch, "sort (indices)", n, column_kernel<P>, static_cast<const P*>(flat), out, n, row_length);
  });
}

void gather_elements(const Launch& launch, const void* in, int element_bytes, const void* flat, int value_bytes,
                     void* out, std::int64_t n) {
  with_index(value_bytes, [&](auto p) {
    using P = decltype(p);
    auto run = [&](auto e) {
      using E = decltype(e);
      detail::launch_loop(launch, "sort (gather)", n, gather_kernel<E, P>, static_cast<const E*>(in),
                          static_cast<const P*>(flat), static_cast<E*>(out), n);
    };
    if (element_bytes == 16) run(Bytes16{});
    else detail::with_unsigned(element_bytes, run);
  });
}

}  // namespace copper::backend::cuda::aot
