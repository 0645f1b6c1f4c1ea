// Tiled transposing copy (see cuda_transpose.h). One 256-thread block moves a 32x32 tile:
// lanes read 32 consecutive source elements (the source's unit-stride axis i), the tile
// goes through shared memory padded to [32][33] (no bank conflicts down a column for 4-,
// 8- and 16-byte elements), and lanes write 32 consecutive destination elements (axis j).
// Blocks walk tiles with a grid-stride loop, so any batch and any 64-bit size fits.
#include "backend/cuda/cuda_transpose.h"

#include <algorithm>

#include "backend/cuda/cuda_codegen.h"
#include "backend/cuda/cuda_context.h"
#include "backend/cuda/elementwise_launch.h"
#include "backend/cuda/kernel_families.h"
#include "copper/ndarray.hpp"

namespace copper::backend::cuda {
namespace {

constexpr std::int64_t kTile = 32;
// Below this many rows or columns most lanes of a tile idle, while the elementwise path's
// warps already span several short runs of the source: leave those copies to it.
constexpr std::int64_t kMinExtent = 8;

struct TransposeArgs {  // mirrors CopperTransposeArgs in transpose_source()
  const void* src;
  void* dst;
  long long batch, rows, cols;
  long long src_batch, src_col, dst_batch, dst_row;
  long long tiles_i, tiles_j;
};

// The alignment of a dtype's device storage type (complex: that of its parts).
int natural_alignment(DType t) { return kind(t) == Kind::complex_ ? itemsize(t) / 2 : itemsize(t); }

bool multiple_of(std::int64_t v, std::int64_t a) { return v % a == 0; }

const char* word_type(int bytes) {
  switch (bytes) {
    case 1: return "unsigned char";
    case 2: return "unsigned short";
    case 4: return "unsigned int";
    case 8: return "unsigned long long";
    default: return "CopperWord16";
  }
}

}  // namespace

std::optional<TransposePlan> plan_transpose_copy(const ArrayView& src, const ArrayView& dst) {
  if (src.host_value || src.shape != dst.shape || shape_size(dst.shape) == 0 || !is_c_contiguous_view(dst))
    return std::nullopt;
  const Strides* strides[] = {&src.strides, &dst.strides};
  const CollapsedLayout l = collapse(dst.shape, strides);
  const int nd = static_cast<int>(l.shape.size());
  if (nd != 2 && nd != 3) return std::nullopt;  // 1-d: already coalesced; 4+: fall back
  for (int d = 0; d < nd; ++d)
    if (l.strides[0][d] <= 0 || l.strides[1][d] <= 0) return std::nullopt;  // negative or broadcast
  const std::int64_t src_size = itemsize(src.dtype), dst_size = itemsize(dst.dtype);
  const int inner = nd - 1;
  if (l.strides[1][inner] != dst_size || l.strides[0][inner] == src_size) return std::nullopt;
  int row = -1;  // the axis along which src is unit-stride: the tile's i
  for (int d = inner - 1; d >= 0 && row < 0; --d)
    if (l.strides[0][d] == src_size) row = d;
  if (row < 0) return std::nullopt;

  TransposePlan p;
  p.rows = l.shape[row];
  p.cols = l.shape[inner];
  p.src_col = l.strides[0][inner];
  p.dst_row = l.strides[1][row];
  if (nd == 3) {
    const int b = row == 0 ? 1 : 0;
    p.batch = l.shape[b];
    p.src_batch = l.strides[0][b];
    p.dst_batch = l.strides[1][b];
  }
  if (p.rows < kMinExtent || p.cols < kMinExtent) return std::nullopt;

  const auto src_addr = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(src.data));
  const auto dst_addr = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(dst.data));
  if (src.dtype == dst.dtype) {
    // The widest word (up to the itemsize) that every address the kernel forms is aligned to.
    int a = static_cast<int>(std::min<std::int64_t>(src_size, 16));
    while (a > 1 && !(multiple_of(src_addr, a) && multiple_of(dst_addr, a) && multiple_of(p.src_col, a) &&
                      multiple_of(p.src_batch, a) && multiple_of(p.dst_row, a) && multiple_of(p.dst_batch, a)))
      a /= 2;
    if (src_size % a != 0) return std::nullopt;
    p.align = a;
  } else {
    const int sa = natural_alignment(src.dtype), da = natural_alignment(dst.dtype);
    if (!(multiple_of(src_addr, sa) && multiple_of(p.src_col, sa) && multiple_of(p.src_batch, sa) &&
          multiple_of(dst_addr, da) && multiple_of(p.dst_row, da) && multiple_of(p.dst_batch, da)))
      return std::nullopt;
    p.align = 0;
  }
  return p;
}

std::string transpose_source(DType from, DType to, int align) {
  std::string s;
  if (from == to) {
    // A plain copy: elements move as `align`-byte words, no arithmetic needed.
    const int size = itemsize(from);
    s += "struct alignas(16) CopperWord16 { unsigned long long lo, hi; };\n";
    s += "typedef " + std::string(word_type(align)) + " CopperWord;\n";
    s += "struct alignas(" + std::to_string(align) + ") T { CopperWord w[" + std::to_string(size / align) + "]; };\n";
    s += "typedef T R;\n#define COPPER_CONVERT(x) (x)\n";
  } else {
    s += source_prologue();
    s += "typedef " + std::string(device_type_name(from)) + " T;\n";
    s += "typedef " + std::string(device_type_name(to)) + " R;\n";
    s += "#define COPPER_CONVERT(x) copper::ops::cast<R>(x)\n";
  }
  s += R"(
struct CopperTransposeArgs {
  const char* src;
  char* dst;
  long long batch, rows, cols;
  long long src_batch, src_col, dst_batch, dst_row;
  long long tiles_i, tiles_j;
};

// Block of 256 threads: lane tx = threadIdx.x % 32, warp ty = threadIdx.x / 32 (0..7);
// each thread moves 4 elements of a 32x32 tile, rows ty, ty + 8, ty + 16, ty + 24.
extern "C" __global__ void __launch_bounds__(256) copper_transpose(CopperTransposeArgs a) {
  // Raw bytes: R may have constructors, which __shared__ variables cannot run.
  __shared__ alignas(16) unsigned char tile_bytes[32 * 33 * sizeof(R)];
  R (*tile)[33] = reinterpret_cast<R (*)[33]>(tile_bytes);  // tile[j - j0][i - i0]
  const int tx = threadIdx.x & 31, ty = threadIdx.x >> 5;
  const long long per_batch = a.tiles_i * a.tiles_j;
  const long long total = per_batch * a.batch;
  // The trip count depends on blockIdx only, so every thread reaches each __syncthreads.
  for (long long t = blockIdx.x; t < total; t += gridDim.x) {
    const long long b = t / per_batch;
    const long long r = t - b * per_batch;
    const long long ti = r / a.tiles_j;
    const long long tj = r - ti * a.tiles_j;
    const long long i0 = ti * 32, j0 = tj * 32;
    const char* src = a.src + b * a.src_batch;
    char* dst = a.dst + b * a.dst_batch;

    // Read: lanes along i, the source's unit-stride axis (coalesced).
    const long long i = i0 + tx;
    const bool i_in = i < a.rows;
    T v[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const long long j = j0 + ty + 8 * k;
      if (i_in && j < a.cols)
        v[k] = *reinterpret_cast<const T*>(src + j * a.src_col + i * static_cast<long long>(sizeof(T)));
    }
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const long long j = j0 + ty + 8 * k;
      if (i_in && j < a.cols) tile[ty + 8 * k][tx] = COPPER_CONVERT(v[k]);
    }
    __syncthreads();

    // Write: lanes along j, the destination's unit-stride axis (coalesced). Element
    // (i0 + ty + 8k, j0 + tx) sits at tile[tx][ty + 8k], written above by lane ty + 8k.
    const long long jw = j0 + tx;
    const bool j_in = jw < a.cols;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const long long iw = i0 + ty + 8 * k;
      if (j_in && iw < a.rows)
        *reinterpret_cast<R*>(dst + iw * a.dst_row + jw * static_cast<long long>(sizeof(R))) = tile[tx][ty + 8 * k];
    }
    __syncthreads();  // the next tile overwrites `tile`
  }
}
)";
  return s;
}

bool try_transpose_copy(int device, const ArrayView& src, const ArrayView& dst) {
  const std::optional<TransposePlan> plan = plan_transpose_copy(src, dst);
  if (!plan) return false;
  const TransposePlan& p = *plan;
  const bool cast = src.dtype != dst.dtype;
  KeyBuilder key;
  key.add(kFamilyTranspose).add(cast ? 1u : 0u);
  if (cast) key.add(static_cast<unsigned>(src.dtype)).add(static_cast<unsigned>(dst.dtype));
  else key.add(static_cast<unsigned>(itemsize(src.dtype))).add(static_cast<unsigned>(p.align));
  CUfunction fn = get_kernel(
      device, key.key(), [&] { return transpose_source(src.dtype, dst.dtype, p.align); }, "copper_transpose");

  TransposeArgs a{src.data, dst.data, p.batch, p.rows, p.cols, p.src_batch, p.src_col, p.dst_batch, p.dst_row,
                  (p.rows + kTile - 1) / kTile, (p.cols + kTile - 1) / kTile};
  const std::int64_t tiles = a.tiles_i * a.tiles_j * a.batch;
  // One tile per block up to a generous cap; past it blocks loop over tiles.
  const unsigned grid = static_cast<unsigned>(std::min<std::int64_t>(tiles, std::int64_t{1} << 24));
  void* args[] = {&a};
  launch(device, fn, grid, 256, args, "transpose copy");
  return true;
}

}  // namespace copper::backend::cuda
