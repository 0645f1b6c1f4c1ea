#include "backend/cuda/cuda_peer.h"

#include <mutex>
#include <string>

#include "backend/cuda/cuda_context.h"
#include "backend/cuda/per_device.h"
#include "backend/cuda/cuda_graph.h"
#include "copper/errors.hpp"

namespace copper::backend::cuda {
namespace {

// Per ordered pair: 0 unknown, 1 no direct access, 2 direct access enabled.
std::mutex peer_mutex;
int peer_state[kMaxDevices][kMaxDevices] = {};

int attribute(CUdevice dev, CUdevice_attribute what) {
  int value = 0;
  check(driver().cuDeviceGetAttribute(&value, what, dev), "cuDeviceGetAttribute");
  return value;
}

// Enables `device`'s context to reach `peer`'s memory, once; false where it cannot.
bool enable_peer_access(int device, int peer) {
  std::lock_guard lock(peer_mutex);
  int& state = peer_state[device][peer];
  if (state) return state == 2;
  const Driver& d = driver();
  int can = 0;
  check(d.cuDeviceCanAccessPeer(&can, device_info(device).device, device_info(peer).device), "cuDeviceCanAccessPeer");
  state = 1;
  if (can) {
    make_current(device);
    CUresult r = d.cuCtxEnablePeerAccess(device_info(peer).context, 0);
    if (r == CUDA_SUCCESS || r == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED) state = 2;
  }
  return state == 2;
}

// `waiter`'s current stream waits for the work enqueued so far on `from`'s current
// stream. A fresh event each time: a shared one could be re-recorded by another thread
// between the record and the wait.
void order_after(int waiter, int from) {
  const Driver& d = driver();
  make_current(from);
  CUevent e = nullptr;
  check(d.cuEventCreate(&e, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  CUresult r = d.cuEventRecord(e, current_stream_handle(from));
  if (r == CUDA_SUCCESS) {
    make_current(waiter);
    r = d.cuStreamWaitEvent(current_stream_handle(waiter), e, 0);
  }
  d.cuEventDestroy(e);  // the wait keeps what it needs
  check(r, "ordering streams of two GPUs");
}

}  // namespace

bool can_access_peer(int device, int peer) {
  device_info(device);
  device_info(peer);
  if (device == peer) return true;
  int can = 0;
  check(driver().cuDeviceCanAccessPeer(&can, device_info(device).device, device_info(peer).device),
        "cuDeviceCanAccessPeer");
  return can != 0;
}

void copy_peer(void* dst, int dst_device, const void* src, int src_device, std::size_t nbytes) {
  if (nbytes == 0) return;
  const Driver& d = driver();
  if (src_device != dst_device) {
    refuse_during_capture(src_device, "copying between GPUs");
    refuse_during_capture(dst_device, "copying between GPUs");
    enable_peer_access(dst_device, src_device);
    enable_peer_access(src_device, dst_device);
    order_after(dst_device, src_device);  // the source's values are written
  }
  make_current(dst_device);
  current_stream_state(dst_device).last_op.store("a copy between GPUs", std::memory_order_relaxed);
  check(d.cuMemcpyPeerAsync(reinterpret_cast<CUdeviceptr>(dst), device_info(dst_device).context,
                            reinterpret_cast<CUdeviceptr>(src), device_info(src_device).context, nbytes,
                            current_stream_handle(dst_device)),
        "cuMemcpyPeerAsync");
  if (src_device != dst_device) order_after(src_device, dst_device);  // the source outlives the copy
}

copper::cuda::DeviceProperties device_properties(int device) {
  const DeviceInfo& info = device_info(device);
  const CUdevice dev = info.device;
  copper::cuda::DeviceProperties p;
  p.name = info.name;
  check(driver().cuDeviceTotalMem(&p.total_global_mem, dev), "cuDeviceTotalMem");
  p.shared_mem_per_block = static_cast<std::size_t>(attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK));
  p.shared_mem_per_multiprocessor =
      static_cast<std::size_t>(attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR));
  p.total_const_mem = static_cast<std::size_t>(attribute(dev, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY));
  p.regs_per_block = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
  p.warp_size = attribute(dev, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
  p.max_threads_per_block = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  for (int i = 0; i < 3; ++i) {
    p.max_threads_dim[i] = attribute(dev, static_cast<CUdevice_attribute>(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + i));
    p.max_grid_size[i] = attribute(dev, static_cast<CUdevice_attribute>(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + i));
  }
  p.clock_rate = attribute(dev, CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
  p.memory_clock_rate = attribute(dev, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
  p.memory_bus_width = attribute(dev, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
  p.major = attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  p.minor = attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  p.multi_processor_count = info.sm_count;
  p.l2_cache_size = attribute(dev, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  p.max_threads_per_multiprocessor = info.max_threads_per_sm;
  p.pci_bus_id = attribute(dev, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID);
  p.pci_device_id = attribute(dev, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID);
  p.pci_domain_id = attribute(dev, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID);
  p.concurrent_kernels = attribute(dev, CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS);
  p.ecc_enabled = attribute(dev, CU_DEVICE_ATTRIBUTE_ECC_ENABLED);
  p.integrated = attribute(dev, CU_DEVICE_ATTRIBUTE_INTEGRATED);
  return p;
}

}  // namespace copper::backend::cuda
