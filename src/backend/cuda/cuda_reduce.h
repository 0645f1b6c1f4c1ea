// Host side of the CUDA reductions and scans: kernel shapes, the launch parameter
// blocks (mirrors of kernels/reduce.cuh and kernels/scan.cuh) and the generated
// sources, exposed so a test can compile every variant without a GPU.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "backend/cuda/cuda_codegen.h"
#include "ops/catalogue.h"

namespace copper::backend::cuda {

// How the threads of a reduction kernel share the work (kernels/reduce.cuh).
enum class ReduceShape : std::uint8_t {
  rows = 0,   // G lanes per output: inner-axis reductions of short or medium rows
  block = 1,  // a block per output (or per piece of one): long rows, full reductions
  cols = 2,   // a tile of outputs along a contiguous kept axis: outer-axis reductions
  cols_vec = 3,   // cols with V = 16 / itemsize adjacent outputs per thread, 16-byte loads
  rows_tile = 4,  // short packed contiguous rows staged through shared memory
  cols_deep = 5,  // cols_vec over many rows: eight rows in flight, rows split in one wave
  rows_serial = 6,  // fed reductions only: one thread per output, its row in index order
};
// How a kernel addresses the reduced elements of one output.
enum class ReduceMode : std::uint8_t {
  contiguous = 0,  // one reduced dimension of unit stride: 16-byte vector loads
  strided = 1,     // one reduced dimension, any stride
  general = 2,     // several reduced dimensions: copper::kern::offsets per element
};
inline constexpr int kReduceBlock = 256;
// Bytes per split-reduction State in the partial buffer (the largest State: a
// compensated complex128 sum).
inline constexpr int kReduceStateBytes = 32;

// Mirror of copper::kern::ReduceParams.
struct ReduceParams {
  const void* in;
  void* out;
  void* partial;
  long long nout;
  long long nred;
  long long splits;
  long long split_len;
  long long red_stride;
  long long part_out_stride;
  long long part_split_stride;
  int group;
  int kept32;
  int red32;
  int tile_rows;
  StridedLayoutParam<2> kept;
  StridedLayoutParam<1> red;
};
// Shared-memory bytes of one rows_tile span (copper::kern::kRowsTileBytes).
inline constexpr int kRowsTileBytes = 16384;

// Mirror of copper::kern::ScanParams.
struct ScanParams {
  const void* in;
  void* out;
  void* totals;
  long long nlines;
  long long n;
  long long in_stride;
  long long out_stride;
  long long tiles;
  int kept32;
  int pad;
  StridedLayoutParam<2> kept;
};
inline constexpr int kScanBlock = 256;
inline constexpr int kScanTile = 2048;  // copper::kern::kScanTile

// Entry points of a reduction program, and of a scan program.
inline constexpr const char* kReduceMainEntry = "copper_reduce_main";
inline constexpr const char* kReduceFinalizeEntry = "copper_reduce_finalize";
inline constexpr const char* kScanLinesEntry = "copper_scan_lines";
inline constexpr const char* kScanTileTotalsEntry = "copper_scan_tile_totals";
inline constexpr const char* kScanTotalsEntry = "copper_scan_totals";
inline constexpr const char* kScanTilesEntry = "copper_scan_tiles";

// What every reduction program starts with: the prologue, reduce.cuh, and checks that
// the device's parameter block matches ReduceParams.
std::string reduce_source_head();
// The kernel (kReduceMainEntry + suffix) of one reduction variant; the suffix lets a
// test put many variants in one program. `in` and `out` as CudaBackend::reduce gets them.
std::string reduce_kernel_definitions(ops::ReduceOp op, DType in, DType out, ReduceShape shape, ReduceMode mode,
                                      const std::string& suffix);
// The blocks of 256 threads per SM a reduction kernel is compiled to fit (its
// __launch_bounds__ minimum; 0: the compiler's choice of registers).
int reduce_min_blocks(ReduceShape shape, DType in);
// The typedefs In, Out and R (the reducer) of one reduction, in namespace `ns`.
std::string reducer_typedefs(const std::string& ns, ops::ReduceOp op, DType in, DType out);
// The statement, inside a kernel whose ReduceParams parameter is `p`, that runs the kernel
// template of (shape, mode) with ns's typedefs, reading the input through `source` (an
// expression of a type like copper::kern::MemorySource; empty: memory).
std::string reduce_template_call(ReduceShape shape, ReduceMode mode, const std::string& ns, const std::string& source);
// The second pass of split reductions (kReduceFinalizeEntry + suffix): its own
// program, shared by every shape and mode, compiled only when a reduction splits.
std::string reduce_finalize_definitions(ops::ReduceOp op, DType in, DType out, const std::string& suffix);
inline std::string reduce_kernel_source(ops::ReduceOp op, DType in, DType out, ReduceShape shape, ReduceMode mode) {
  return without_unused_complex_math(reduce_source_head() + reduce_kernel_definitions(op, in, out, shape, mode, ""));
}
inline std::string reduce_finalize_source(ops::ReduceOp op, DType in, DType out) {
  return without_unused_complex_math(reduce_source_head() + reduce_finalize_definitions(op, in, out, ""));
}

// A reduction whose input a fused chain computes (cuda_fused_chain.cpp): `kernel` gives
// the main kernel of a (shape, mode), compiled with the chain as its input source, or null
// when it is not ready; `args` are its parameters after the ReduceParams.
struct ReduceFeed {
  std::function<CUfunction(ReduceShape, ReduceMode)> kernel;
  std::vector<void*> args;
  // The feed makes rows_serial kernels: launch_reduce picks that shape where the rows
  // shape would give each row one lane (the same fold order).
  bool serial_rows = false;
};

// CudaBackend::reduce on `device` (in.data, out.data and the current stream there), its
// input read through `feed` when given (in.data: where the input would be, never read);
// false, having launched nothing, when the feed has no kernel for the shape chosen.
bool launch_reduce(int device, ops::ReduceOp op, const ArrayView& in, int nreduce, const ArrayView& out,
                   const ReduceFeed* feed);

// The scan kernels (kernels/scan.cuh): one thread per line, or the three passes.
enum class ScanKernel : std::uint8_t { lines = 0, tile_totals = 1, totals = 2, tiles = 3 };
const char* scan_entry(ScanKernel kernel);
std::string scan_source_head();
// One scan kernel (scan_entry(kernel) + suffix) for one (op, input dtype, output dtype).
std::string scan_kernel_definitions(ops::ScanOp op, DType in, DType out, ScanKernel kernel, const std::string& suffix);
inline std::string scan_kernel_source(ops::ScanOp op, DType in, DType out, ScanKernel kernel) {
  return scan_source_head() + scan_kernel_definitions(op, in, out, kernel, "");
}

}  // namespace copper::backend::cuda
