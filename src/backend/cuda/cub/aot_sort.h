// Sorting and searching building blocks compiled ahead of time (sort_*.cu, search.cu):
// CUB's stable radix sort over 16/32/64-bit unsigned keys carrying 32/64-bit
// indices, and the small kernels around it that turn elements into keys
// (ops/sort_keys.h) and sorted indices back into results. cuda_sort.cpp composes them.
// Plain C++: device pointers and sizes only.
#pragma once
#include <cstdint>

#include "backend/cuda/cub/aot.h"
#include "copper/dtype.hpp"

namespace copper::backend::cuda::aot {

// Which key of an element a pass sorts by (ops/sort_keys.h).
enum class KeyPart : std::uint8_t { value, complex_class, complex_real, complex_imag };

// Significant bits of a key (1-byte dtypes: 8, complex class: 2, float32 parts: 32, ...).
int key_bits(DType dtype, KeyPart part);
// Bytes of a key word in memory: the radix sorts are compiled for 2-, 4- and 8-byte keys.
int key_bytes(DType dtype, KeyPart part);

// keys[i] = the key of element e = (perm ? perm[i] : i) of `in` (C-contiguous elements of
// dtype), exact or canonical. perm holds perm_bytes (4 or 8) unsigned flat indices.
// row_length > 0 makes 8-byte keys (e / row_length) << key_bits | key, one sort for all rows.
void encode_sort_keys(const Launch& launch, DType dtype, KeyPart part, bool canonical, const void* in,
                      const void* perm, int perm_bytes, void* keys, std::int64_t n, std::int64_t row_length);
// out[i] = the element whose exact key is keys[i] (keys with rows: the low key_bits).
void decode_sort_keys(const Launch& launch, DType dtype, const void* keys, bool row_keys, void* out, std::int64_t n);

// Index words (4 or 8 bytes): iota, row of a flat index (as 4-byte keys), and the final
// int64 position within the row (flat % row_length).
void iota_indices(const Launch& launch, void* values, int value_bytes, std::int64_t n);
void row_of_index(const Launch& launch, const void* flat, int value_bytes, std::uint32_t* rows, std::int64_t n,
                  std::int64_t row_length);
void column_of_index(const Launch& launch, const void* flat, int value_bytes, std::int64_t* out, std::int64_t n,
                     std::int64_t row_length);
// out[i] = in[flat[i]] for elements of element_bytes (1, 2, 4, 8 or 16).
void gather_elements(const Launch& launch, const void* in, int element_bytes, const void* flat, int value_bytes,
                     void* out, std::int64_t n);

// Stable radix sort (DeviceRadixSort, double-buffer mode) of n keys of key_bytes (2, 4, 8)
// by bits [begin_bit, end_bit), carrying value_bytes (0, 4 or 8) values. keys[0] and
// values[0] hold the input; keys[1] and values[1] are scratch of the same size. Returns
// which buffer (0 or 1) holds the sorted keys and values.
int radix_sort(const Launch& launch, int key_bytes, int value_bytes, void* const keys[2], void* const values[2],
               std::int64_t n, int begin_bit, int end_bit);

// Whether sort_native takes elements of dtype: the ones CUB orders by itself (integers of
// 4 and 8 bytes, float32 and float64).
bool sorts_natively(DType dtype);
// Sorts n C-contiguous elements of such a dtype from `in` into `out` (which may be `in`)
// in NumPy's order, by radix sorting the elements themselves (cub/sort_native.cuh).
void sort_native(const Launch& launch, DType dtype, const void* in, void* out, std::int64_t n);

// out[i] = insertion point of queries[i] in the ascending `sorted` (n elements of dtype,
// NumPy's order): before equal elements (left) or after them (right).
void searchsorted(const Launch& launch, DType dtype, const void* sorted, std::int64_t n, const void* queries,
                  std::int64_t m, bool right, std::int64_t* out);

// Positions of the true flags, ascending (DeviceSelect::Flagged); their number goes to
// the device int64 *count.
void flag_positions(const Launch& launch, const bool* flags, std::int64_t n, std::int64_t* out, std::int64_t* count);

}  // namespace copper::backend::cuda::aot
