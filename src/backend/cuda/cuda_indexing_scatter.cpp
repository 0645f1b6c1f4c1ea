// Scatters on the GPU (x[idx] = v, put, place): a check kernel over the index
// positions (family 61) and a write kernel over every unit (family 62).
//  - Out of bounds (raise mode): the check kernel records the bad index; the write
//    kernel reads the record's flag first and writes nothing when it is set, so a failed
//    assignment leaves the array untouched without the host waiting for the check.
//  - Repeated targets: NumPy's result is the last write in C order. Where positions
//    write different values to one target, the check kernel keeps, per target, the
//    highest position (atomicMax) in a table indexed by the target (dense, when the
//    index space is at most 4x the positions) or in an open-addressing hash table (2x
//    the positions); the write kernel writes only the winner's values. Deterministic.
//  - Packed last writers: for elements of at most 4 bytes with a dense table, the check
//    kernel's atomicMax takes (position + 1) << 32 | the value's bits, so the table ends
//    holding each target's winning value, and a flush kernel (family 69) walks the table
//    in order and writes the targets that have one. That makes one pass of random
//    accesses instead of two (the atomics, then reading the table and writing the
//    array at random), which is what a scatter costs at 1e8 random indices.
#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_driver.h"
#include "backend/cuda/cuda_indexing.h"
#include "backend/cuda/cuda_memory.h"
#include "backend/cuda/kernel_families.h"

namespace copper::backend::cuda {

namespace {

// Mirrors WinnerParams in the generated source.
struct WinnerParams {
  unsigned long long* keys;
  void* wins;
  unsigned long long mask;
  int dense;
};

// The table of last writers: dense over the target space, or hashed.
struct WinnerTable {
  std::shared_ptr<Buffer> keys, wins;
  WinnerParams params{};
  bool wide = false;    // 64-bit positions
  bool packed = false;  // dense 64-bit words (position + 1) << 32 | value bits; mask = the space
};

// `packable`: the values fit the low 32 bits of a packed word (see the file comment).
WinnerTable make_winner_table(int device, const ArrayView& dst, int k, std::int64_t nb, bool packable) {
  WinnerTable t;
  t.wide = nb >= 0xffffffffLL;
  t.packed = packable && !t.wide;
  const std::size_t w = t.wide || t.packed ? 8 : 4;
  std::int64_t space = 1;
  bool small = true;
  for (int j = 0; j < k && small; ++j) {
    if (dst.shape[j] != 0 && space > (4 * nb) / dst.shape[j]) small = false;
    else space *= dst.shape[j];
  }
  const CUstream stream = current_stream_handle(device);
  const Driver& d = driver();
  if (small) {
    t.wins = allocate_device(device, static_cast<std::size_t>(space) * w);
    check(d.cuMemsetD8Async(reinterpret_cast<CUdeviceptr>(t.wins->data()), 0, static_cast<std::size_t>(space) * w, stream),
          "cuMemsetD8Async");
    t.params = WinnerParams{nullptr, t.wins->data(), t.packed ? static_cast<unsigned long long>(space) : 0, 1};
    return t;
  }
  t.packed = false;  // hashed tables keep positions only
  std::size_t cap = 64;
  while (cap < static_cast<std::size_t>(2 * nb)) cap *= 2;
  t.keys = allocate_device(device, cap * 8);
  t.wins = allocate_device(device, cap * w);
  check(d.cuMemsetD8Async(reinterpret_cast<CUdeviceptr>(t.keys->data()), 0xff, cap * 8, stream), "cuMemsetD8Async");
  check(d.cuMemsetD8Async(reinterpret_cast<CUdeviceptr>(t.wins->data()), 0, cap * w, stream), "cuMemsetD8Async");
  t.params = WinnerParams{static_cast<unsigned long long*>(t.keys->data()), t.wins->data(), cap - 1, 0};
  return t;
}

std::string winner_prelude(bool wide) {
  return std::string("typedef ") + (wide ? "unsigned long long" : "unsigned") +
         " W;\n"
         "struct WinnerParams { unsigned long long* keys; W* wins; unsigned long long mask; int dense; };\n"
         "__device__ __forceinline__ unsigned long long slot_of(unsigned long long key, unsigned long long mask) {\n"
         "  const unsigned long long h = key * 0x9E3779B97F4A7C15ull;\n"
         "  return (h ^ (h >> 29)) & mask;\n}\n";
}

}  // namespace

std::string scatter_check_source(const IndexPlan& p, int mode, bool winner, bool wide, bool packed) {
  std::string s = index_source_prologue(p.k, p.unit, p.align16, p.index32) + winner_prelude(wide);
  s += "extern \"C\" __global__ void __launch_bounds__(256) copper_scatter_check(IndexParams a, WinnerParams w) {\n"
       "  const I nb = static_cast<I>(a.nb);\n"
       "  const I step = static_cast<I>(gridDim.x) * blockDim.x;\n"
       "  for (I b = static_cast<I>(blockIdx.x) * blockDim.x + threadIdx.x; b < nb; b += step) {\n"
       "    long long ob[K + 1];\n    copper::kern::offsets<K + 1, I>(a.lb, b, ob);\n";
  s += index_offset_code(p, mode, mode == 0, winner);
  s += "    (void)off;\n";
  if (winner && packed) {
    s += "    if (!ok) continue;\n"
         "    const unsigned long long bits = *reinterpret_cast<const E*>(a.other + ob[0]);\n"
         "    atomicMax(reinterpret_cast<unsigned long long*>(w.wins) + key,\n"
         "              (static_cast<unsigned long long>(b) + 1) << 32 | bits);\n";
  } else if (winner) {
    s += "    if (!ok) continue;\n"
         "    const W mark = static_cast<W>(b) + 1;\n"
         "    if (w.dense) {\n      atomicMax(&w.wins[key], mark);\n      continue;\n    }\n"
         "    for (unsigned long long slot = slot_of(key, w.mask);; slot = (slot + 1) & w.mask) {\n"
         "      const unsigned long long prev = atomicCAS(&w.keys[slot], ~0ull, key);\n"
         "      if (prev == ~0ull || prev == key) {\n        atomicMax(&w.wins[slot], mark);\n        break;\n      }\n"
         "    }\n";
  }
  s += "  }\n}\n";
  return s;
}

std::string scatter_source(const IndexPlan& p, int mode, bool winner, bool wide, bool checked) {
  std::string s = index_source_prologue(p.k, p.unit, p.align16, p.index32) + winner_prelude(wide);
  s += "extern \"C\" __global__ void __launch_bounds__(256) copper_scatter(IndexParams a, WinnerParams w) {\n";
  s += unit_loop_begin(checked);
  s += index_split_code(p);
  s += index_offset_code(p, mode, false, winner);
  s += "    if (!ok) continue;\n";
  if (winner) {
    s += "    W got;\n    if (w.dense) {\n      got = w.wins[key];\n    } else {\n"
         "      unsigned long long slot = slot_of(key, w.mask);\n"
         "      while (w.keys[slot] != key) slot = (slot + 1) & w.mask;\n"
         "      got = w.wins[slot];\n    }\n"
         "    if (got != static_cast<W>(b) + 1) continue;\n";
  }
  s += "    *reinterpret_cast<E*>(a.indexed + off + orr[1]) = *reinterpret_cast<const E*>(a.other + ob[0] + orr[0]);\n"
       "  }\n}\n";
  return s;
}

// Writes each target of a packed table that some position wrote (its low 32 bits), walking
// the table in order; the target's offset comes back from its dense key.
std::string scatter_flush_source(const IndexPlan& p, bool checked) {
  std::string s = index_source_prologue(p.k, p.unit, p.align16, p.index32) + winner_prelude(false);
  s += "extern \"C\" __global__ void __launch_bounds__(256) copper_scatter_flush(IndexParams a, WinnerParams w) {\n";
  if (checked) {
    s += "  __shared__ unsigned skip;\n"
         "  if (threadIdx.x == 0) skip = *reinterpret_cast<volatile unsigned*>(&a.err->flag);\n"
         "  __syncthreads();\n  if (skip) return;\n";
  }
  s += "  const unsigned long long* table = reinterpret_cast<const unsigned long long*>(w.wins);\n"
       "  const unsigned long long space = w.mask;\n"
       "  const unsigned long long step = static_cast<unsigned long long>(gridDim.x) * blockDim.x;\n"
       "  for (unsigned long long t = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x; t < space;"
       " t += step) {\n"
       "    const unsigned long long word = table[t];\n    if (!word) continue;\n";
  if (p.k == 1) {
    s += "    const long long off = static_cast<long long>(t) * a.stride[0];\n";
  } else {
    s += "    long long off = 0;\n    unsigned long long q = t;\n"
         "    for (int j = K - 1; j >= 0; --j) {\n"
         "      const unsigned long long n = static_cast<unsigned long long>(a.size[j]);\n"
         "      off += static_cast<long long>(q % n) * a.stride[j];\n      q /= n;\n    }\n";
  }
  s += "    *reinterpret_cast<E*>(a.indexed + off) = static_cast<E>(word & 0xffffffffull);\n  }\n}\n";
  return s;
}

void CudaBackend::scatter(const ArrayView& dst, const IndexArrays& index, const ArrayView& values, bool unique_targets) {
  IndexPlan p = plan_index(dst, index, values, true);
  if (p.nb == 0 || p.nr == 0) return;
  const int mode = static_cast<int>(index.mode);
  bool varying = false;  // do positions write different values?
  for (std::int64_t s : p.b.strides[0]) varying = varying || s != 0;
  const bool winner = !unique_targets && varying && p.nb > 1;
  const bool checked = mode == 0;
  IndexErrorRecord* err = checked ? index_error_record(index_) : nullptr;
  make_current(index_);
  WinnerTable table;
  if (winner) table = make_winner_table(index_, dst, p.k, p.nb, p.nr == 1 && p.unit <= 4);
  visit_index_count(p.k, [&]<int K>() {
    auto a = index_params<K>(p, dst, index, values, err);
    void* args[] = {&a, &table.params};
    if (checked || winner) {
      KeyBuilder key;
      key.add(kFamilyScatterCheck);
      add_plan_key(key, p, mode);
      key.add(winner ? 1u : 0u).add(table.wide ? 1u : 0u).add(table.packed ? 1u : 0u);
      CUfunction fn = get_kernel(
          index_, key.key(), [&] { return scatter_check_source(p, mode, winner, table.wide, table.packed); },
          "copper_scatter_check");
      launch(index_, fn, grid_for(index_, p.nb, 256, resident_blocks_per_sm(fn, 256)), 256, args, "scatter (check)");
    }
    if (table.packed) {
      KeyBuilder key;
      key.add(kFamilyScatterFlush);
      add_plan_key(key, p, mode);
      key.add(checked ? 1u : 0u);
      CUfunction fn = get_kernel(
          index_, key.key(), [&] { return scatter_flush_source(p, checked); }, "copper_scatter_flush");
      const auto space = static_cast<std::int64_t>(table.params.mask);
      launch(index_, fn, grid_for(index_, space, 256, resident_blocks_per_sm(fn, 256)), 256, args, "scatter");
      return;
    }
    KeyBuilder key;
    key.add(kFamilyScatter);
    add_plan_key(key, p, mode);
    key.add(winner ? 1u : 0u).add(table.wide ? 1u : 0u).add(checked ? 1u : 0u);
    CUfunction fn = get_kernel(
        index_, key.key(), [&] { return scatter_source(p, mode, winner, table.wide, checked); }, "copper_scatter");
    launch(index_, fn, grid_for(index_, p.nb * p.nr, 256, resident_blocks_per_sm(fn, 256)), 256, args, "scatter");
  });
  if (checked) note_index_check(index_);
}

}  // namespace copper::backend::cuda
