#include "backend/cuda/cuda_codegen.h"

#include "copper/errors.hpp"

namespace copper::backend::cuda {

const char* device_type_name(DType t) {
  switch (t) {
    case DType::bool_: return "bool";
    case DType::int8: return "int8_t";
    case DType::uint8: return "uint8_t";
    case DType::int16: return "int16_t";
    case DType::uint16: return "uint16_t";
    case DType::int32: return "int32_t";
    case DType::uint32: return "uint32_t";
    case DType::int64: return "int64_t";
    case DType::uint64: return "uint64_t";
    case DType::float16: return "copper::ops::half";
    case DType::float32: return "float";
    case DType::float64: return "double";
    case DType::complex64: return "copper::ops::complex64";
    case DType::complex128: return "copper::ops::complex128";
  }
  throw RuntimeError("device_type_name: unknown dtype");
}

const char* unit_type_name(int bytes) {
  switch (bytes) {
    case 1: return "unsigned char";
    case 2: return "unsigned short";
    case 4: return "unsigned int";
    case 8: return "unsigned long long";
    default: return "E16";
  }
}

std::string source_prologue() {
  return "#include \"ops/scalar_types.h\"\n#include \"ops/scalar_math.h\"\n#include \"ops/scalar_ops.h\"\n"
         "#include \"ops/casting.h\"\n#include \"copper_kernels/common.cuh\"\n";
}

std::string without_unused_complex_math(std::string source) {
  if (source.find("complex") == std::string::npos) source.insert(0, "#define COPPER_REAL_MATH_ONLY\n");
  return source;
}

FastDiv make_fast_div(unsigned divisor) {
  // q = (umulhi(n, mul) + n) >> shift, exact for every 32-bit n (Granlund-Montgomery, with
  // the 33-bit sum kept in 64 bits on the device).
  FastDiv f{divisor, 0, 0};
  if (divisor == 0) divisor = 1;
  unsigned shift = 0;
  while (shift < 32 && (1ull << shift) < divisor) ++shift;
  f.shift = shift;
  f.mul = static_cast<unsigned>(((1ull << 32) * ((1ull << shift) - divisor)) / divisor + 1);
  return f;
}

void throw_too_many_dims(int ndim) {
  throw NotImplementedError("the CUDA backend handles at most " + std::to_string(kMaxDims) +
                            " non-mergeable dimensions in one kernel; this operation needs " + std::to_string(ndim));
}

}  // namespace copper::backend::cuda
