// Host-side helpers for writing kernel sources and their launch parameters:
// device type names, the source prologue, fast-division constants, collapsing
// strided layouts into the fewest dimensions, and packing kernel keys.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "backend/collapse_dims.h"
#include "backend/cuda/kernel_cache.h"
#include "copper/dtype.hpp"

namespace copper::backend::cuda {

// The C++ spelling of a dtype's storage type in device code ("float", "copper::ops::half").
const char* device_type_name(DType t);
// An unsigned type of `bytes` bytes (1, 2, 4, 8) for moving raw elements, else "E16"
// (a 16-byte struct the source defines).
const char* unit_type_name(int bytes);
// The first lines of every generated source: the op headers and kernels/common.cuh.
std::string source_prologue();
// A generated source that names no complex type (generated code spells every one
// copper::ops::complex64 or complex128) with COPPER_REAL_MATH_ONLY defined first, so
// NVRTC skips scalar_math.h's complex functions (3-4 ms of a small kernel's 46 ms compile,
// the cubin unchanged); other sources as they are.
std::string without_unused_complex_math(std::string source);

// Mirrors copper::kern::FastDiv.
struct FastDiv {
  unsigned divisor, mul, shift;
};
FastDiv make_fast_div(unsigned divisor);

constexpr int kMaxDims = 16;  // copper::kern::kMaxDims

// A loop nest over `shape` with the byte strides of several operands, dimensions
// merged where every operand is contiguous across them and size-1 dimensions
// dropped (backend/collapse_dims.h, shared with user kernels).
using CollapsedLayout = CollapsedDims;
inline CollapsedLayout collapse(const Shape& shape, std::span<const Strides* const> strides) {
  return collapse_dims(shape, strides);
}

[[noreturn]] void throw_too_many_dims(int ndim);

// Mirrors copper::kern::StridedLayout<N> byte for byte, N fixed by the caller.
template <int N> struct StridedLayoutParam {
  int ndim;
  long long shape[kMaxDims];
  FastDiv div[kMaxDims];
  long long strides[N][kMaxDims];
};
// Fills a StridedLayoutParam from a collapsed layout (NotImplementedError past kMaxDims).
template <int N> StridedLayoutParam<N> strided_param(const CollapsedLayout& l) {
  StridedLayoutParam<N> p{};
  if (l.shape.size() > static_cast<std::size_t>(kMaxDims))
    throw_too_many_dims(static_cast<int>(l.shape.size()));
  p.ndim = static_cast<int>(l.shape.size());
  for (int d = 0; d < p.ndim; ++d) {
    p.shape[d] = l.shape[d];
    p.div[d] = make_fast_div(static_cast<unsigned>(l.shape[d] <= 0xffffffffLL ? l.shape[d] : 1));
    for (int k = 0; k < N; ++k) p.strides[k][d] = l.strides[k][d];
  }
  return p;
}
// Builds a KernelKey field by field (each field a byte; at most 32).
class KeyBuilder {
 public:
  KeyBuilder& add(unsigned byte) {
    key_.words[n_ / 8] |= static_cast<std::uint64_t>(byte & 0xff) << (8 * (n_ % 8));
    ++n_;
    return *this;
  }
  KernelKey key() const { return key_; }

 private:
  KernelKey key_{};
  int n_ = 0;
};

// Whether a grid-stride loop over n positions may use 32-bit indices: neither a position nor
// position + grid stride can wrap.
inline bool fits_index32(std::int64_t n) { return n < (std::int64_t{1} << 31) - (std::int64_t{1} << 26); }

// Whether `p` is aligned to `bytes`.
inline bool aligned(const void* p, std::size_t bytes) { return reinterpret_cast<std::uintptr_t>(p) % bytes == 0; }

}  // namespace copper::backend::cuda
