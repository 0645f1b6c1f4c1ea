// Every generated-kernel family's id, in one place: the first byte of a KernelKey.
// Two families sharing an id would share memory-cache entries and run each other's
// kernels with the wrong parameter block, so ids are assigned here and nowhere else.
#pragma once

namespace copper::backend::cuda {

enum KernelFamily : unsigned {
  kFamilyUfunc = 1,  // EwFamily::ufunc .. where (elementwise_launch.h) use 1-4
  kFamilyCast = 2,
  kFamilyFill = 3,
  kFamilyWhere = 4,
  kFamilyIota = 6,
  kFamilyTranspose = 7,  // cuda_transpose.cpp (tiled transposing copy)
  kFamilyReduceMain = 16,
  kFamilyReduceFinalize = 17,
  kFamilyScanLines = 18,  // 18 + ScanKernel: 18-21
  kFamilyRandom = 40,
  kFamilyRandomParams = 41,  // cuda_random_params.cpp
  kFamilyTakeRows = 42,      // cuda_random_gather.cpp
  kFamilyIntegerMatmul = 48,
  kFamilyUserElementwise = 56,  // cuda_user_kernel.cpp (ElementwiseKernel)
  kFamilyUserReduction = 57,    // cuda_user_kernel_reduce.cpp (ReductionKernel)
  kFamilyGather = 60,             // cuda_indexing_gather.cpp
  kFamilyScatterCheck = 61,       // cuda_indexing_scatter.cpp: bounds check, last-writer table
  kFamilyScatter = 62,            // cuda_indexing_scatter.cpp: the writes
  kFamilyScatterApply = 63,       // cuda_indexing_apply.cpp (ufunc.at)
  kFamilySelectCount = 64,        // cuda_indexing_compact.cpp: 64-66
  kFamilySelectValues = 65,
  kFamilySelectCoordinates = 66,
  kFamilyAtKeys = 67,             // cuda_indexing_apply.cpp: ufunc.at's ordered path (targets,
  kFamilyAtOrdered = 68,          //   then runs of equal targets in position order)
  kFamilyScatterFlush = 69,       // cuda_indexing_scatter.cpp: packed last writers into the array
  kFamilyFusedChain = 70,         // cuda_fused_chain.cpp (automatic fusion's deferred elementwise chains)
  kFamilyHistogram = 80,          // cuda_histogram.cpp (bincount, histogram, histogramdd)
  kFamilyUfuncFold = 110,       // cuda_fold.cpp (ufunc.reduce/accumulate/reduceat of any binary op)
  kFamilyUfuncChecked = 150,    // elementwise_launch.cpp: ufuncs that record errstate's flags (cuda_fp_errors.h)
};

}  // namespace copper::backend::cuda
