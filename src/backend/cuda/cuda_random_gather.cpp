// take_rows on the GPU: out[i, ...] = src[rows[i], ...] (choice, permutation, shuffle
// of device arrays without a trip through host memory). One thread per output element
// of `element_bytes` bytes; rows that are contiguous move in the widest aligned units
// (up to 16 bytes), other layouts element by element through a collapsed strided layout.
#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_codegen.h"
#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_random.h"
#include "backend/cuda/kernel_families.h"

namespace copper::backend::cuda {
namespace {

struct TakeArgs {  // mirrors the struct in take_rows_source()
  const void* src;
  const long long* rows;
  void* out;
  long long m, per_row, stride0;
  FastDiv row_div;
  StridedLayoutParam<1> layout;
};

}  // namespace

std::string take_rows_source(int element_bytes, bool align16, bool index32) {
  std::string s = source_prologue();
  s += std::string("struct ") + (align16 ? "alignas(16) " : "alignas(8) ") + "E16 { unsigned long long x, y; };\n";
  s += std::string("typedef ") + unit_type_name(element_bytes) + " E;\n";
  s += std::string("typedef ") + (index32 ? "unsigned" : "long long") + " I;\n";
  s += "struct TakeArgs { const void* src; const long long* rows; void* out; long long m, per_row, stride0;\n"
       "  copper::kern::FastDiv row_div; copper::kern::StridedLayout<1> l; };\n"
       "extern \"C\" __global__ void __launch_bounds__(256) copper_take_rows(TakeArgs a) {\n"
       "  const long long total = a.m * a.per_row;\n"
       "  const long long step = static_cast<long long>(gridDim.x) * blockDim.x;\n"
       "  E* out = reinterpret_cast<E*>(a.out);\n"
       "  for (long long e = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; e < total; e += step) {\n"
       "    I row, col;\n"
       "    if (a.per_row == 1) {\n"
       "      row = static_cast<I>(e);\n"
       "      col = 0;\n"
       "    } else {\n"
       "      if constexpr (sizeof(I) == 4) row = a.row_div.div(static_cast<I>(e));\n"
       "      else row = static_cast<I>(e / a.per_row);\n"
       "      col = static_cast<I>(e) - row * static_cast<I>(a.per_row);\n"
       "    }\n"
       "    long long off[1];\n"
       "    copper::kern::offsets<1, I>(a.l, col, off);\n"
       "    const char* p = static_cast<const char*>(a.src) + a.rows[row] * a.stride0 + off[0];\n"
       "    out[e] = *reinterpret_cast<const E*>(p);\n"
       "  }\n}\n";
  return s;
}

void CudaBackend::take_rows(const ArrayView& src, const ArrayView& rows, const ArrayView& out) {
  const std::int64_t m = shape_size(rows.shape);
  const Shape row_shape(src.shape.begin() + 1, src.shape.end());
  Strides row_strides(src.strides.begin() + 1, src.strides.end());
  const std::int64_t row_elems = shape_size(row_shape);
  if (m == 0 || row_elems == 0) return;
  const std::int64_t item = static_cast<std::int64_t>(itemsize(src.dtype));
  const Strides* strides[] = {&row_strides};
  CollapsedLayout layout = collapse(row_shape, strides);
  int bytes = static_cast<int>(item);
  std::int64_t per_row = row_elems;
  if (layout.shape.size() == 1 && (layout.shape[0] == 1 || layout.strides[0][0] == item)) {
    // Contiguous rows: move them in the widest unit every address and length allows.
    const std::int64_t row_bytes = row_elems * item;
    for (int w : {16, 8, 4, 2}) {
      if (w <= bytes) break;
      if (row_bytes % w == 0 && src.strides[0] % w == 0 && aligned(src.data, w) && aligned(out.data, w)) {
        bytes = w;
        break;
      }
    }
    per_row = row_bytes / bytes;
    layout.shape = {per_row};
    layout.strides = {{bytes}};
  }
  const bool align16 = bytes == 16 && aligned(src.data, 16) && aligned(out.data, 16) && src.strides[0] % 16 == 0 &&
                       [&] {
                         for (std::int64_t s : layout.strides[0]) if (s % 16) return false;
                         return true;
                       }();
  const std::int64_t total = m * per_row;
  bool index32 = total <= 0xffffffffLL;
  for (std::int64_t d : layout.shape) index32 = index32 && d <= 0xffffffffLL;
  TakeArgs a{src.data, static_cast<const long long*>(rows.data), out.data, m, per_row, src.strides[0],
             make_fast_div(static_cast<unsigned>(index32 ? per_row : 1)), strided_param<1>(layout)};
  KeyBuilder key;
  key.add(kFamilyTakeRows).add(static_cast<unsigned>(bytes)).add(align16 ? 1u : 0u).add(index32 ? 1u : 0u);
  CUfunction fn = get_kernel(
      index_, key.key(), [&] { return take_rows_source(bytes, align16, index32); }, "copper_take_rows");
  void* args[] = {&a};
  const unsigned grid = grid_for(index_, total, 256, resident_blocks_per_sm(fn, 256));
  launch(index_, fn, grid, 256, args, "take_rows");
}

}  // namespace copper::backend::cuda
