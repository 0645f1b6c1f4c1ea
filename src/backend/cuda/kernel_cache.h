// Run-time compiled kernels. get_kernel() looks up a compact key in memory first
// (the per-op hot path: no source is built); on a miss it builds the source,
// compiles it with NVRTC to a cubin for the device's architecture, and keeps the
// cubin on disk keyed by a hash of source, headers, options, NVRTC version and
// architecture. Disk entries carry a checksum; a corrupt or truncated one is
// recompiled and rewritten (atomically: temporary file, then rename).
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "backend/cuda/cuda_driver.h"

namespace copper::backend::cuda {

// What identifies a generated kernel: the generating family and whatever the
// family's source depends on, packed into 32 bytes by the caller.
struct KernelKey {
  std::array<std::uint64_t, 4> words{};
  bool operator==(const KernelKey&) const = default;
};

// The kernel `entry` of the source `make_source()` returns, loaded on `device`.
// The source may #include "copper_kernels/<name>.cuh" and "ops/<name>.h" (shipped
// inside the library). Throws CompileError carrying NVRTC's log.
CUfunction get_kernel(int device, const KernelKey& key, const std::function<std::string()>& make_source,
                      const char* entry);

// Compiles `source` to a cubin for sm_<arch> (no GPU needed); CompileError with the
// NVRTC log on failure, RuntimeError if NVRTC cannot be loaded.
std::vector<char> compile_cubin(const std::string& source, int arch);

// Where disk entries go: $COPPER_CACHE_DIR, else $XDG_CACHE_HOME/copper/kernels,
// else ~/.cache/copper/kernels.
std::string cache_directory();

// A user module's compiled payload (RawModule: image plus lowered names), looked up on
// disk under a hash of `key_text` (source, options, name expressions), NVRTC's version
// and sm_<arch>, in the same entry format as generated kernels; on a miss, or with
// `rebuild` (an entry the driver rejected), `build()` makes it and it is written back.
std::vector<char> disk_cached_payload(int arch, const std::string& key_text,
                                      const std::function<std::vector<char>()>& build, bool rebuild = false);

struct KernelCacheStats {
  std::uint64_t memory_hits = 0, disk_hits = 0, compiles = 0, corrupt_entries = 0;
};
KernelCacheStats kernel_cache_stats();

}  // namespace copper::backend::cuda
