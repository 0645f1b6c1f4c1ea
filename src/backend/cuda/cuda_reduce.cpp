// CudaBackend::reduce: lays the kept and reduced dimensions out (flipped, sorted and
// merged where the op allows), picks a kernel shape, and launches it; reductions split
// across blocks write per-piece States that a second kernel merges.
//   full (one output):            block shape, the reduced range cut into ~one piece
//                                 per resident block, then reduce_finalize.
//   inner (reduced axis innermost): rows shape (G = 1..32 lanes per output) below
//                                 4096 elements per output, else block shape (split
//                                 when there are fewer outputs than resident blocks).
//                                 Rows under 64 elements packed back to back from an
//                                 aligned base: rows_tile (staged in shared memory).
//   outer (a kept axis innermost): when the innermost kept axis is contiguous and
//                                 16-byte vectors line up (V outputs per thread):
//                                 cols_deep from 64 reduced rows (eight rows in
//                                 flight per thread), cols_vec below; else cols.
//                                 Reduced rows split across blocks when the output
//                                 tiles alone do not fill the GPU, into at most one
//                                 wave of resident blocks (split_column_rows).
// reduce_finalize merges the pieces with several lanes per output (kernels/reduce.cuh).
#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "backend/cuda/kernel_families.h"
#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_codegen.h"
#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_driver.h"
#include "backend/cuda/cuda_memory.h"
#include "backend/cuda/cuda_reduce.h"
#include "backend/cuda/cuda_reduce_layout.h"
#include "copper/errors.hpp"

namespace copper::backend::cuda {

namespace {

using std::int64_t;
using namespace reduce_layout;

// Rows at least this long get a whole block each (rows shape below).
constexpr int64_t kBlockRowMin = 4096;
// The least reduced elements a split piece of the block shape gets.
constexpr int64_t kMinPiece = 8192;
// Piece lengths are multiples of this, so every piece of a contiguous row starts as
// aligned as the row (vector loads).
constexpr int64_t kPieceAlign = 1024;
// Outer-axis reductions over at least this many rows take cols_deep (eight rows in
// flight, split across blocks); fewer rows keep cols_vec (measured better there), and
// so do 1- and 2-byte types (8 or 16 States per thread leave no registers for eight
// loads).
constexpr int64_t kDeepRowsMin = 64;

void check_dtypes(ops::ReduceOp op, const ArrayView& in, const ArrayView& out) {
  using ops::ReduceOp;
  bool ok = true;
  switch (op) {
    case ReduceOp::min:
    case ReduceOp::max:
    case ReduceOp::nanmin:
    case ReduceOp::nanmax: ok = in.dtype == out.dtype; break;
    case ReduceOp::all:
    case ReduceOp::any: ok = out.dtype == DType::bool_; break;
    case ReduceOp::argmin:
    case ReduceOp::argmax: ok = out.dtype == DType::int64; break;
    default: break;
  }
  if (!ok)
    throw RuntimeError("CudaBackend::reduce: " + std::string(ops::name(op)) + " cannot write " +
                       std::string(name(out.dtype)) + " from " + std::string(name(in.dtype)));
}

KernelKey reduce_key(unsigned family, ops::ReduceOp op, DType in, DType out, ReduceShape shape, ReduceMode mode) {
  KeyBuilder b;
  b.add(family).add(static_cast<unsigned>(op)).add(static_cast<unsigned>(in)).add(static_cast<unsigned>(out));
  b.add(static_cast<unsigned>(shape)).add(static_cast<unsigned>(mode));
  return b.key();
}


// reduce_cols_vec's preconditions (kernels/reduce.cuh): a unit-stride innermost kept
// axis whose length V divides, at least 32 column vectors, and (V > 1) every vector
// address 16-byte aligned: the base, the outer kept strides and all reduced strides.
bool cols_vec_fits(const std::vector<Dim>& kept, const std::vector<Dim>& red, const char* in, int64_t isz, int vec,
                   int64_t nout) {
  if (kept.back().s[0] != isz || kept.back().n % vec != 0 || nout / vec < 32) return false;
  if (vec == 1) return true;
  bool ok = aligned(in, 16);
  for (std::size_t d = 0; d + 1 < kept.size(); ++d) ok = ok && kept[d].s[0] % 16 == 0;
  for (const Dim& d : red) ok = ok && d.s[0] % 16 == 0;
  return ok;
}

// reduce_rows_tile's preconditions: short rows (below 64 elements, so 16 rows fit the
// shared tile) packed back to back in one kept dimension, from a 16-byte aligned base.
bool rows_tile_fits(const std::vector<Dim>& kept, const char* in, int64_t isz, int64_t nred, int64_t nout) {
  return nred >= 1 && nred < 64 && nout > 1 && kept.size() == 1 && kept[0].s[0] == nred * isz && aligned(in, 16) &&
         16 * nred * isz <= kRowsTileBytes;
}

// Column shapes (cols, cols_vec, cols_deep): when `tiles` alone leave SMs idle, split
// the `nred` reduced rows into pieces of at least `min_rows_per_block` rows, as many as
// fit beside the tiles in ONE wave of resident blocks (rounded down: a unit left over
// for a second wave would run alone, latency-bound, for as long as the whole first
// wave's share). Partials are laid out [piece][output]. Returns the main kernel's blocks.
int64_t split_column_rows(ReduceParams& p, int64_t tiles, int64_t min_rows_per_block, int64_t nred, int64_t nout,
                          int64_t resident) {
  if (tiles < resident) {
    const int64_t want = std::min(resident / tiles, std::max<int64_t>(1, nred / min_rows_per_block));
    if (want > 1) {
      p.split_len = ceil_div(nred, want);
      p.splits = ceil_div(nred, p.split_len);
    }
  }
  p.part_out_stride = 1;
  p.part_split_stride = nout;
  return tiles * p.splits;
}

}  // namespace

void CudaBackend::reduce(ops::ReduceOp op, const ArrayView& in, int nreduce, const ArrayView& out) {
  launch_reduce(index_, op, in, nreduce, out, nullptr);
}

bool launch_reduce(int device, ops::ReduceOp op, const ArrayView& in, int nreduce, const ArrayView& out,
                   const ReduceFeed* feed) {
  const int nd = static_cast<int>(in.shape.size());
  if (nreduce < 0 || nreduce > nd || out.shape.size() != static_cast<std::size_t>(nd - nreduce))
    throw RuntimeError("CudaBackend::reduce: output rank does not match the kept axes");
  check_dtypes(op, in, out);
  const int nkeep = nd - nreduce;
  const int64_t nout = shape_size(out.shape);
  if (nout == 0) return true;
  const int64_t isz = itemsize(in.dtype);
  const bool is_arg = op == ops::ReduceOp::argmin || op == ops::ReduceOp::argmax;

  std::array<char*, 2> base = {static_cast<char*>(in.data), static_cast<char*>(out.data)};
  std::vector<Dim> kept, red;
  int64_t nred = 1;
  for (int d = 0; d < nd; ++d) {
    if (d < nkeep) {
      if (in.shape[d] != 1) kept.push_back({in.shape[d], {in.strides[d], out.strides[d]}});
    } else {
      nred *= in.shape[d];
      if (in.shape[d] != 1) red.push_back({in.shape[d], {in.strides[d], 0}});
    }
  }
  // Kept dimensions move together in input and output: any order and direction works.
  flip_and_sort(kept, 2, base);
  kept = merge_dims(kept, 2);
  if (kept.empty()) kept.push_back({1, {0, 0}});
  // Reduced dimensions: argmin/argmax count indices in C order, so only merge them.
  if (!is_arg) {
    std::array<char*, 2> rbase = {base[0], nullptr};
    flip_and_sort(red, 1, rbase);
    base[0] = rbase[0];
  }
  red = merge_dims(red, 1);
  if (red.empty()) red.push_back({1, {isz, 0}});

  ReduceParams p{};
  p.in = base[0];
  p.out = base[1];
  p.nout = nout;
  p.nred = nred;
  p.splits = 1;
  p.split_len = std::max<int64_t>(nred, 1);
  p.kept32 = nout <= 0xffffffffLL;
  p.red32 = nred <= 0xffffffffLL;
  p.kept = layout_param<2>(kept);
  p.red = layout_param<1>(red);
  p.red_stride = red.size() == 1 ? red[0].s[0] : 0;
  ReduceMode mode = red.size() > 1              ? ReduceMode::general
                          : red[0].s[0] == isz ? ReduceMode::contiguous
                                                : ReduceMode::strided;
  const int vec = mode == ReduceMode::contiguous && isz < 16 && 16 % isz == 0 ? static_cast<int>(16 / isz) : 1;

  int64_t min_red_stride = std::abs(red[0].s[0]);
  for (const Dim& d : red) min_red_stride = std::min(min_red_stride, std::abs(d.s[0]));
  const bool inner = nout == 1 || min_red_stride <= std::abs(kept.back().s[0]);
  // Short rows (and empty reductions, which write the identity) take the rows shape.
  ReduceShape shape = nred == 0 || (inner && nred < kBlockRowMin && nout > 1) ? ReduceShape::rows
                      : inner                                                   ? ReduceShape::block
                                                                                : ReduceShape::cols;
  const int col_vec = isz < 16 && 16 % isz == 0 ? static_cast<int>(16 / isz) : 1;  // reduce_vec_width<In>
  if (shape == ReduceShape::cols && cols_vec_fits(kept, red, base[0], isz, col_vec, nout))
    shape = nred >= kDeepRowsMin && col_vec <= 4 ? ReduceShape::cols_deep : ReduceShape::cols_vec;
  // rows_tile copies raw memory into shared memory, which a fed input is not; the rows
  // shape in strided mode with rows_tile's lanes per row folds in its order (lane j takes
  // elements j, j + G, ...), so a fed reduction's values are the eager ones.
  bool tile_order = false;
  if (shape == ReduceShape::rows && mode == ReduceMode::contiguous && rows_tile_fits(kept, base[0], isz, nred, nout)) {
    if (feed) {
      mode = ReduceMode::strided;
      tile_order = true;
    } else {
      shape = ReduceShape::rows_tile;
    }
  }
  // A feed's rows of one lane each (see below) go one thread per row, in the same order.
  if (feed && feed->serial_rows && shape == ReduceShape::rows && nred > 0 && mode != ReduceMode::general &&
      pow2_at_least(ceil_div(nred, tile_order ? 16 : 2 * vec), 32) == 1)
    shape = ReduceShape::rows_serial;
  const CUfunction main =
      feed ? feed->kernel(shape, mode)
           : get_kernel(
                 device, reduce_key(kFamilyReduceMain, op, in.dtype, out.dtype, shape, mode),
                 [&] { return reduce_kernel_source(op, in.dtype, out.dtype, shape, mode); }, kReduceMainEntry);
  if (!main) return false;
  // The blocks of this kernel the GPU holds at once: splitting into about that many
  // pieces fills every SM in one wave (more pieces than fit would need a second,
  // mostly idle wave).
  const unsigned per_sm = resident_blocks_per_sm(main, kReduceBlock);
  const int64_t resident = grid_for(device, int64_t{1} << 40, kReduceBlock, per_sm);

  int64_t blocks = 0;  // blocks the main kernel's work divides into
  int fin_group = 1;   // lanes per output in reduce_finalize
  if (shape == ReduceShape::rows_serial) {
    p.group = 1;
    blocks = ceil_div(nout, kReduceBlock);
  } else if (shape == ReduceShape::rows) {
    // G lanes per row, about two vectors (or two elements) per lane.
    p.group = nred == 0 ? 1 : pow2_at_least(ceil_div(nred, tile_order ? 16 : 2 * vec), 32);
    blocks = ceil_div(nout, kReduceBlock / p.group);
  } else if (shape == ReduceShape::block) {
    p.group = kReduceBlock;
    if (nout < resident) {
      // Rounded down: every unit runs in the one wave (see split_column_rows).
      const int64_t want = std::min(resident / nout, std::max<int64_t>(1, nred / kMinPiece));
      p.split_len = ceil_div(ceil_div(nred, want), kPieceAlign) * kPieceAlign;
      p.splits = ceil_div(nred, p.split_len);
    }
    p.part_out_stride = p.splits;
    p.part_split_stride = 1;
    // About four States per finalize lane, up to a whole block per output.
    fin_group = pow2_at_least(ceil_div(p.splits, 4), kReduceBlock);
    blocks = nout * p.splits;
  } else if (shape == ReduceShape::rows_tile) {
    // A span of whole rows per block, 16 elements or more per lane of a row (rows of
    // up to 16 elements: one thread each, no merge; short rows are instruction-bound).
    p.group = pow2_at_least(ceil_div(nred, 16), 32);
    p.tile_rows = static_cast<int>(kRowsTileBytes / (nred * isz) / 16 * 16);
    blocks = ceil_div(nout, p.tile_rows);
  } else if (shape == ReduceShape::cols_vec) {
    // Few rows (below kDeepRowsMin; never split then, as pieces need 64 rows per
    // thread), or 1- and 2-byte types: group = column vectors per tile (32..256, so a
    // warp reads >= 512 contiguous bytes of a row); the other 256 / group thread rows
    // share the reduced rows.
    const int64_t nvec = nout / col_vec;
    p.group = std::max(32, pow2_at_least(nvec, kReduceBlock));
    const int64_t rows_at_once = kReduceBlock / p.group;
    blocks = split_column_rows(p, ceil_div(nvec, p.group), rows_at_once * 64, nred, nout, resident);
    fin_group = pow2_at_least(ceil_div(p.splits, 8), 32);
  } else if (shape == ReduceShape::cols_deep) {
    // Many rows: thread rows (TY = 256 / group, up to 8 warps) share each tile's rows
    // with at least 32 rows per thread, so a block keeps up to 8 rows x 16 bytes x 256
    // threads = 32 KB in flight; tiles of 32 column vectors (512 contiguous bytes per
    // warp and row) unless the rows are too few for 8 thread rows.
    const int64_t nvec = nout / col_vec;
    int64_t ty = 1;
    while (ty < 8 && nred / (2 * ty) >= 32) ty *= 2;
    p.group = std::max<int>(32, std::min<int>(static_cast<int>(kReduceBlock / ty), pow2_at_least(nvec, kReduceBlock)));
    const int64_t rows_at_once = kReduceBlock / p.group;
    // At least 64 rows per thread and piece: the partial States then cost a few
    // percent of the input traffic.
    blocks = split_column_rows(p, ceil_div(nvec, p.group), rows_at_once * 64, nred, nout, resident);
    // About eight States per finalize lane; lanes of an output 256 / G threads apart.
    fin_group = pow2_at_least(ceil_div(p.splits, 8), 32);
  } else {
    p.group = pow2_at_least(kept.back().n, 32);
    const int64_t rows_at_once = kReduceBlock / p.group;
    // At least 16 rows per thread and piece, so the merge costs stay small.
    blocks = split_column_rows(p, ceil_div(nout, p.group), rows_at_once * 16, nred, nout, resident);
    fin_group = pow2_at_least(ceil_div(p.splits, 8), 32);
  }

  std::shared_ptr<Buffer> partial;  // lives until both kernels are enqueued
  if (p.splits > 1) {
    partial = allocate_device(device, static_cast<std::size_t>(nout * p.splits * kReduceStateBytes));
    p.partial = partial->data();
  }
  const char* opname = ops::name(op).data();
  std::vector<void*> args{&p};
  if (feed) args.insert(args.end(), feed->args.begin(), feed->args.end());
  launch(device, main, grid_for(device, blocks * kReduceBlock, kReduceBlock, per_sm), kReduceBlock, args.data(),
         opname);
  if (p.splits > 1) {
    // (Shape and mode do not enter the finalize kernel: key them as zero.)
    CUfunction fin = get_kernel(
        device, reduce_key(kFamilyReduceFinalize, op, in.dtype, out.dtype, ReduceShape::rows, ReduceMode::contiguous),
        [&] { return reduce_finalize_source(op, in.dtype, out.dtype); }, kReduceFinalizeEntry);
    p.group = fin_group;  // (cuLaunchKernel copied the parameters of the first launch)
    const int64_t fin_blocks = ceil_div(nout, kReduceBlock / fin_group);
    launch(device, fin, grid_for(device, fin_blocks * kReduceBlock, kReduceBlock), kReduceBlock, args.data(),
           opname);
  }
  return true;
}

}  // namespace copper::backend::cuda
