// One registration function per family; each lives in its own bind_*.cpp.
#pragma once
#include "convert.h"

namespace copper::python {

using ArrayClass = nb::class_<ndarray>;
void bind_errors(nb::module_& m);
void bind_dtypes(nb::module_& m);
void bind_ndarray(nb::module_& m, ArrayClass& cls);
void bind_creation(nb::module_& m);
void bind_ufuncs(nb::module_& m, ArrayClass& cls);
void bind_reductions(nb::module_& m, ArrayClass& cls);
void bind_manipulation(nb::module_& m, ArrayClass& cls);
void bind_indexing(nb::module_& m, ArrayClass& cls);
// A Python index key (as __getitem__ takes it) as a copper::Index; arrays go to `device`.
Index index_key_from_py(nb::handle key, Device device);
void bind_ranges(nb::module_& m);  // arange, linspace, logspace, eye, identity
void bind_format(nb::module_& m, ArrayClass& cls);
void bind_cuda(nb::module_& m);  // copper._core._cuda: streams, events, memory pool
void bind_profiler(nb::module_& m);  // copper._core._profiler: benchmark
void bind_linalg(nb::module_& m, ArrayClass& cls);  // matmul, dot, einsum, diagonal, tril, ...
void bind_random(nb::module_& m);  // copper._core._random: Generator, RandomState
void bind_linalg_decomp(nb::module_& m);  // copper._core._linalg: numpy.linalg
void bind_raw_kernels(nb::module_& m);  // RawKernel, RawModule

void bind_user_kernels(nb::module_& m);  // ElementwiseKernel, ReductionKernel (both devices)
void bind_statistics(nb::module_& m);  // average, cov, corrcoef, median, quantile, ...
void bind_histograms(nb::module_& m);  // bincount, histogram, histogram2d, histogramdd
void bind_order_statistics(nb::module_& m);  // median, quantile, percentile and nan forms
void bind_fft(nb::module_& m);  // copper._core._fft: numpy.fft and the plan caches
void bind_sorting(nb::module_& m, ArrayClass& cls);  // sort, argsort, unique, searchsorted, sets
void bind_indexing_functions(nb::module_& m, ArrayClass& cls);  // take, put, nonzero, ix_, ...
void bind_elementwise(nb::module_& m);  // sinc, i0, fix, nan_to_num, isclose, array_equal, ...
// Sets the Python error for the C++ exception being handled (inside a catch block).
void set_python_error_from_current_exception();
void bind_interop(nb::module_& m, ArrayClass& cls);  // __dlpack__, __cuda_array_interface__, DLPack import
void bind_array_api(nb::module_& m);  // cumulative_sum, vecdot, unstack, diff, meshgrid, ... (array API names)
void bind_utilities(nb::module_& m);  // shares_memory, isfortran, the floating-point error state
// A sequence of array-likes as arrays (a copper array counts as the sequence of its rows;
// a 0-d one is Python's TypeError). Copper arrays stay where they are, others go to `device`.
std::vector<ndarray> arrays_from_py(nb::handle seq, Device device = default_device());
void bind_manipulation_extra(nb::module_& m);  // append, insert, delete, pad, block, tri, packbits, ...
void bind_numerical(nb::module_& m);  // gradient, convolve, interp, windows, polynomials; linalg.eig, multi_dot, ...
void bind_fusion(nb::module_& m);  // copper.fuse: the ufuncs' proxy hook, the op functors' source
void bind_deferred(nb::module_& m);  // automatic fusion's switches: set_fusion, run_deferred
}  // namespace copper::python
