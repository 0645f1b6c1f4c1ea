// A fixed pool of worker threads for the CPU backend's loops.
#pragma once
#include <cstdint>
#include <functional>

namespace copper::backend::cpu {

// Runs fn(task) for task in [0, ntasks) across the pool; the caller's thread takes part.
// Returns when all tasks are done; the first exception thrown by a task is rethrown.
void parallel_tasks(int ntasks, const std::function<void(int)>& fn);

// Splits [0, n) into contiguous ranges of at least `grain` items, one per thread at most,
// and runs fn(begin, end) on each. Runs inline when n is small: no thread wake-up cost.
void parallel_for(std::int64_t n, std::int64_t grain, const std::function<void(std::int64_t, std::int64_t)>& fn);

int num_threads();
void set_num_threads(int n);

}  // namespace copper::backend::cpu
