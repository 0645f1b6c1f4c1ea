// The device-side headers built into the library (cmake/embed_sources.cmake), so
// NVRTC can compile generated kernels on machines without copper's sources.
#pragma once

namespace copper::backend::cuda {

struct EmbeddedFile {
  const char* name;  // the #include name: "ops/scalar_ops.h", "copper_kernels/common.cuh"
  const char* text;
};
extern const EmbeddedFile kEmbeddedFiles[];
extern const int kNumEmbeddedFiles;

}  // namespace copper::backend::cuda
