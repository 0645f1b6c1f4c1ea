#include "backend/chain_compile_audit.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <string>
#include <unordered_set>

#include <unistd.h>

#ifdef COPPER_HAVE_CUDA
#include "backend/cuda/cuda_fused_chain.h"
#include "backend/cuda/kernel_cache.h"
#endif

namespace copper::backend {

#ifdef COPPER_HAVE_CUDA
namespace {

double audit_threshold() {
  const char* v = std::getenv("COPPER_CHAIN_COMPILE_AUDIT");
  return v && *v ? std::atof(v) : 0.0;
}

std::string audit_dir() {
  const char* v = std::getenv("COPPER_CHAIN_COMPILE_AUDIT_DIR");
  return v && *v ? v : "/tmp";
}

// Compiles `source` unless seen before; logs it when slower than `limit` seconds.
void audit_source(const std::string& source, const char* what, double limit) {
  static std::mutex mutex;
  static std::unordered_set<std::string> seen;
  static int counter = 0;
  if (source.empty()) return;
  std::string path;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!seen.insert(source).second) return;
    path = audit_dir() + "/chain_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ".cu";
  }
  std::ofstream(path) << source;
  const auto start = std::chrono::steady_clock::now();
  std::string failure;
  try {
    cuda::compile_cubin(source, 90);
  } catch (const std::exception& e) {
    failure = e.what();
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (seconds <= limit && failure.empty()) {
    std::remove(path.c_str());
    return;
  }
  std::lock_guard<std::mutex> lock(mutex);
  std::ofstream(audit_dir() + "/chain_compile_audit.log", std::ios::app)
      << what << " " << seconds << " s " << path << (failure.empty() ? "" : " FAILED: " + failure.substr(0, 200))
      << "\n";
}

}  // namespace

void audit_chain_compile(const Chain& chain) {
  static const double limit = audit_threshold();
  if (limit <= 0) return;
  if (!chain.reduction) {
    audit_source(cuda::fused_chain_source(chain), "elementwise", limit);
    return;
  }
  const ChainReduction& r = *chain.reduction;
  std::int64_t row = 1;
  for (std::size_t d = r.in.shape.size() - static_cast<std::size_t>(r.nreduce); d < r.in.shape.size(); ++d)
    row *= r.in.shape[d];
  using cuda::ReduceShape;
  for (ReduceShape shape : {ReduceShape::rows, ReduceShape::block})
    audit_source(cuda::fused_reduction_source(chain, shape, cuda::ReduceMode::contiguous), "fed-reduction", limit);
  if (row <= 32)  // launch_reduce gives rows_serial only short rows
    audit_source(cuda::fused_reduction_source(chain, ReduceShape::rows_serial, cuda::ReduceMode::contiguous),
                 "fed-serial", limit);
}
#else
void audit_chain_compile(const Chain&) {}
#endif

}  // namespace copper::backend
