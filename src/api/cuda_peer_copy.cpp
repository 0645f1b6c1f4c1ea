#include "api/cuda_peer_copy.h"

#include "api/array_factory.h"
#include "copper/creation.hpp"

#ifdef COPPER_HAVE_CUDA
#include "backend/cuda/cuda_peer.h"
#endif

namespace copper::api {

std::optional<ndarray> copy_between_gpus(const ndarray& a, Device device) {
#ifdef COPPER_HAVE_CUDA
  if (a.device().type != DeviceType::cuda || device.type != DeviceType::cuda || a.device() == device)
    return std::nullopt;
  const ndarray contiguous = ascontiguousarray(a);
  ndarray out = allocate(a.shape(), a.dtype(), device);
  backend::cuda::copy_peer(out.data(), device.index, contiguous.data(), a.device().index,
                           static_cast<std::size_t>(contiguous.nbytes()));
  return out;
#else
  (void)a;
  (void)device;
  return std::nullopt;
#endif
}

}  // namespace copper::api
