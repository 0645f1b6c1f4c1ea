// Gathers on the GPU (x[idx], take, every mix of advanced indices over any strided
// source): one generated kernel (family 60), one thread per output unit. Each thread
// finds its index position b and place r in the moved block, reads the K indices of b
// through their own strides, checks them (recording the first bad one; never reading
// out of bounds) and moves one unit. Rows that are contiguous move in up to 16 bytes.
#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_indexing.h"
#include "backend/cuda/kernel_families.h"

namespace copper::backend::cuda {

namespace {

bool all_multiple(const std::vector<std::int64_t>& v, std::int64_t w) {
  for (std::int64_t s : v)
    if (s % w) return false;
  return true;
}

}  // namespace

IndexPlan plan_index(const ArrayView& indexed, const IndexArrays& index, const ArrayView& other, bool widen) {
  IndexPlan p;
  p.k = static_cast<int>(index.arrays.size());
  const std::size_t nbd = other.shape.size() - (indexed.shape.size() - p.k);
  const Shape b_shape(other.shape.begin(), other.shape.begin() + nbd);
  const Shape r_shape(indexed.shape.begin() + p.k, indexed.shape.end());
  const Strides other_b(other.strides.begin(), other.strides.begin() + nbd);
  const Strides other_r(other.strides.begin() + nbd, other.strides.end());
  const Strides indexed_r(indexed.strides.begin() + p.k, indexed.strides.end());
  std::vector<const Strides*> bs{&other_b};
  for (const ArrayView& a : index.arrays) {
    bs.push_back(&a.strides);
    p.index_dtypes.push_back(a.dtype);
  }
  p.b = collapse(b_shape, bs);
  const Strides* rs[] = {&other_r, &indexed_r};
  p.r = collapse(r_shape, rs);
  p.nb = shape_size(b_shape);
  p.nr = shape_size(r_shape);
  const int item = static_cast<int>(itemsize(indexed.dtype));
  p.unit = item;
  const bool rows_contiguous =
      p.r.shape.size() == 1 && (p.r.shape[0] == 1 || (p.r.strides[0][0] == item && p.r.strides[1][0] == item));
  if (widen && rows_contiguous) {
    const std::int64_t row_bytes = p.nr * item;
    std::vector<std::int64_t> steps(indexed.strides.begin(), indexed.strides.begin() + p.k);
    for (int w : {16, 8, 4, 2}) {
      if (w <= item) break;
      if (row_bytes % w == 0 && all_multiple(steps, w) && all_multiple(p.b.strides[0], w) &&
          aligned(indexed.data, w) && aligned(other.data, w)) {
        p.unit = w;
        break;
      }
    }
    p.nr = row_bytes / p.unit;
    p.r.shape = {p.nr};
    p.r.strides = {{p.unit}, {p.unit}};
  }
  p.align16 = p.unit == 16 && aligned(indexed.data, 16) && aligned(other.data, 16) &&
              all_multiple(std::vector<std::int64_t>(indexed.strides.begin(), indexed.strides.begin() + p.k), 16) &&
              all_multiple(p.b.strides[0], 16) && all_multiple(p.r.strides[0], 16) && all_multiple(p.r.strides[1], 16);
  p.index32 = p.nb * p.nr <= 0xffffffffLL;
  for (std::int64_t d : p.b.shape) p.index32 = p.index32 && d <= 0xffffffffLL;
  for (std::int64_t d : p.r.shape) p.index32 = p.index32 && d <= 0xffffffffLL;
  return p;
}

std::string index_source_prologue(int k, int unit, bool align16, bool index32) {
  std::string s = source_prologue();
  s += "#include \"copper_kernels/indexing.cuh\"\n";
  s += std::string("struct ") + (align16 ? "alignas(16) " : "alignas(8) ") + "E16 { unsigned long long x, y; };\n";
  s += std::string("typedef ") + unit_type_name(unit) + " E;\n";
  s += std::string("typedef ") + (index32 ? "unsigned" : "long long") + " I;\n";
  const std::string K = std::to_string(k);
  s += "constexpr int K = " + K + ";\n";
  s += "struct IndexParams {\n  char* indexed;\n  char* other;\n  copper::kern::IndexErrorRecord* err;\n"
       "  const char* idx[K];\n  long long size[K];\n  long long stride[K];\n  int axis[K];\n"
       "  long long nb, nr, total;\n  copper::kern::FastDiv r_div;\n  copper::kern::StridedLayout<K + 1> lb;\n"
       "  copper::kern::StridedLayout<2> lr;\n};\n";
  return s;
}

std::string index_offset_code(const IndexPlan& p, int mode, bool record, bool key) {
  std::string s = "    long long off = 0;\n    bool ok = true;\n";
  if (key) s += "    unsigned long long key = 0;\n";
  for (int j = 0; j < p.k; ++j) {
    const std::string J = std::to_string(j);
    s += "    {\n      const long long v = static_cast<long long>(*reinterpret_cast<const " +
         std::string(device_type_name(p.index_dtypes[j])) + "*>(a.idx[" + J + "] + ob[" + std::to_string(j + 1) +
         "]));\n      long long w = v;\n      if (!copper::kern::normalize_index<" + std::to_string(mode) + ">(w, a.size[" +
         J + "])) {\n";
    if (record) s += "        copper::kern::record_index_error(a.err, v, a.axis[" + J + "], a.size[" + J + "]);\n";
    s += "        ok = false;\n      }\n      off += w * a.stride[" + J + "];\n";
    if (key) s += "      key = key * static_cast<unsigned long long>(a.size[" + J + "]) + static_cast<unsigned long long>(w);\n";
    s += "    }\n";
  }
  return s;
}

std::string unit_loop_begin(bool skip_when_failed) {
  std::string s;
  if (skip_when_failed) {  // the check kernel before this one found a bad index: write nothing
    s += "  __shared__ unsigned skip;\n"
         "  if (threadIdx.x == 0) skip = *reinterpret_cast<volatile unsigned*>(&a.err->flag);\n"
         "  __syncthreads();\n  if (skip) return;\n";
  }
  return s + "  const I total = static_cast<I>(a.total);\n"
             "  const I step = static_cast<I>(gridDim.x) * blockDim.x;\n"
             "  for (I e = static_cast<I>(blockIdx.x) * blockDim.x + threadIdx.x; e < total; e += step) {\n";
}

std::string index_split_code(const IndexPlan& p) {
  std::string s = "    I b, r;\n";
  if (p.nr == 1) {
    s += "    b = e;\n    r = 0;\n";
  } else if (p.index32) {
    s += "    b = a.r_div.div(e);\n    r = e - b * static_cast<I>(a.nr);\n";
  } else {
    s += "    b = e / static_cast<I>(a.nr);\n    r = e - b * static_cast<I>(a.nr);\n";
  }
  s += "    long long ob[K + 1];\n    copper::kern::offsets<K + 1, I>(a.lb, b, ob);\n"
       "    long long orr[2] = {0, 0};\n";
  if (p.nr > 1) s += "    copper::kern::offsets<2, I>(a.lr, r, orr);\n";
  s += "    (void)r;\n";
  return s;
}

void add_plan_key(KeyBuilder& key, const IndexPlan& p, int mode) {
  unsigned dtype_bits = 0;
  for (int j = 0; j < p.k; ++j) dtype_bits |= (p.index_dtypes[j] == int32 ? 1u : 0u) << j;
  key.add(static_cast<unsigned>(p.k))
      .add(dtype_bits & 0xff)
      .add(dtype_bits >> 8)
      .add(static_cast<unsigned>(p.unit))
      .add(p.align16 ? 1u : 0u)
      .add(p.index32 ? 1u : 0u)
      .add(p.nr > 1 ? 1u : 0u)
      .add(static_cast<unsigned>(mode));
}

std::string gather_source(const IndexPlan& p, int mode) {
  std::string s = index_source_prologue(p.k, p.unit, p.align16, p.index32);
  s += "extern \"C\" __global__ void __launch_bounds__(256) copper_gather(IndexParams a) {\n";
  s += unit_loop_begin(false);
  s += index_split_code(p);
  s += index_offset_code(p, mode, true, false);
  s += "    E v{};\n    if (ok) v = *reinterpret_cast<const E*>(a.indexed + off + orr[1]);\n"
       "    *reinterpret_cast<E*>(a.other + ob[0] + orr[0]) = v;\n  }\n}\n";
  return s;
}

// One index array over one axis, element by element (x[idx] of a 1-d x, take without
// an axis): each thread loads kUnroll indices first, then issues their kUnroll random
// reads together, then stores; a block covers 256 * kUnroll consecutive outputs. The
// general kernel has one random read in flight per thread.
std::string flat_gather_source(const IndexPlan& p, int mode) {
  std::string s = index_source_prologue(p.k, p.unit, p.align16, p.index32);
  s += "typedef " + std::string(device_type_name(p.index_dtypes[0])) + " Idx;\n";
  s += "extern \"C\" __global__ void __launch_bounds__(256) copper_gather(IndexParams a) {\n"
       "  constexpr int kUnroll = 4;\n"
       "  const long long out_step = a.lb.strides[0][0], idx_step = a.lb.strides[1][0];\n"
       "  const long long first = static_cast<long long>(blockIdx.x) * (256 * kUnroll) + threadIdx.x;\n"
       "  long long w[kUnroll];\n  bool ok[kUnroll];\n"
       "#pragma unroll\n  for (int u = 0; u < kUnroll; ++u) {\n"
       "    const long long e = first + u * 256;\n    ok[u] = false;\n    w[u] = 0;\n"
       "    if (e < a.total) {\n"
       "      const long long v = static_cast<long long>(*reinterpret_cast<const Idx*>(a.idx[0] + e * idx_step));\n"
       "      w[u] = v;\n      ok[u] = copper::kern::normalize_index<" + std::to_string(mode) + ">(w[u], a.size[0]);\n"
       "      if (!ok[u]) copper::kern::record_index_error(a.err, v, a.axis[0], a.size[0]);\n"
       "    }\n  }\n"
       "  E v[kUnroll];\n"
       "#pragma unroll\n  for (int u = 0; u < kUnroll; ++u) {\n"
       "    v[u] = E{};\n    if (ok[u]) v[u] = *reinterpret_cast<const E*>(a.indexed + w[u] * a.stride[0]);\n  }\n"
       "#pragma unroll\n  for (int u = 0; u < kUnroll; ++u) {\n"
       "    const long long e = first + u * 256;\n"
       "    if (e < a.total) *reinterpret_cast<E*>(a.other + e * out_step) = v[u];\n  }\n}\n";
  return s;
}

void CudaBackend::gather(const ArrayView& src, const IndexArrays& index, const ArrayView& out) {
  IndexPlan p = plan_index(src, index, out, true);
  if (p.nb == 0 || p.nr == 0) return;
  const int mode = static_cast<int>(index.mode);
  IndexErrorRecord* err = mode == 0 ? index_error_record(index_) : nullptr;
  const bool flat = p.k == 1 && p.nr == 1 && p.b.shape.size() == 1;
  KeyBuilder key;
  key.add(kFamilyGather);
  add_plan_key(key, p, mode);
  key.add(flat ? 1u : 0u);
  CUfunction fn = get_kernel(
      index_, key.key(), [&] { return flat ? flat_gather_source(p, mode) : gather_source(p, mode); }, "copper_gather");
  const unsigned grid = flat ? static_cast<unsigned>((p.nb + 1023) / 1024)
                             : grid_for(index_, p.nb * p.nr, 256, resident_blocks_per_sm(fn, 256));
  visit_index_count(p.k, [&]<int K>() {
    auto a = index_params<K>(p, src, index, out, err);
    void* args[] = {&a};
    launch(index_, fn, grid, 256, args, "gather");
  });
  if (mode == 0) note_index_check(index_);
}

}  // namespace copper::backend::cuda
