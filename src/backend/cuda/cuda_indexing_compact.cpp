// Stream compaction on the GPU (x[mask], nonzero, compress, extract): the flags are
// cut into tiles of 2048 elements, one block of 256 threads per tile, 8 consecutive
// elements per thread (one vector load where aligned).
//  1. copper_select_count (family 64) writes each tile's count (a warp per tile for
//     aligned 1-byte flags, a block per tile otherwise); CUB's exclusive sum
//     (ahead-of-time, cub/scan.cu) makes them output offsets in place; the total is the
//     one host read.
//  2. copper_select_values (65) / copper_select_coordinates (66): each block reads its
//     tile's flags again (the warp count's bits where it left them, an eighth of the
//     bytes), ranks its selected elements with a block-wide prefix sum, stages them
//     in shared memory in order and writes them out coalesced from the tile's offset.
// The count must reach the host before the output exists, so the flags are read twice
// whatever the method; reading them twice costs 1 byte per bool flag, and no
// decoupled look-back or second scan is needed (CUB's DeviceSelect would read the
// flags for the count first as well).
#include <algorithm>

#include "backend/cuda/aot_call.h"
#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_driver.h"
#include "backend/cuda/cuda_indexing.h"
#include "backend/cuda/kernel_families.h"

namespace copper::backend::cuda {

namespace {

constexpr std::int64_t kTile = 2048;

// Mirrors CompactParams in compact_prologue().
struct CompactParams {
  const char* flags;
  const char* src;
  char* out;
  const long long* offsets;
  long long* counts;
  long long n, tiles;
  long long out_stride, dim_stride;
  int ndim;
  long long shape[kMaxDims];
  StridedLayoutParam<2> l;  // [0] flags, [1] src
  unsigned char* bits;      // the flags of whole tiles, a bit each (warp_count), or null
  long long bit_tiles;      // the tiles `bits` covers
};

// How the kernels read the flags (and values): flat (one unit-stride dimension) with
// aligned 8-element vectors, flat, or through the strided layout.
struct CompactLayout {
  bool flat = false, vec_flags = false, vec_src = false;
  int unit = 0;  // value bytes (values kernel)
  // 1-byte flags, flat and 16-byte aligned: a warp counts a whole tile and leaves its
  // flags as bits (CompactParams::bits) for the second pass to read instead of the bytes.
  bool warp_count = false;
  int items = 8;  // elements per thread: 8 (the counted tiles of 2048), or 16 in a second pass over bits
};

// Whether select_count leaves bits of these flags (the same test in each pass).
bool keeps_bits(const ArrayView& flags, const CompactLayout& flags_only) {
  return flags_only.flat && itemsize(flags.dtype) == 1 && aligned(flags.data, 16);
}

std::string compact_prologue(DType flag, const CompactLayout& c) {
  std::string s = source_prologue();
  s += "#include \"copper_kernels/indexing.cuh\"\n";
  s += "struct alignas(16) E16 { unsigned long long x, y; };\n";
  // Flags load as stored (a bool as its byte: nonzero is true, common.cuh).
  s += std::string("typedef copper::kern::loaded_t<") + device_type_name(flag) + "> F;\n";
  s += std::string("typedef ") + unit_type_name(c.unit ? c.unit : 1) + " E;\n";
  // kTile: this kernel's tile; kCountTile: the tiles counted and offset by the first pass.
  s += "constexpr int kThreads = 256, kItems = " + std::to_string(c.items) +
       ", kTile = kThreads * kItems, kCountTile = 2048;\n";
  s += "struct CompactParams {\n  const char* flags;\n  const char* src;\n  char* out;\n  const long long* offsets;\n"
       "  long long* counts;\n  long long n, tiles;\n  long long out_stride, dim_stride;\n  int ndim;\n"
       "  long long shape[copper::kern::kMaxDims];\n  copper::kern::StridedLayout<2> l;\n"
       "  unsigned char* bits;\n  long long bit_tiles;\n};\n";
  // The element offsets of flat position i in flags and src.
  s += "__device__ __forceinline__ void element_offsets(const CompactParams& a, long long i, long long (&o)[2]) {\n";
  if (c.flat) {
    s += "  o[0] = i * static_cast<long long>(sizeof(F));\n  o[1] = i * static_cast<long long>(sizeof(E));\n";
  } else {
    s += "  copper::kern::offsets<2, long long>(a.l, i, o);\n";
  }
  s += "}\n";
  s += "__device__ __forceinline__ int load_flags(const CompactParams& a, long long base, bool (&f)[kItems]) {\n"
       "  int c = 0;\n";
  if (c.warp_count) {  // whole counted tiles: the thread's 8 or 16 flags are 1 or 2 bytes of bits
    s += "  if (base < a.bit_tiles * kCountTile) {\n"
         "    unsigned m;\n"
         "    if constexpr (kItems == 8) m = a.bits[base / 8];\n"
         "    else m = reinterpret_cast<const unsigned short*>(a.bits)[base / 16];\n"
         "#pragma unroll\n    for (int k = 0; k < kItems; ++k) f[k] = (m >> k) & 1u;\n    return __popc(m);\n  }\n";
  }
  if (c.vec_flags) {
    s += "  if (base + kItems <= a.n) {\n"
         "    const copper::kern::Vec<F, kItems> v = *reinterpret_cast<const copper::kern::Vec<F, kItems>*>(\n"
         "        reinterpret_cast<const F*>(a.flags) + base);\n"
         "#pragma unroll\n    for (int k = 0; k < kItems; ++k) {\n"
         "      f[k] = copper::kern::truth(v.v[k]);\n      c += f[k];\n    }\n    return c;\n  }\n";
  }
  s += "#pragma unroll\n  for (int k = 0; k < kItems; ++k) {\n    const long long i = base + k;\n    f[k] = false;\n"
       "    if (i < a.n) {\n      long long o[2];\n      element_offsets(a, i, o);\n"
       "      f[k] = copper::kern::truth(*reinterpret_cast<const F*>(a.flags + o[0]));\n    }\n"
       "    c += f[k];\n  }\n  return c;\n}\n";
  return s;
}

// The shape both selections share: each block ranks its tile's selected elements,
// stages `staged` (of `stage_type`) for each in order in shared memory, then writes the
// tile's share from its offset (`write`, per staged k; `first` is the offset).
std::string staged_kernel(const char* name, const char* stage_type, const std::string& load, const char* staged,
                          const std::string& write) {
  return std::string("extern \"C\" __global__ void __launch_bounds__(256) ") + name + "(CompactParams a) {\n" +
         "  __shared__ int scratch[kThreads / 32];\n  __shared__ " + stage_type + " stage[kTile];\n" +
         "  const long long tiles = (a.n + kTile - 1) / kTile;\n"
         "  for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {\n"
         "    const long long base = t * kTile + threadIdx.x * kItems;\n"
         "    bool f[kItems];\n    const int c = load_flags(a, base, f);\n" + load +
         "    int total;\n    int pos = copper::kern::block_exclusive_sum<kThreads>(c, scratch, total);\n"
         "#pragma unroll\n    for (int k = 0; k < kItems; ++k)\n      if (f[k]) stage[pos++] = " + staged + ";\n" +
         "    __syncthreads();\n    const long long first = a.offsets[t * (kTile / kCountTile)];\n"
         "    for (int k = threadIdx.x; k < total; k += kThreads) {\n" + write + "    }\n    __syncthreads();\n  }\n}\n";
}

// A warp per tile: each lane loads 16 flag bytes at a time (a tile is 4 such loads per
// lane), turns them into 16 bits, stores those and counts them; a warp reduction gives
// the tile's count. No barrier, so the loads of many tiles are in flight at once (a
// block per tile with a block-wide sum spent more time in scheduling and barriers than
// in reading). The bits, an eighth of the flags' bytes, are still in L2 when the second
// pass reads them.
std::string warp_count_source(DType flag, const CompactLayout& c) {
  return compact_prologue(flag, c) +
         "__device__ __forceinline__ unsigned nonzero_nibble(unsigned w) {  // bit j: byte j is not 0\n"
         "  const unsigned h = (((w & 0x7F7F7F7Fu) + 0x7F7F7F7Fu) | w) & 0x80808080u;\n"
         "  return ((h >> 7) & 1u) | ((h >> 14) & 2u) | ((h >> 21) & 4u) | ((h >> 28) & 8u);\n}\n"
         "extern \"C\" __global__ void __launch_bounds__(256) copper_select_count(CompactParams a) {\n"
         "  constexpr int kLoads = kTile / (32 * 16);\n"
         "  const int lane = threadIdx.x & 31;\n"
         "  const long long warps = static_cast<long long>(gridDim.x) * (kThreads / 32);\n"
         "  for (long long t = static_cast<long long>(blockIdx.x) * (kThreads / 32) + (threadIdx.x >> 5); t < a.tiles;\n"
         "       t += warps) {\n"
         "    const long long base = t * kTile;\n"
         "    int c = 0;\n"
         "    if (base + kTile <= a.n) {\n"
         "      const uint4* p = reinterpret_cast<const uint4*>(a.flags + base) + lane;\n"
         "      uint4 w[kLoads];\n"
         "#pragma unroll\n      for (int k = 0; k < kLoads; ++k) w[k] = p[k * 32];\n"
         "      unsigned short* bits = reinterpret_cast<unsigned short*>(a.bits + base / 8) + lane;\n"
         "#pragma unroll\n      for (int k = 0; k < kLoads; ++k) {\n"
         "        const unsigned b = nonzero_nibble(w[k].x) | nonzero_nibble(w[k].y) << 4 | nonzero_nibble(w[k].z) << 8 |\n"
         "                           nonzero_nibble(w[k].w) << 12;\n"
         "        c += __popc(b);\n        bits[k * 32] = static_cast<unsigned short>(b);\n      }\n"
         "    } else {\n"
         "      for (long long i = base + lane; i < a.n; i += 32) c += a.flags[i] != 0;\n"
         "    }\n"
         "    c = __reduce_add_sync(0xffffffffu, c);\n"
         "    if (lane == 0) a.counts[t] = c;\n"
         "  }\n}\n";
}

std::string count_source(DType flag, const CompactLayout& c) {
  if (c.warp_count) return warp_count_source(flag, c);
  std::string s = compact_prologue(flag, c);
  s += "extern \"C\" __global__ void __launch_bounds__(256) copper_select_count(CompactParams a) {\n"
       "  __shared__ int scratch[kThreads / 32];\n"
       "  for (long long t = blockIdx.x; t < a.tiles; t += gridDim.x) {\n"
       "    bool f[kItems];\n"
       "    const int c = load_flags(a, t * kTile + threadIdx.x * kItems, f);\n"
       "    int total;\n    copper::kern::block_exclusive_sum<kThreads>(c, scratch, total);\n"
       "    if (threadIdx.x == 0) a.counts[t] = total;\n  }\n}\n";
  return s;
}

std::string values_source(DType flag, const CompactLayout& c) {
  std::string s = compact_prologue(flag, c);
  s += "__device__ __forceinline__ void load_values(const CompactParams& a, long long base, const bool (&f)[kItems],\n"
       "                                            E (&v)[kItems]) {\n";
  if (c.vec_src) {
    s += "  if (base + kItems <= a.n) {\n"
         "    const copper::kern::Vec<E, kItems> w = *reinterpret_cast<const copper::kern::Vec<E, kItems>*>(\n"
         "        reinterpret_cast<const E*>(a.src) + base);\n"
         "#pragma unroll\n    for (int k = 0; k < kItems; ++k) v[k] = w.v[k];\n    return;\n  }\n";
  }
  s += "#pragma unroll\n  for (int k = 0; k < kItems; ++k) {\n    if (!f[k]) continue;\n    long long o[2];\n"
       "    element_offsets(a, base + k, o);\n    v[k] = *reinterpret_cast<const E*>(a.src + o[1]);\n  }\n}\n";
  return s + staged_kernel("copper_select_values", "E", "    E v[kItems];\n    load_values(a, base, f, v);\n", "v[k]",
                           "      *reinterpret_cast<E*>(a.out + (first + k) * a.out_stride) = stage[k];\n");
}

std::string coordinates_source(DType flag, const CompactLayout& c) {
  return compact_prologue(flag, c) +
         staged_kernel("copper_select_coordinates", "long long", "", "base + k",
                       "      long long p = stage[k];\n      char* row = a.out + (first + k) * a.out_stride;\n"
                       "      if (a.ndim == 1) {  // the position itself: no division\n"
                       "        *reinterpret_cast<long long*>(row) = p;\n        continue;\n      }\n"
                       "      for (int d = a.ndim - 1; d >= 0; --d) {\n        const long long q = p / a.shape[d];\n"
                       "        *reinterpret_cast<long long*>(row + d * a.dim_stride) = p - q * a.shape[d];\n"
                       "        p = q;\n      }\n");
}

CompactLayout compact_layout(const ArrayView& flags, const ArrayView* src, CollapsedLayout& l) {
  const Strides* s[] = {&flags.strides, src ? &src->strides : &flags.strides};
  l = collapse(flags.shape, s);
  CompactLayout c;
  const std::int64_t fi = itemsize(flags.dtype), si = src ? itemsize(src->dtype) : fi;
  c.unit = src ? static_cast<int>(si) : 0;
  c.flat = l.shape.size() == 1 && (l.shape[0] == 1 || (l.strides[0][0] == fi && l.strides[1][0] == si));
  c.vec_flags = c.flat && aligned(flags.data, static_cast<std::size_t>(std::min<std::int64_t>(16, 8 * fi)));
  c.vec_src = c.flat && src && aligned(src->data, static_cast<std::size_t>(std::min<std::int64_t>(16, 8 * si)));
  return c;
}

CompactParams compact_params(const ArrayView& flags, const CollapsedLayout& l) {
  CompactParams a{};
  a.flags = static_cast<const char*>(flags.data);
  a.n = shape_size(flags.shape);
  a.tiles = (a.n + kTile - 1) / kTile;
  a.l = strided_param<2>(l);
  return a;
}

// Where select_count leaves the bits: after the tiles' offsets and the total, in one buffer.
unsigned char* bits_after_offsets(void* tile_offsets, long long tiles) {
  return reinterpret_cast<unsigned char*>(static_cast<long long*>(tile_offsets) + tiles + 1);
}

// The second pass reads the bits select_count left, when it left them, and then takes
// 16 elements a thread (a block covers two counted tiles: more bytes in flight per block)
// unless its staging would not fit in static shared memory (16-byte units). On an H200,
// x[mask] of 1e8 float32: 180 us at 8, 164 at 16, 188 at 32.
void use_bits(const ArrayView& flags, const Selection& sel, const ArrayView* src, CompactLayout& c, CompactParams& a) {
  CollapsedLayout flags_only;
  if (!keeps_bits(flags, compact_layout(flags, nullptr, flags_only))) return;
  c.warp_count = true;
  a.bits = bits_after_offsets(sel.tile_offsets->data(), a.tiles);
  a.bit_tiles = a.n / kTile;
  if (c.unit > 8) return;
  c.items = 16;
  if (src) c.vec_src = c.vec_src && aligned(src->data, 16);
}

// The second pass's blocks: one per tile of 256 x items elements.
long long value_tiles(const CompactParams& a, const CompactLayout& c) {
  return (a.n + 256LL * c.items - 1) / (256LL * c.items);
}

// One block per tile (the kernels loop, so any grid covers them): the block scheduler
// overlaps the tiles' loads and stores better than one resident wave looping, as for the
// contiguous elementwise kernels.
unsigned tile_grid(long long tiles) { return static_cast<unsigned>(std::min<long long>(tiles, 1LL << 30)); }

void add_layout_key(KeyBuilder& key, DType flag, const CompactLayout& c) {
  key.add(static_cast<unsigned>(flag)).add(static_cast<unsigned>(c.unit)).add(c.flat ? 1u : 0u);
  key.add(c.vec_flags ? 1u : 0u).add(c.vec_src ? 1u : 0u).add(c.warp_count ? 1u : 0u);
  key.add(static_cast<unsigned>(c.items));
}

}  // namespace

// Sources for the NVRTC compile check.
std::string select_count_source(DType flag, bool flat, bool vec, bool warp_count) {
  return count_source(flag, {flat, vec, false, 0, warp_count});
}
std::string select_values_source(DType flag, int unit, bool flat, bool vec_flags, bool vec_src, bool bits) {
  return values_source(flag, {flat, vec_flags, vec_src, unit, bits, bits && unit <= 8 ? 16 : 8});
}
std::string select_coordinates_source(DType flag, bool flat, bool vec, bool bits) {
  return coordinates_source(flag, {flat, vec, false, 0, bits, bits ? 16 : 8});
}

Selection CudaBackend::select_count(const ArrayView& flags) {
  CollapsedLayout l;
  CompactLayout c = compact_layout(flags, nullptr, l);
  c.warp_count = keeps_bits(flags, c);
  CompactParams a = compact_params(flags, l);
  Selection sel;
  // The tile offsets, then (warp_count) the bits of the whole tiles.
  const std::size_t offset_bytes = static_cast<std::size_t>(a.tiles + 1) * sizeof(long long);
  sel.tile_offsets = allocate(offset_bytes + (c.warp_count ? static_cast<std::size_t>(a.n / kTile * (kTile / 8)) : 0));
  auto* offsets = static_cast<long long*>(sel.tile_offsets->data());
  if (c.warp_count) a.bits = bits_after_offsets(offsets, a.tiles);
  if (a.n == 0) return sel;
  make_current(index_);
  check(driver().cuMemsetD8Async(reinterpret_cast<CUdeviceptr>(offsets + a.tiles), 0, sizeof(long long),
                                 current_stream_handle(index_)),
        "cuMemsetD8Async");
  a.counts = offsets;
  KeyBuilder key;
  key.add(kFamilySelectCount);
  add_layout_key(key, flags.dtype, c);
  CUfunction fn = get_kernel(index_, key.key(), [&] { return count_source(flags.dtype, c); }, "copper_select_count");
  void* args[] = {&a};
  launch(index_, fn, tile_grid(c.warp_count ? (a.tiles + 7) / 8 : a.tiles), 256, args, "select (count)");
  {  // counts -> offsets in place; the zero after the last tile becomes the total
    AotCall call(index_, "select (offsets)");
    auto* counts = reinterpret_cast<std::int64_t*>(offsets);
    aot::exclusive_sum(call.launch(), counts, counts, a.tiles + 1);
  }
  copy_to_host(ArrayView{offsets + a.tiles, int64, {}, {}}, &sel.count);
  return sel;
}

void CudaBackend::select_values(const ArrayView& flags, const Selection& sel, const ArrayView& src,
                                const ArrayView& out) {
  if (sel.count == 0) return;
  CollapsedLayout l;
  CompactLayout c = compact_layout(flags, &src, l);
  CompactParams a = compact_params(flags, l);
  use_bits(flags, sel, &src, c, a);
  a.src = static_cast<const char*>(src.data);
  a.out = static_cast<char*>(out.data);
  a.offsets = static_cast<const long long*>(sel.tile_offsets->data());
  a.out_stride = out.strides.empty() ? 0 : out.strides[0];
  KeyBuilder key;
  key.add(kFamilySelectValues);
  add_layout_key(key, flags.dtype, c);
  CUfunction fn = get_kernel(index_, key.key(), [&] { return values_source(flags.dtype, c); }, "copper_select_values");
  void* args[] = {&a};
  launch(index_, fn, tile_grid(value_tiles(a, c)), 256, args, "select (values)");
}

void CudaBackend::select_coordinates(const ArrayView& flags, const Selection& sel, const ArrayView& out) {
  if (sel.count == 0 || flags.shape.empty()) return;
  if (flags.shape.size() > static_cast<std::size_t>(kMaxDims)) throw_too_many_dims(static_cast<int>(flags.shape.size()));
  CollapsedLayout l;
  CompactLayout c = compact_layout(flags, nullptr, l);
  CompactParams a = compact_params(flags, l);
  use_bits(flags, sel, nullptr, c, a);
  a.out = static_cast<char*>(out.data);
  a.offsets = static_cast<const long long*>(sel.tile_offsets->data());
  a.out_stride = out.strides[0];
  a.dim_stride = out.strides.size() > 1 ? out.strides[1] : 0;
  a.ndim = static_cast<int>(flags.shape.size());
  for (int d = 0; d < a.ndim; ++d) a.shape[d] = flags.shape[d];
  KeyBuilder key;
  key.add(kFamilySelectCoordinates);
  add_layout_key(key, flags.dtype, c);
  CUfunction fn =
      get_kernel(index_, key.key(), [&] { return coordinates_source(flags.dtype, c); }, "copper_select_coordinates");
  void* args[] = {&a};
  launch(index_, fn, tile_grid(value_tiles(a, c)), 256, args, "select (coordinates)");
}

}  // namespace copper::backend::cuda
