// The CUDA driver API, loaded at run time: copper links no CUDA library, so one
// build runs on machines without a driver (the CPU stays the default there).
// cuda.h supplies only the types; its versioning macros (cuMemcpyHtoDAsync ->
// cuMemcpyHtoDAsync_v2, ...) rename the members below and the symbols looked up
// alike, so every call reaches the current entry point.
#pragma once
#include <cuda.h>

#include <string>

namespace copper::backend::cuda {

#define COPPER_CUDA_DRIVER_FUNCTIONS(X)                                                            \
  X(cuGetErrorString) X(cuGetErrorName) X(cuInit) X(cuDriverGetVersion) X(cuDeviceGet)            \
  X(cuDeviceGetCount) X(cuDeviceGetName) X(cuDeviceGetAttribute) X(cuDeviceGetDefaultMemPool)    \
  X(cuDevicePrimaryCtxRetain) X(cuCtxSetCurrent) X(cuCtxGetCurrent) X(cuCtxSynchronize)          \
  X(cuModuleLoadData) X(cuModuleGetFunction) X(cuMemGetInfo) X(cuMemHostAlloc) X(cuMemFreeHost)   \
  X(cuMemcpyAsync) X(cuMemcpyHtoDAsync) X(cuMemcpyDtoHAsync) X(cuMemsetD8Async)                  \
  X(cuMemsetD16Async) X(cuMemsetD32Async) X(cuMemAllocAsync) X(cuMemFreeAsync) X(cuMemPoolTrimTo) \
  X(cuMemPoolSetAttribute) X(cuMemPoolGetAttribute) X(cuStreamCreate) X(cuStreamDestroy)         \
  X(cuStreamSynchronize) X(cuStreamQuery) X(cuStreamWaitEvent) X(cuEventCreate) X(cuEventRecord)  \
  X(cuEventQuery) X(cuEventSynchronize) X(cuEventDestroy) X(cuEventElapsedTime) X(cuLaunchKernel) \
  X(cuFuncSetAttribute) X(cuOccupancyMaxActiveBlocksPerMultiprocessor)                            \
  /* user kernels (RawKernel / RawModule) */                                                    \
  X(cuFuncGetAttribute) X(cuModuleGetGlobal) X(cuLaunchCooperativeKernel)                         \
  /* graphs, stream capture, peer copies, device properties */                                   \
  X(cuStreamBeginCapture) X(cuStreamEndCapture) X(cuStreamIsCapturing)                            \
  X(cuThreadExchangeStreamCaptureMode) X(cuGraphInstantiate) X(cuGraphLaunch) X(cuGraphGetNodes)  \
  X(cuGraphExecDestroy) X(cuGraphDestroy) X(cuGraphUpload)                                        \
  X(cuDeviceCanAccessPeer) X(cuCtxEnablePeerAccess) X(cuMemcpyPeerAsync) X(cuDeviceTotalMem)      \
  /* interop: which GPU a foreign pointer lives on */                                           \
  X(cuPointerGetAttribute)

struct Driver {
#define COPPER_DRIVER_MEMBER(name) decltype(&::name) name = nullptr;
  COPPER_CUDA_DRIVER_FUNCTIONS(COPPER_DRIVER_MEMBER)
#undef COPPER_DRIVER_MEMBER
};

// The loaded driver with cuInit done and at least one device, or nullptr (no
// libcuda, no device, or initialization failed: why_unavailable() says which).
const Driver* try_driver();
const std::string& why_unavailable();
// The driver; RuntimeError if there is none.
const Driver& driver();

// Throws for a failed driver call: OutOfMemoryError for CUDA_ERROR_OUT_OF_MEMORY,
// RuntimeError otherwise, naming `what` and the driver's error name and text.
void check(CUresult result, const char* what);
std::string error_text(CUresult result);

}  // namespace copper::backend::cuda
