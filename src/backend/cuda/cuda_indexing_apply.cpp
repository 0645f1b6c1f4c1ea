// ufunc.at on the GPU (family 63): after the bounds check (family 61), one thread per
// unit applies the op to its target atomically, so repeated targets accumulate:
// atomicAdd where the hardware has it (add/subtract of same-dtype integers, floats and
// complex parts), else a compare-and-swap loop over the target's word (1- and 2-byte
// targets through their aligned 4-byte word) running the op catalogue's own functor.
// Ops whose repeated application depends on the order (remainder, power, comparisons,
// ...) and ops on complex128 other than add/subtract go to the host in NumPy's order
// (a synchronizing fallback until a device-wide sort serves it).
#include <vector>

#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_indexing.h"
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

bool runs_on_device(UfuncId op, int nin, DType t, DType loop) {
  if (nin == 2 && !order_free(op)) return false;
  return itemsize(t) <= 8 || !native_add(op, t, loop).empty();
}

// Applies the op to one target on the host, in NumPy's order: the targets, indices and
// values come over, the CPU backend runs ufunc.at, and the targets go back.
void apply_on_host(Backend& gpu, ops::UfuncId op, DType loop, const ArrayView& dst, const IndexArrays& index,
                   const ArrayView* values) {
  std::vector<std::vector<char>> buffers;
  buffers.reserve(index.arrays.size() + 2);
  auto to_host = [&](const ArrayView& v) {
    std::vector<char>& buf = buffers.emplace_back(static_cast<std::size_t>(shape_size(v.shape) * itemsize(v.dtype)));
    if (!buf.empty()) gpu.copy_to_host(v, buf.data());
    return ArrayView{buf.data(), v.dtype, v.shape, c_strides(v.shape, itemsize(v.dtype))};
  };
  ArrayView host_dst = to_host(dst);
  IndexArrays host_index{{}, index.axes, index.mode};
  for (const ArrayView& a : index.arrays) host_index.arrays.push_back(to_host(a));
  ArrayView host_values;
  if (values) host_values = to_host(*values);
  backend_for(copper::cpu).scatter_apply(op, loop, host_dst, host_index, values ? &host_values : nullptr);
  gpu.copy_from_host(host_dst.data, dst);
}

}  // namespace

std::string scatter_apply_source(const IndexPlan& p, int mode, ops::UfuncId op, DType t, DType loop, bool binary,
                                 bool checked) {
  const DType out = *ops::out_dtype(op, loop);
  std::string s = index_source_prologue(p.k, p.unit, p.align16, p.index32);
  s += std::string("typedef ") + device_type_name(t) + " D;\ntypedef " + device_type_name(loop) + " L;\ntypedef " +
       device_type_name(out) + " O;\n";
  s += "template <class T, class U> __device__ __forceinline__ T bits_as(U u) {\n"
       "  static_assert(sizeof(T) == sizeof(U), \"same size\");\n  T t;\n"
       "  const unsigned char* from = reinterpret_cast<const unsigned char*>(&u);\n"
       "  unsigned char* to = reinterpret_cast<unsigned char*>(&t);\n"
       "#pragma unroll\n  for (int i = 0; i < static_cast<int>(sizeof(T)); ++i) to[i] = from[i];\n  return t;\n}\n";
  s += "__device__ __forceinline__ D at_result(D cur, const char* vp) {\n"
       "  const L x = copper::ops::cast<L>(cur);\n";
  if (binary) s += "  const L y = *reinterpret_cast<const L*>(vp);\n";
  else s += "  (void)vp;\n";
  s += "  const O r = copper::ops::invoke<copper::ops::" + std::string(ops::info(op).name) + ", O>(x" +
       (binary ? ", y" : "") + ");\n";
  s += "  return copper::ops::cast<D>(r);\n}\n";
  s += "__device__ __forceinline__ void update(char* p, const char* vp) {\n";
  const std::string native = binary ? native_add(op, t, loop) : "";
  const int size = static_cast<int>(itemsize(t));
  if (!native.empty()) {
    s += "  const L y = *reinterpret_cast<const L*>(vp);\n  " + native + "\n";
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

void CudaBackend::scatter_apply(ops::UfuncId op, DType loop, const ArrayView& dst, const IndexArrays& index,
                                const ArrayView* values) {
  const bool binary = values != nullptr;
  if (!runs_on_device(op, binary ? 2 : 1, dst.dtype, loop)) return apply_on_host(*this, op, loop, dst, index, values);
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
  IndexErrorRecord* err = checked ? index_error_record(index_) : nullptr;
  visit_index_count(p.k, [&]<int K>() {
    auto a = index_params<K>(p, dst, index, other, err);
    unsigned long long no_table[4] = {};  // the check kernel's unused WinnerParams
    if (checked) {
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
    key.add(kFamilyScatterApply);
    add_plan_key(key, p, mode);
    key.add(static_cast<unsigned>(op)).add(static_cast<unsigned>(dst.dtype)).add(static_cast<unsigned>(loop));
    key.add(binary ? 1u : 0u).add(checked ? 1u : 0u);
    CUfunction fn = get_kernel(
        index_, key.key(), [&] { return scatter_apply_source(p, mode, op, dst.dtype, loop, binary, checked); },
        "copper_scatter_apply");
    void* args[] = {&a};
    launch(index_, fn, grid_for(index_, p.nb * p.nr, 256, resident_blocks_per_sm(fn, 256)), 256, args, "ufunc.at");
  });
  if (checked) note_index_check(index_);
}

}  // namespace copper::backend::cuda
