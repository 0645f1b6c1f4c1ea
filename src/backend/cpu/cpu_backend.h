// The CPU backend: multi-threaded strided loops over host memory.
#pragma once
#include "backend/backend.h"

namespace copper::backend::cpu {

class CpuBackend final : public backend::Backend {
 public:
  using ArrayView = backend::ArrayView;
  Device device() const override { return copper::cpu; }

  // cpu_memory.cpp
  std::shared_ptr<Buffer> allocate(std::size_t nbytes) override;
  std::size_t memory_room() const override;
  void copy_from_host(const void* src, const ArrayView& dst) override;
  void copy_to_host(const ArrayView& src, void* dst) override;
  void copy(const ArrayView& src, const ArrayView& dst) override;
  void fill(const ArrayView& dst, const Scalar& value) override;
  void iota(const ArrayView& dst, const Scalar& start, const Scalar& step) override;
  void synchronize() override {}
  // cpu_matmul.cpp (BLAS loaded at run time; plain loops for the rest)
  void matmul(const ArrayView& a, const ArrayView& b, const ArrayView& out) override;
  bool matmul_conjugate_a(const ArrayView& a, const ArrayView& b, const ArrayView& out) override;

  // cpu_elementwise.cpp
  void elementwise(ops::UfuncId op, DType loop, std::span<const ArrayView> in, const ArrayView& out) override;
  void elementwise_multi(ops::UfuncId op, DType loop, std::span<const ArrayView> in,
                         std::span<const ArrayView> out) override;
  bool casts_inputs() const override { return true; }
  void fold(ops::UfuncId op, DType loop, const ArrayView& in, const ArrayView& out, const FoldOptions& o) override;
  void where(const ArrayView& cond, const ArrayView& x, const ArrayView& y, const ArrayView& out) override;
  // cpu_fused_chain.cpp (automatic fusion: block by block)
  bool can_chain(const ChainStep& step) const override;
  void run_chain(Chain& chain) override;

  // cpu_reduce.cpp, cpu_scan.cpp
  void reduce(ops::ReduceOp op, const ArrayView& in, int nreduce, const ArrayView& out) override;
  void scan(ops::ScanOp op, const ArrayView& in, int axis, const ArrayView& out) override;
  // cpu_random.cpp
  void random(ops::philox::Kind kind, const ops::philox::RandomParams& p, const ArrayView& out) override;
  void random_params(ops::philox::Kind kind, const ops::philox::RandomParams& p, std::span<const ArrayView> params,
                     const ArrayView& out) override;
  void take_rows(const ArrayView& src, const ArrayView& rows, const ArrayView& out) override;
  // cpu_histogram.cpp
  void histogram(std::span<const HistogramAxis> axes, const ArrayView* weights, const ArrayView& out) override;
  // cpu_sort.cpp (vqsort or std::sort), cpu_search.cpp
  void sort_rows(const ArrayView& in, const ArrayView* values, const ArrayView* indices) override;
  void lexsort_rows(std::span<const ArrayView> keys, const ArrayView& indices) override;
  bool middle_pair(const ArrayView& rows, bool skip_nan, const ArrayView& out) override;
  void searchsorted(const ArrayView& sorted, const ArrayView& queries, bool right, const ArrayView& out) override;
  std::int64_t flag_positions(const ArrayView& flags, const ArrayView& out) override;
  // cpu_indexing_gather.cpp, cpu_indexing_apply.cpp, cpu_indexing_compact.cpp
  void gather(const ArrayView& src, const IndexArrays& index, const ArrayView& out) override;
  void scatter(const ArrayView& dst, const IndexArrays& index, const ArrayView& values, bool unique_targets) override;
  void scatter_apply(ops::UfuncId op, DType loop, const ArrayView& dst, const IndexArrays& index,
                     const ArrayView* values) override;
  Selection select_count(const ArrayView& flags) override;
  void select_values(const ArrayView& flags, const Selection& sel, const ArrayView& src, const ArrayView& out) override;
  void select_coordinates(const ArrayView& flags, const Selection& sel, const ArrayView& out) override;
  // cpu_dense_solver.cpp (LAPACK loaded at run time)
  DenseSolver* dense_solver() override;
  // cpu_fft.cpp (FFTW loaded at run time)
  void fft(const FftJob& job, const ArrayView& in, const ArrayView& out) override;
  FftPlanCache& fft_plan_cache() override;
};

}  // namespace copper::backend::cpu
