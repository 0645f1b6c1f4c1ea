// NVRTC, loaded at run time like the driver (no link-time CUDA dependency).
#pragma once
#include <nvrtc.h>

namespace copper::backend::cuda {

#define COPPER_NVRTC_FUNCTIONS(X)                                                              \
  X(nvrtcVersion) X(nvrtcCreateProgram) X(nvrtcDestroyProgram) X(nvrtcCompileProgram)          \
  X(nvrtcGetCUBINSize) X(nvrtcGetCUBIN) X(nvrtcGetProgramLogSize) X(nvrtcGetProgramLog)       \
  X(nvrtcGetErrorString) X(nvrtcAddNameExpression) X(nvrtcGetLoweredName) X(nvrtcGetPTXSize)          \
  X(nvrtcGetPTX)

struct Nvrtc {
#define COPPER_NVRTC_MEMBER(name) decltype(&::name) name = nullptr;
  COPPER_NVRTC_FUNCTIONS(COPPER_NVRTC_MEMBER)
#undef COPPER_NVRTC_MEMBER
  int major = 0, minor = 0;
};

// The loaded library: $COPPER_NVRTC_PATH, else libnvrtc.so.13 / libnvrtc.so on the
// loader's path, else the toolkit copper was built against. RuntimeError if none loads.
const Nvrtc& nvrtc();

}  // namespace copper::backend::cuda
