// Driver entry points for graphs, stream capture, peer copies and device properties,
// loaded from the same libcuda as cuda_driver.h's table (dlsym on the loaded library),
// so the core table stays as it is and a driver without them only loses these features.
#pragma once
#include <cuda.h>

namespace copper::backend::cuda {

#define COPPER_CUDA_GRAPH_FUNCTIONS(X)                                                              \
  X(cuStreamBeginCapture) X(cuStreamEndCapture) X(cuStreamIsCapturing)                            \
  X(cuThreadExchangeStreamCaptureMode) X(cuGraphInstantiate) X(cuGraphLaunch) X(cuGraphGetNodes)  \
  X(cuGraphExecDestroy) X(cuGraphDestroy) X(cuGraphUpload)                                        \
  X(cuDeviceCanAccessPeer) X(cuCtxEnablePeerAccess) X(cuMemcpyPeerAsync) X(cuDeviceTotalMem)

struct GraphDriver {
#define COPPER_GRAPH_DRIVER_MEMBER(name) decltype(&::name) name = nullptr;
  COPPER_CUDA_GRAPH_FUNCTIONS(COPPER_GRAPH_DRIVER_MEMBER)
#undef COPPER_GRAPH_DRIVER_MEMBER
};

// The table (loads libcuda through driver() first); RuntimeError when the driver is
// missing or lacks one of the entry points.
const GraphDriver& graph_driver();

}  // namespace copper::backend::cuda
