// Out-of-bounds indices on the GPU. Bounds-checking kernels never touch memory out of
// bounds; the first bad index they meet goes into a small per-device record in device
// memory (kernels/indexing.cuh: record_index_error). A stream that enqueued such a
// kernel is marked; when copper next synchronizes that stream (a host read, an explicit
// synchronize), it reads the record and raises NumPy's IndexError there. Scatters read
// the record's flag after their check kernel and write nothing when it is set, so an
// out-of-bounds assignment leaves the array untouched with no host round trip.
#pragma once
#include "backend/cuda/cuda_context.h"

namespace copper::backend::cuda {

// Mirrors copper::kern::IndexErrorRecord.
struct IndexErrorRecord {
  unsigned int flag;
  int axis;
  long long index, size;
};

// The record of `device` (zeroed device memory, made on first use; not during a CUDA
// graph capture).
IndexErrorRecord* index_error_record(int device);
// Marks the current stream of `device` as having bounds-checking work since its last check.
void note_index_check(int device);
// For a stream just synchronized: if it has bounds-checking work, reads the record and,
// when a kernel found an index out of bounds, clears it and raises IndexError.
void raise_index_error_if_any(copper::cuda::StreamState& stream);

}  // namespace copper::backend::cuda
