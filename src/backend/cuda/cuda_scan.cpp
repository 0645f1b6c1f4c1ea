// CudaBackend::scan: inclusive cumsum / cumprod along one axis (kernels/scan.cuh).
// Long lines run the three-pass reduce-then-scan (tile totals, their exclusive scan,
// tiles rescanned from their prefix); short lines, float16 results (NumPy rounds to
// float16 at every step, which no parallel order reproduces) and many lines along an
// outer axis (coalesced across threads) take one thread per line. Floats along long
// lines therefore sum in a different order than NumPy's sequential loop and may
// differ in the last bits; lines under kLongLine elements match NumPy exactly.
#include <cstdlib>

#include "backend/cuda/kernel_families.h"
#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_memory.h"
#include "backend/cuda/cuda_reduce.h"
#include "backend/cuda/cuda_reduce_layout.h"
#include "copper/errors.hpp"

namespace copper::backend::cuda {

namespace {

using std::int64_t;
using namespace reduce_layout;

// Lines at least this long are scanned in parallel.
constexpr int64_t kLongLine = 4096;
// With at least this many lines along an outer axis, a thread per line is coalesced
// and fills the GPU by itself.
constexpr int64_t kManyLines = 16384;

// Kernel cache families 18..21: one per ScanKernel.

KernelKey scan_key(unsigned family, ops::ScanOp op, DType in, DType out) {
  KeyBuilder b;
  b.add(family).add(static_cast<unsigned>(op)).add(static_cast<unsigned>(in)).add(static_cast<unsigned>(out));
  return b.key();
}

}  // namespace

std::string scan_source_head() {
  std::string s = source_prologue();
  s += "#include \"copper_kernels/scan.cuh\"\n";
  s += "static_assert(sizeof(copper::kern::ScanParams) == " + std::to_string(sizeof(ScanParams)) +
       ", \"ScanParams differs between host and device\");\n";
  s += "static_assert(copper::kern::kScanTile == " + std::to_string(kScanTile) + ", \"tile size\");\n";
  return s;
}

std::string scan_kernel_definitions(ops::ScanOp op, DType in, DType out, ScanKernel kernel, const std::string& suffix) {
  const std::string ns = "copper_scan" + suffix;
  std::string s = "namespace " + ns + " {\n";
  s += "typedef " + std::string(device_type_name(in)) + " In;\n";
  s += "typedef " + std::string(device_type_name(out)) + " Out;\n";
  s += std::string("typedef copper::kern::ScanOp<In, Out, ") + (op == ops::ScanOp::cumprod ? "true" : "false") +
       "> S;\n}\n";
  const char* entry = nullptr;
  std::string call;
  switch (kernel) {
    case ScanKernel::lines: entry = kScanLinesEntry, call = "scan_lines<" + ns + "::S, " + ns + "::In>"; break;
    case ScanKernel::tile_totals:
      entry = kScanTileTotalsEntry, call = "scan_tile_totals<" + ns + "::S, " + ns + "::In>";
      break;
    case ScanKernel::totals: entry = kScanTotalsEntry, call = "scan_totals<" + ns + "::S>"; break;
    case ScanKernel::tiles: entry = kScanTilesEntry, call = "scan_tiles<" + ns + "::S, " + ns + "::In>"; break;
  }
  s += "extern \"C\" __global__ void __launch_bounds__(256) " + std::string(entry) + suffix +
       "(const copper::kern::ScanParams p) {\n  copper::kern::" + call + "(p);\n}\n";
  return s;
}

const char* scan_entry(ScanKernel kernel) {
  switch (kernel) {
    case ScanKernel::lines: return kScanLinesEntry;
    case ScanKernel::tile_totals: return kScanTileTotalsEntry;
    case ScanKernel::totals: return kScanTotalsEntry;
    case ScanKernel::tiles: return kScanTilesEntry;
  }
  throw RuntimeError("scan_entry: unknown kernel");
}

void CudaBackend::scan(ops::ScanOp op, const ArrayView& in, int axis, const ArrayView& out) {
  const int nd = static_cast<int>(in.shape.size());
  if (axis < 0 || axis >= nd || in.shape != out.shape)
    throw RuntimeError("CudaBackend::scan: bad axis or mismatched shapes");
  const int64_t n = in.shape[axis];
  const int64_t nlines = shape_size(in.shape) / std::max<int64_t>(n, 1);
  if (n == 0 || nlines == 0) return;

  // The lines: every other dimension, in any order (in place stays in place: input
  // and output offsets move together).
  std::array<char*, 2> base = {static_cast<char*>(in.data), static_cast<char*>(out.data)};
  std::vector<Dim> lines;
  for (int d = 0; d < nd; ++d)
    if (d != axis && in.shape[d] != 1) lines.push_back({in.shape[d], {in.strides[d], out.strides[d]}});
  flip_and_sort(lines, 2, base);
  lines = merge_dims(lines, 2);
  if (lines.empty()) lines.push_back({1, {0, 0}});

  ScanParams p{};
  p.in = base[0];
  p.out = base[1];
  p.nlines = nlines;
  p.n = n;
  p.in_stride = in.strides[axis];
  p.out_stride = out.strides[axis];
  p.tiles = ceil_div(n, kScanTile);
  p.kept32 = nlines <= 0xffffffffLL;
  p.kept = layout_param<2>(lines);

  const bool coalesced_lines = nlines >= kManyLines && std::abs(lines.back().s[0]) < std::abs(p.in_stride);
  const bool parallel = out.dtype != DType::float16 && n >= kLongLine && !coalesced_lines;
  const char* opname = op == ops::ScanOp::cumsum ? "cumsum" : "cumprod";
  // One kernel per program: the disk cache keys an entry point and its source together.
  auto kernel = [&](ScanKernel k) {
    return get_kernel(
        index_, scan_key(kFamilyScanLines + static_cast<unsigned>(k), op, in.dtype, out.dtype),
        [&] { return scan_kernel_source(op, in.dtype, out.dtype, k); }, scan_entry(k));
  };
  void* args[] = {&p};
  if (!parallel) {
    launch(index_, kernel(ScanKernel::lines), grid_for(index_, nlines, kScanBlock), kScanBlock, args,
           opname);
    return;
  }
  // Accumulators are Out itself here (float16, the one type computed wider, never
  // comes this way).
  auto totals = allocate_device(index_, static_cast<std::size_t>(nlines * p.tiles * itemsize(out.dtype)));
  p.totals = totals->data();
  const int64_t units = nlines * p.tiles;
  const unsigned tile_grid = grid_for(index_, units * kScanBlock, kScanBlock);
  launch(index_, kernel(ScanKernel::tile_totals), tile_grid, kScanBlock, args, opname);
  launch(index_, kernel(ScanKernel::totals), grid_for(index_, nlines * kScanBlock, kScanBlock),
         kScanBlock, args, opname);
  launch(index_, kernel(ScanKernel::tiles), tile_grid, kScanBlock, args, opname);
}

}  // namespace copper::backend::cuda
