// Host side of the GPU gathers, scatters and ufunc.at (cuda_indexing_*.cpp): one
// parameter block for all three, one planner that collapses the index space B and the
// moved block R, and the source pieces every kernel of the family shares.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "backend/cuda/cuda_codegen.h"
#include "backend/cuda/cuda_index_errors.h"

namespace copper::backend::cuda {

constexpr int kMaxIndexArrays = 16;

// How a gather, scatter or ufunc.at runs: K index arrays over B (collapsed together with
// the other operand), R collapsed over both operands; R moves in `unit`-byte pieces
// (wider than an element where rows are contiguous and aligned).
struct IndexPlan {
  int k = 0;
  std::int64_t nb = 0, nr = 0;
  int unit = 0;
  bool align16 = false;  // unit 16 with every address 16-byte aligned
  bool index32 = false;  // every loop index fits 32 bits (fast division)
  CollapsedLayout b, r;  // b: [0] other, [1 + j] index j; r: [0] other, [1] indexed
  std::vector<DType> index_dtypes;
};
// `widen`: move R in the widest aligned units (plain copies only, not ufunc.at).
IndexPlan plan_index(const ArrayView& indexed, const IndexArrays& index, const ArrayView& other, bool widen);

// Mirrors the IndexParams struct of index_params_source(K) byte for byte.
template <int K>
struct IndexParams {
  char* indexed;
  char* other;
  IndexErrorRecord* err;
  const char* idx[K];
  long long size[K];
  long long stride[K];
  int axis[K];
  long long nb, nr, total;
  FastDiv r_div;
  StridedLayoutParam<K + 1> lb;
  StridedLayoutParam<2> lr;
};

// Fills the block for kernels of K index arrays.
template <int K>
IndexParams<K> index_params(const IndexPlan& p, const ArrayView& indexed, const IndexArrays& index,
                            const ArrayView& other, IndexErrorRecord* err) {
  IndexParams<K> a{};
  a.indexed = static_cast<char*>(indexed.data);
  a.other = static_cast<char*>(other.data);
  a.err = err;
  for (int j = 0; j < K; ++j) {
    a.idx[j] = static_cast<const char*>(index.arrays[j].data);
    a.size[j] = indexed.shape[j];
    a.stride[j] = indexed.strides[j];
    a.axis[j] = index.axes[j];
  }
  a.nb = p.nb;
  a.nr = p.nr;
  a.total = p.nb * p.nr;
  a.r_div = make_fast_div(static_cast<unsigned>(p.index32 ? p.nr : 1));
  a.lb = strided_param<K + 1>(p.b);
  a.lr = strided_param<2>(p.r);
  return a;
}

// Calls f.template operator()<K>() for the plan's number of index arrays (1..16).
template <class F>
void visit_index_count(int k, F&& f) {
  switch (k) {
#define COPPER_INDEX_COUNT_CASE(n) \
  case n: return f.template operator()<n>();
    COPPER_INDEX_COUNT_CASE(1) COPPER_INDEX_COUNT_CASE(2) COPPER_INDEX_COUNT_CASE(3) COPPER_INDEX_COUNT_CASE(4)
    COPPER_INDEX_COUNT_CASE(5) COPPER_INDEX_COUNT_CASE(6) COPPER_INDEX_COUNT_CASE(7) COPPER_INDEX_COUNT_CASE(8)
    COPPER_INDEX_COUNT_CASE(9) COPPER_INDEX_COUNT_CASE(10) COPPER_INDEX_COUNT_CASE(11) COPPER_INDEX_COUNT_CASE(12)
    COPPER_INDEX_COUNT_CASE(13) COPPER_INDEX_COUNT_CASE(14) COPPER_INDEX_COUNT_CASE(15) COPPER_INDEX_COUNT_CASE(16)
#undef COPPER_INDEX_COUNT_CASE
  }
  throw NotImplementedError("the CUDA backend indexes with at most 16 index arrays at once");
}

// Source pieces shared by the family: the prologue with kernels/indexing.cuh, the
// IndexParams struct for K arrays, the unit type E, the loop index type I, and the
// statements that turn position b's indices into the byte offset `off` (setting `ok`;
// recording bad indices when `record`; summing the row-major target `key` when `key`).
std::string index_source_prologue(int k, int unit, bool align16, bool index32);
std::string index_offset_code(const IndexPlan& p, int mode, bool record, bool key);
// The start of a kernel body looping e over every unit; with `skip_when_failed` the
// block first leaves when the out-of-bounds record is set (a check kernel ran before).
std::string unit_loop_begin(bool skip_when_failed);
// Splits e into b (position) and r (unit within the block), and the offsets of both.
std::string index_split_code(const IndexPlan& p);

// The bounds check (and last-writer table, `winner`) over B: cuda_indexing_scatter.cpp.
std::string scatter_check_source(const IndexPlan& p, int mode, bool winner, bool wide, bool packed = false);

// The family's generated sources (exposed for the NVRTC compile check); mode is
// IndexMode as an int (0 raise, 1 wrap, 2 clip).
std::string gather_source(const IndexPlan& p, int mode);
// The gather of one index array over a 1-d source (p.k == 1, p.nr == 1, 1-d p.b).
std::string flat_gather_source(const IndexPlan& p, int mode);
std::string scatter_source(const IndexPlan& p, int mode, bool winner, bool wide, bool checked);
std::string scatter_flush_source(const IndexPlan& p, bool checked);
std::string scatter_apply_source(const IndexPlan& p, int mode, ops::UfuncId op, DType target, DType loop,
                                 bool binary, bool checked);
std::string at_keys_source(const IndexPlan& p, int mode);
std::string at_ordered_source(const IndexPlan& p, int mode, ops::UfuncId op, DType target, DType loop, bool binary,
                              bool checked);
std::string select_count_source(DType flag, bool flat, bool vec, bool warp_count);
// bits: whole tiles' flags come from the bits the warp-per-tile count left.
std::string select_values_source(DType flag, int unit, bool flat, bool vec_flags, bool vec_src, bool bits);
std::string select_coordinates_source(DType flag, bool flat, bool vec, bool bits);

// The key bits of a plan shared by every kernel of the family.
void add_plan_key(KeyBuilder& key, const IndexPlan& p, int mode);

}  // namespace copper::backend::cuda
