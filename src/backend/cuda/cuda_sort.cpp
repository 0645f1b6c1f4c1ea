// sort_rows and lexsort_rows on the GPU, composed from the ahead-of-time CUB radix sorts
// (cub/aot_sort.h). Values of 4- and 8-byte integers and floats, in one row or in long
// rows, are sorted as they are (aot::sort_native). Otherwise every dtype becomes
// 16/32/64-bit unsigned keys (ops/sort_keys.h):
//  - one pass when the key fits: values sort exact keys and decode them; indices sort
//    canonical keys carrying flat indices (radix sort is stable). Several rows sort at
//    once with the row number above the key bits (64-bit keys).
//  - otherwise least-significant-first passes, each a stable sort of one key column
//    gathered through the current permutation: complex numbers (imaginary, real, class),
//    lexsort's keys, 64-bit keys of several rows, and finally the row number.
#include <algorithm>
#include <bit>
#include <vector>

#include "backend/cuda/aot_call.h"
#include "backend/cuda/cub/aot_sort.h"
#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_context.h"
#include "copper/errors.hpp"

namespace copper::backend::cuda {

namespace {

using aot::KeyPart;

// One key column of a least-significant-first sort: a part of the elements of `data`.
struct Column {
  const void* data;
  DType dtype;
  KeyPart part;
};

int bit_width_of(std::int64_t count) { return count > 1 ? static_cast<int>(std::bit_width(std::uint64_t(count - 1))) : 0; }

// The permutation (flat indices) of `total` elements that sorts them stably by columns,
// the last column deciding first, then by row (rows of row_length) when rows > 1.
class Permutation {
 public:
  Permutation(AotCall& call, std::int64_t total) : call_(call), total_(total) {
    value_bytes_ = total <= (std::int64_t(1) << 32) ? 4 : 8;
    values_[0] = call.scratch(static_cast<std::size_t>(total * value_bytes_));
    values_[1] = call.scratch(static_cast<std::size_t>(total * value_bytes_));
    keys_[0] = call.scratch(static_cast<std::size_t>(total * 8));
    keys_[1] = call.scratch(static_cast<std::size_t>(total * 8));
    aot::iota_indices(call.launch(), values_[0], value_bytes_, total);
  }

  // By whole elements: complex numbers as (imaginary, real, class) passes.
  void sort_by_elements(const ArrayView& a) {
    if (!is_complex(a.dtype)) return sort_by({a.data, a.dtype, KeyPart::value});
    for (KeyPart part : {KeyPart::complex_imag, KeyPart::complex_real, KeyPart::complex_class})
      sort_by({a.data, a.dtype, part});
  }

  void sort_by(const Column& c) {
    aot::encode_sort_keys(call_.launch(), c.dtype, c.part, true, c.data, first_ ? nullptr : values_[0], value_bytes_,
                          keys_[0], total_, 0);
    first_ = false;
    sort(aot::key_bytes(c.dtype, c.part), aot::key_bits(c.dtype, c.part));
  }
  void sort_by_row(std::int64_t row_length) {
    const std::int64_t rows = total_ / row_length;
    if (rows < 2) return;
    aot::row_of_index(call_.launch(), values_[0], value_bytes_, static_cast<std::uint32_t*>(keys_[0]), total_, row_length);
    sort(4, bit_width_of(rows));
  }

  const void* flat() const { return values_[0]; }
  int value_bytes() const { return value_bytes_; }

 private:
  void sort(int key_bytes, int bits) {
    if (aot::radix_sort(call_.launch(), key_bytes, value_bytes_, keys_, values_, total_, 0, bits) == 1) {
      std::swap(keys_[0], keys_[1]);
      std::swap(values_[0], values_[1]);
    }
  }

  AotCall& call_;
  std::int64_t total_;
  int value_bytes_ = 4;
  void* keys_[2] = {};
  void* values_[2] = {};
  bool first_ = true;
};

// Writes the results of a sort from the sorted flat indices: positions within rows, and
// the elements gathered from `in` (through a temporary when sorting in place).
void finish(AotCall& call, const void* flat, int value_bytes, const ArrayView& in, const ArrayView* values,
            const ArrayView* indices, std::int64_t total, std::int64_t row_length) {
  if (indices)
    aot::column_of_index(call.launch(), flat, value_bytes, static_cast<std::int64_t*>(indices->data), total, row_length);
  if (!values) return;
  const std::size_t bytes = static_cast<std::size_t>(total * itemsize(in.dtype));
  void* target = values->data == in.data ? call.scratch(bytes) : values->data;
  aot::gather_elements(call.launch(), in.data, itemsize(in.dtype), flat, value_bytes, target, total);
  if (target != values->data)
    check(driver().cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(values->data), reinterpret_cast<CUdeviceptr>(target), bytes,
                                 static_cast<CUstream>(call.launch().stream)),
          "cuMemcpyAsync");
}

}  // namespace

void CudaBackend::sort_rows(const ArrayView& in, const ArrayView* values, const ArrayView* indices) {
  const std::int64_t rows = in.shape[0], n = in.shape[1], total = rows * n;
  if (total == 0) return;
  AotCall call(index_, indices ? "argsort" : "sort");
  // Values of a type CUB orders itself, one row or long rows: sorted row by row as they
  // are, without key passes.
  constexpr std::int64_t kLongRow = std::int64_t(1) << 22;
  if (!indices && aot::sorts_natively(in.dtype) && (rows == 1 || n >= kLongRow)) {
    const std::int64_t row_bytes = n * itemsize(in.dtype);
    for (std::int64_t r = 0; r < rows; ++r)
      aot::sort_native(call.launch(), in.dtype, static_cast<const char*>(in.data) + r * row_bytes,
                       static_cast<char*>(values->data) + r * row_bytes, n);
    return;
  }
  const int bits = aot::key_bits(in.dtype, KeyPart::value);
  const int row_bits = bit_width_of(rows);
  const bool one_pass = !is_complex(in.dtype) && bits + row_bits <= 64;
  if (!one_pass) {
    Permutation perm(call, total);
    perm.sort_by_elements(in);
    perm.sort_by_row(n);
    finish(call, perm.flat(), perm.value_bytes(), in, values, indices, total, n);
    return;
  }
  // One radix sort: keys of the element's own width, or 64-bit keys with the row on top.
  const std::int64_t row_length = rows > 1 ? n : 0;
  const int key_bytes = rows > 1 ? 8 : aot::key_bytes(in.dtype, KeyPart::value);
  void* keys[2] = {call.scratch(static_cast<std::size_t>(total * key_bytes)),
                   call.scratch(static_cast<std::size_t>(total * key_bytes))};
  if (!indices) {
    aot::encode_sort_keys(call.launch(), in.dtype, KeyPart::value, false, in.data, nullptr, 4, keys[0], total, row_length);
    void* no_values[2] = {nullptr, nullptr};
    const int r = aot::radix_sort(call.launch(), key_bytes, 0, keys, no_values, total, 0, bits + row_bits);
    aot::decode_sort_keys(call.launch(), in.dtype, keys[r], rows > 1, values->data, total);
    return;
  }
  const int value_bytes = total <= (std::int64_t(1) << 32) ? 4 : 8;
  void* flat[2] = {call.scratch(static_cast<std::size_t>(total * value_bytes)),
                   call.scratch(static_cast<std::size_t>(total * value_bytes))};
  aot::encode_sort_keys(call.launch(), in.dtype, KeyPart::value, true, in.data, nullptr, 4, keys[0], total, row_length);
  aot::iota_indices(call.launch(), flat[0], value_bytes, total);
  const int r = aot::radix_sort(call.launch(), key_bytes, value_bytes, keys, flat, total, 0, bits + row_bits);
  finish(call, flat[r], value_bytes, in, values, indices, total, n);
}

void CudaBackend::lexsort_rows(std::span<const ArrayView> keys, const ArrayView& indices) {
  const std::int64_t rows = indices.shape[0], n = indices.shape[1], total = rows * n;
  if (total == 0) return;
  AotCall call(index_, "lexsort");
  Permutation perm(call, total);
  for (const ArrayView& k : keys) perm.sort_by_elements(k);
  perm.sort_by_row(n);
  finish(call, perm.flat(), perm.value_bytes(), indices, nullptr, &indices, total, n);
}

}  // namespace copper::backend::cuda
