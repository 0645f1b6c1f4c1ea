// FFTW 3 (Debian's libfftw3-double3 / libfftw3-single3), loaded at run time as BLAS is:
// copper builds without FFTW's headers and runs without the library until an FFT of a
// CPU array is asked for. The guru64 interface takes any strides and batch layout.
#pragma once
#include <cstddef>
#include <mutex>
#include <string>

namespace copper::backend::cpu {

struct FftwIodim64 {  // fftw_iodim64
  std::ptrdiff_t n, is, os;
};
using FftwPlan = void*;

// One precision's entry points (fftw_* or fftwf_*); complex and real pointers are void*.
struct Fftw {
  FftwPlan (*plan_dft)(int rank, const FftwIodim64* dims, int howmany_rank, const FftwIodim64* howmany, void* in,
                       void* out, int sign, unsigned flags) = nullptr;
  FftwPlan (*plan_r2c)(int rank, const FftwIodim64* dims, int howmany_rank, const FftwIodim64* howmany, void* in,
                       void* out, unsigned flags) = nullptr;
  FftwPlan (*plan_c2r)(int rank, const FftwIodim64* dims, int howmany_rank, const FftwIodim64* howmany, void* in,
                       void* out, unsigned flags) = nullptr;
  void (*execute_dft)(FftwPlan, void* in, void* out) = nullptr;
  void (*execute_r2c)(FftwPlan, void* in, void* out) = nullptr;
  void (*execute_c2r)(FftwPlan, void* in, void* out) = nullptr;
  void (*destroy_plan)(FftwPlan) = nullptr;
  int (*alignment_of)(void*) = nullptr;
  void (*plan_with_nthreads)(int) = nullptr;  // nullptr without the threads library
  std::string path;                           // the library the entry points come from
};

inline constexpr unsigned kFftwDestroyInput = 1u << 0;
inline constexpr unsigned kFftwEstimate = 1u << 6;
inline constexpr int kFftwForward = -1, kFftwBackward = 1;

// The loaded library of one precision; RuntimeError naming the Debian package to install
// when it cannot be loaded. Search: $COPPER_FFTW_PATH (a folder holding libfftw3.so.3,
// libfftw3f.so.3 and their _threads companions; "none" turns FFTW off), then the sonames
// on the library path. Planned plans run their threads on copper's pool.
const Fftw& fftw(bool single_precision);

// FFTW's planner is not thread-safe: planning and destroying plans hold this lock.
std::mutex& fftw_planner_mutex();

}  // namespace copper::backend::cpu
