// Maps devices to backends. The CUDA backend registers itself only when built
// (COPPER_ENABLE_CUDA) and usable at run time; the CPU backend always exists.
#include "backend/registry.h"

#include "copper/errors.hpp"

namespace copper::backend {

#ifdef COPPER_HAVE_CUDA
bool cuda_backend_usable();
Backend& cuda_backend(int index);
bool cuda_available() { return cuda_backend_usable(); }
#else
bool cuda_available() { return false; }
#endif

Backend& backend_for(Device device) {
  if (device.type == DeviceType::cpu) return cpu_backend();
#ifdef COPPER_HAVE_CUDA
  if (cuda_backend_usable()) return cuda_backend(device.index);
  throw RuntimeError("device " + device.str() + " requested, but no CUDA driver or GPU was found");
#else
  throw RuntimeError("device " + device.str() + " requested, but copper was built without the CUDA backend");
#endif
}

void Backend::run_chain(Chain&) { throw RuntimeError("this backend runs no deferred chains"); }

ArrayView view_of(const ndarray& a) { return ArrayView{a.data(), a.dtype(), a.shape(), a.strides()}; }

}  // namespace copper::backend
