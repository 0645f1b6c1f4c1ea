// ufunc.at on the GPU: after the bounds check (family 61), repeated targets accumulate.
//  - Atomic path (family 63), one thread per unit: atomicAdd where the hardware has it
//    (add/subtract of same-dtype integers, floats and complex parts), else a
//    compare-and-swap loop over the target's word (1- and 2-byte targets through their
//    aligned 4-byte word) running the op catalogue's own functor. For ops whose repeated
//    application gives the same result in any order (up to float rounding).
//  - Ordered path, for the others (remainder, power, arctan2, comparisons, ...) and
//    complex128 ops without an atomic: each position's target (row-major over the
//    indexed axes) is written with the position (family 67), CUB sorts the pairs stably
//    by target (cub/indexing_sort.cu), and one thread per run of equal targets (and unit
//    of the moved block) applies that run's values in position order (family 68): NumPy's
//    order exactly, with no atomics.
#include <cmath>

#include "backend/cuda/aot_call.h"

#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_indexing.h"
#include "backend/cuda/cuda_memory.h"
#include "backend/cuda/kernel_families.h"

namespace copper::backend::cuda {

namespace {

using ops::UfuncId;

// Binary ops where applying values in any order gives NumPy's result (up to the rounding
// of floating sums and products).
bool order_free(UfuncId op) {
  switch (op) {
    case UfuncId::add: case UfuncId::subtract: case UfuncId::multiply: case UfuncId::true_divide:
    case UfuncId::maximum: case UfuncId::minimum: case UfuncId::fmax: case UfuncId::fmin:
    case UfuncId::hypot: case UfuncId::logical_and: case UfuncId::logical_or: case UfuncId::logical_xor:
    case UfuncId::bitwise_and: case UfuncId::bitwise_or: case UfuncId::bitwise_xor:
    case UfuncId::left_shift: case UfuncId::right_shift:
      return true;
    default:
      return false;
  }
}

// The atomicAdd spelling for a same-dtype add/subtract, or "" when there is none.
std::string native_add(UfuncId op, DType t, DType loop) {
  if (t != loop || (op != UfuncId::add && op != UfuncId::subtract)) return "";
  const bool sub = op == UfuncId::subtract;
  switch (t) {
    case DType::int32: case DType::uint32:
      return std::string("atomicAdd(reinterpret_cast<unsigned*>(p), ") + (sub ? "0u - " : "") + "static_cast<unsigned>(y));";
    case DType::int64: case DType::uint64:
      return std::string("atomicAdd(reinterpret_cast<unsigned long long*>(p), ") + (sub ? "0ull - " : "") +
             "static_cast<unsigned long long>(y));";
    case DType::float32: case DType::float64:
      return std::string("atomicAdd(reinterpret_cast<L*>(p), ") + (sub ? "-y" : "y") + ");";
    case DType::complex64: case DType::complex128:
      return std::string("atomicAdd(&reinterpret_cast<L*>(p)->re, ") + (sub ? "-y.re" : "y.re") +
             ");\n    atomicAdd(&reinterpret_cast<L*>(p)->im, " + (sub ? "-y.im" : "y.im") + ");";
    default:
      return "";
  }
}

// Whether the atomic path serves (op, target dtype, loop dtype).
bool atomic_path(UfuncId op, int nin, DType t, DType loop) {
  if (nin == 2 && !order_free(op)) return false;
  return itemsize(t) <= 8 || !native_add(op, t, loop).empty();
}

std::string at_result_code(ops::UfuncId op, DType t, DType loop, bool binary) {
  const DType out = *ops::out_dtype(op, loop);
  std::string s = std::string("typedef ") + device_type_name(t) + " D;\ntypedef " + device_type_name(loop) +
                  " L;\ntypedef " + device_type_name(out) + " O;\n";
  s += "__device__ __forceinline__ D at_result(D cur, const char* vp) {\n"
       "  const L x = copper::ops::cast<L>(cur);\n";
  if (binary) s += "  const L y = copper::kern::load_element<L>(vp);\n";
  else s += "  (void)vp;\n";
  s += "  const O r = copper::ops::invoke<copper::ops::" + std::string(ops::info(op).name) + ", O>(x" +
       (binary ? ", y" : "") + ");\n";
  return s + "  return copper::ops::cast<D>(r);\n}\n";
}

}  // namespace

std::string scatter_apply_source(const IndexPlan& p, int mode, ops::UfuncId op, DType t, DType loop, bool binary,
                                 bool checked) {
  std::string s = index_source_prologue(p.k, p.unit, p.align16, p.index32) + at_result_code(op, t, loop, binary);
  s += "template <class T, class U> __device__ __forceinline__ T bits_as(U u) {\n"
       "  static_assert(sizeof(T) == sizeof(U), \"same size\");\n  T t;\n"
       "  const unsigned char* from = reinterpret_cast<const unsigned char*>(&u);\n"
       "  unsigned char* to = reinterpret_cast<unsigned char*>(&t);\n"
       "#pragma unroll\n  for (int i = 0; i < static_cast<int>(sizeof(T)); ++i) to[i] = from[i];\n  return t;\n}\n";
  s += "__device__ __forceinline__ void update(char* p, const char* vp) {\n";
  const std::string native = binary ? native_add(op, t, loop) : "";
  const int size = static_cast<int>(itemsize(t));
  if (!native.empty()) {
    s += "  const L y = copper::kern::load_element<L>(vp);\n  " + native + "\n";
  } else if (size == 4 || size == 8) {
    const std::string W = size == 4 ? "unsigned" : "unsigned long long";
    s += "  " + W + "* word = reinterpret_cast<" + W + "*>(p);\n  " + W + " old = *word, assumed;\n"
         "  do {\n    assumed = old;\n    const D nv = at_result(bits_as<D>(assumed), vp);\n"
         "    old = atomicCAS(word, assumed, bits_as<" + W + ">(nv));\n  } while (old != assumed);\n";
  } else {  // 1 or 2 bytes: the aligned 4-byte word holding the target
    const std::string U = size == 1 ? "unsigned char" : "unsigned short";
    const std::string mask = size == 1 ? "0xffu" : "0xffffu";
    s += "  const unsigned long long addr = reinterpret_cast<unsigned long long>(p);\n"
         "  unsigned* word = reinterpret_cast<unsigned*>(addr & ~3ull);\n"
         "  const unsigned shift = static_cast<unsigned>(addr & 3ull) * 8u;\n"
         "  unsigned old = *word, assumed;\n"
         "  do {\n    assumed = old;\n"
         "    const D cur = bits_as<D>(static_cast<" + U + ">((assumed >> shift) & " + mask + "));\n"
         "    const unsigned part = static_cast<unsigned>(bits_as<" + U + ">(at_result(cur, vp)));\n"
         "    old = atomicCAS(word, assumed, (assumed & ~(" + mask + " << shift)) | (part << shift));\n"
         "  } while (old != assumed);\n";
  }
  s += "}\n";
  s += "extern \"C\" __global__ void __launch_bounds__(256) copper_scatter_apply(IndexParams a) {\n";
  s += unit_loop_begin(checked);
  s += index_split_code(p);
  s += index_offset_code(p, mode, false, false);
  s += "    if (!ok) continue;\n    update(a.indexed + off + orr[1], a.other + ob[0] + orr[0]);\n  }\n}\n";
  return s;
}

std::string at_keys_source(const IndexPlan& p, int mode) {
  std::string s = index_source_prologue(p.k, p.unit, p.align16, p.index32);
  s += "extern \"C\" __global__ void __launch_bounds__(256) copper_at_keys(IndexParams a, unsigned long long* keys,\n"
       "                                                                 long long* positions) {\n"
       "  const I nb = static_cast<I>(a.nb);\n"
       "  const I step = static_cast<I>(gridDim.x) * blockDim.x;\n"
       "  for (I b = static_cast<I>(blockIdx.x) * blockDim.x + threadIdx.x; b < nb; b += step) {\n"
       "    long long ob[K + 1];\n    copper::kern::offsets<K + 1, I>(a.lb, b, ob);\n";
  s += index_offset_code(p, mode, false, true);
  s += "    (void)off;\n    keys[b] = ok ? key : 0ull;\n    positions[b] = static_cast<long long>(b);\n  }\n}\n";
  return s;
}

std::string at_ordered_source(const IndexPlan& p, int mode, ops::UfuncId op, DType t, DType loop, bool binary,
                              bool checked) {
  std::string s = index_source_prologue(p.k, p.unit, p.align16, p.index32) + at_result_code(op, t, loop, binary);
  s += "extern \"C\" __global__ void __launch_bounds__(256) copper_at_ordered(IndexParams a,\n"
       "    const unsigned long long* keys, const long long* positions) {\n";
  s += unit_loop_begin(checked);
  s += "    const I i = e / static_cast<I>(a.nr), r = e - i * static_cast<I>(a.nr);\n"
       "    if (i > 0 && keys[i] == keys[i - 1]) continue;  // not the first of its run of targets\n"
       "    long long orr[2] = {0, 0};\n";
  if (p.nr > 1) s += "    copper::kern::offsets<2, I>(a.lr, r, orr);\n";
  s += "    (void)r;\n"
       "    for (I j = i; j < static_cast<I>(a.nb) && keys[j] == keys[i]; ++j) {\n"
       "      const I b = static_cast<I>(positions[j]);\n"
       "      long long ob[K + 1];\n      copper::kern::offsets<K + 1, I>(a.lb, b, ob);\n";
  s += index_offset_code(p, mode, false, false);
  s += "      if (!ok) continue;\n"
       "      D* target = reinterpret_cast<D*>(a.indexed + off + orr[1]);\n"
       "      *target = at_result(*target, a.other + ob[0] + orr[0]);\n    }\n  }\n}\n";
  return s;
}

void CudaBackend::scatter_apply(ops::UfuncId op, DType loop, const ArrayView& dst, const IndexArrays& index,
                                const ArrayView* values) {
  const bool binary = values != nullptr;
  ArrayView other;
  if (binary) {
    other = *values;
  } else {  // the B + R walk still needs an operand: a zero-strided stand-in
    other = ArrayView{nullptr, loop, index.arrays.at(0).shape, {}};
    other.shape.insert(other.shape.end(), dst.shape.begin() + static_cast<std::ptrdiff_t>(index.arrays.size()),
                       dst.shape.end());
    other.strides.assign(other.shape.size(), 0);
  }
  IndexPlan p = plan_index(dst, index, other, false);
  if (p.nb == 0 || p.nr == 0) return;
  const int mode = static_cast<int>(index.mode);
  const bool checked = mode == 0;
  const bool atomic = atomic_path(op, binary ? 2 : 1, dst.dtype, loop);
  IndexErrorRecord* err = checked ? index_error_record(index_) : nullptr;
  // The ordered path's (target, position) pairs: sorted, then unsorted, keys and positions.
  std::shared_ptr<Buffer> pairs;
  int end_bit = 64;
  if (!atomic) {
    long double space = 1;
    for (int j = 0; j < p.k; ++j) space *= static_cast<long double>(dst.shape[j]);
    end_bit = 1;
    while (end_bit < 64 && std::ldexp(1.0L, end_bit) < space) ++end_bit;
    pairs = allocate_device(index_, static_cast<std::size_t>(p.nb) * 32);
  }
  auto* keys = pairs ? static_cast<unsigned long long*>(pairs->data()) : nullptr;
  auto* positions = pairs ? reinterpret_cast<long long*>(keys + 2 * p.nb) : nullptr;
  visit_index_count(p.k, [&]<int K>() {
    auto a = index_params<K>(p, dst, index, other, err);
    if (checked) {
      unsigned long long no_table[4] = {};  // the check kernel's unused WinnerParams
      void* args[] = {&a, no_table};
      KeyBuilder key;
      key.add(kFamilyScatterCheck);
      add_plan_key(key, p, mode);
      key.add(0u).add(0u);
      CUfunction fn = get_kernel(
          index_, key.key(), [&] { return scatter_check_source(p, mode, false, false); }, "copper_scatter_check");
      launch(index_, fn, grid_for(index_, p.nb, 256, resident_blocks_per_sm(fn, 256)), 256, args, "ufunc.at (check)");
    }
    KeyBuilder key;
    key.add(atomic ? kFamilyScatterApply : kFamilyAtOrdered);
    add_plan_key(key, p, mode);
    key.add(static_cast<unsigned>(op)).add(static_cast<unsigned>(dst.dtype)).add(static_cast<unsigned>(loop));
    key.add(binary ? 1u : 0u).add(checked ? 1u : 0u);
    if (atomic) {
      CUfunction fn = get_kernel(
          index_, key.key(), [&] { return scatter_apply_source(p, mode, op, dst.dtype, loop, binary, checked); },
          "copper_scatter_apply");
      void* args[] = {&a};
      launch(index_, fn, grid_for(index_, p.nb * p.nr, 256, resident_blocks_per_sm(fn, 256)), 256, args, "ufunc.at");
      return;
    }
    KeyBuilder keys_key;
    keys_key.add(kFamilyAtKeys);
    add_plan_key(keys_key, p, mode);
    CUfunction keys_fn = get_kernel(index_, keys_key.key(), [&] { return at_keys_source(p, mode); }, "copper_at_keys");
    unsigned long long* unsorted_keys = keys + p.nb;
    long long* unsorted_positions = positions + p.nb;
    void* key_args[] = {&a, &unsorted_keys, &unsorted_positions};
    launch(index_, keys_fn, grid_for(index_, p.nb, 256, resident_blocks_per_sm(keys_fn, 256)), 256, key_args,
           "ufunc.at (targets)");
    {
      AotCall call(index_, "ufunc.at (sort by target)");
      aot::sort_positions_by_target(call.launch(), reinterpret_cast<const std::uint64_t*>(unsorted_keys),
                                    reinterpret_cast<std::uint64_t*>(keys),
                                    reinterpret_cast<const std::int64_t*>(unsorted_positions),
                                    reinterpret_cast<std::int64_t*>(positions), p.nb, end_bit);
    }
    CUfunction fn = get_kernel(
        index_, key.key(), [&] { return at_ordered_source(p, mode, op, dst.dtype, loop, binary, checked); },
        "copper_at_ordered");
    void* args[] = {&a, &keys, &positions};
    launch(index_, fn, grid_for(index_, p.nb * p.nr, 256, resident_blocks_per_sm(fn, 256)), 256, args,
           "ufunc.at (in order)");
  });
  if (checked) note_index_check(index_);
}

}  // namespace copper::backend::cuda
