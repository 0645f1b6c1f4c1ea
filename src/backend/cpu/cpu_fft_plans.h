// FFTW plans for the CPU backend's FFTs: made with FFTW_ESTIMATE (planning never touches
// the arrays) under FFTW's planner lock and kept in the CPU plan cache, keyed by
// everything the plan depends on; and strided line transforms done through contiguous
// buffers, where FFTW's estimated plans are slow.
#pragma once
#include <memory>
#include <vector>

#include "backend/cpu/cpu_fftw.h"
#include "backend/fft_job.h"
#include "backend/fft_layout.h"
#include "copper/fft.hpp"

namespace copper::backend::cpu {

// The plan of a guru64 transform over `dims` with batch `howmany` (strides in elements of
// the input's and output's own types), from the cache or made now. `in`/`out` only give
// the alignment and whether the transform is in place.
std::shared_ptr<const fft::Plan> fftw_plan(FftKind kind, bool forward, bool single, int nthreads,
                                           const std::vector<FftwIodim64>& dims,
                                           const std::vector<FftwIodim64>& howmany, void* in, void* out);
void fftw_execute(const Fftw& api, FftKind kind, const fft::Plan& plan, void* in, void* out);

// Complex-to-complex transforms along `axis` of every line that the dimensions `others`
// (transform or batch, in any order) span, from src to dst (which may be the same
// memory). Blocks of neighbouring lines are gathered into a contiguous buffer, transformed
// there by one cached plan and scattered back, block by block on copper's threads: FFTW's
// estimated plans walk a strided axis many times slower than a contiguous one.
void c2c_lines(const FftDim& axis, std::vector<FftDim> others, const void* src, void* dst, bool forward, bool single,
               int nthreads);

}  // namespace copper::backend::cpu
