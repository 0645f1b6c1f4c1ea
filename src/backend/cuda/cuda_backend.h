// The CUDA backend of one GPU: memory from the stream-ordered pool, kernels
// generated from the op catalogue and compiled with NVRTC, all work enqueued on
// the thread's current stream for the device.
#pragma once
#include "backend/backend.h"

namespace copper::backend::cuda {

class CudaBackend final : public backend::Backend {
 public:
  explicit CudaBackend(int index) : index_(index) {}
  Device device() const override { return Device{DeviceType::cuda, index_}; }
  int index() const { return index_; }

  // cuda_transfer.cpp (host copies through pinned staging), cuda_memory.cpp
  std::shared_ptr<Buffer> allocate(std::size_t nbytes) override;
  std::size_t memory_room() const override;
  void copy_from_host(const void* src, const ArrayView& dst) override;
  void copy_to_host(const ArrayView& src, void* dst) override;
  // cuda_elementwise.cpp (copy, fill and iota are elementwise kernels too)
  void copy(const ArrayView& src, const ArrayView& dst) override;
  void fill(const ArrayView& dst, const Scalar& value) override;
  void iota(const ArrayView& dst, const Scalar& start, const Scalar& step) override;
  void elementwise(ops::UfuncId op, DType loop, std::span<const ArrayView> in, const ArrayView& out) override;
  void elementwise_multi(ops::UfuncId op, DType loop, std::span<const ArrayView> in,
                         std::span<const ArrayView> out) override;
  void fold(ops::UfuncId op, DType loop, const ArrayView& in, const ArrayView& out, const FoldOptions& o) override;
  void where(const ArrayView& cond, const ArrayView& x, const ArrayView& y, const ArrayView& out) override;
  // cuda_fused_chain.cpp (automatic fusion: one generated kernel per chain structure)
  bool can_chain(const ChainStep& step) const override;
  void run_chain(Chain& chain) override;
  std::shared_ptr<void> chain_context() const override;
  std::shared_ptr<Buffer> allocate_for_chain(const std::shared_ptr<void>& context, std::size_t nbytes) override;
  // cuda_reduce.cpp, cuda_scan.cpp
  void reduce(ops::ReduceOp op, const ArrayView& in, int nreduce, const ArrayView& out) override;
  void scan(ops::ScanOp op, const ArrayView& in, int axis, const ArrayView& out) override;
  // cuda_random.cpp
  void random(ops::philox::Kind kind, const ops::philox::RandomParams& p, const ArrayView& out) override;
  void random_params(ops::philox::Kind kind, const ops::philox::RandomParams& p, std::span<const ArrayView> params,
                     const ArrayView& out) override;
  void take_rows(const ArrayView& src, const ArrayView& rows, const ArrayView& out) override;
  // cuda_histogram.cpp
  void histogram(std::span<const HistogramAxis> axes, const ArrayView* weights, const ArrayView& out) override;

  // cuda_indexing_gather.cpp, cuda_indexing_scatter.cpp, cuda_indexing_apply.cpp, cuda_indexing_compact.cpp (errors: cuda_index_errors.h)
  void gather(const ArrayView& src, const IndexArrays& index, const ArrayView& out) override;
  void scatter(const ArrayView& dst, const IndexArrays& index, const ArrayView& values, bool unique_targets) override;
  void scatter_apply(ops::UfuncId op, DType loop, const ArrayView& dst, const IndexArrays& index,
                     const ArrayView* values) override;
  Selection select_count(const ArrayView& flags) override;
  void select_values(const ArrayView& flags, const Selection& sel, const ArrayView& src, const ArrayView& out) override;
  void select_coordinates(const ArrayView& flags, const Selection& sel, const ArrayView& out) override;

  // cuda_matmul.cpp (cuBLAS loaded at run time; a generated kernel for integers and bool)
  void matmul(const ArrayView& a, const ArrayView& b, const ArrayView& out) override;

  // cuda_sort.cpp (CUB radix sorts compiled ahead of time, cub/aot_sort.h), cuda_search.cpp
  void sort_rows(const ArrayView& in, const ArrayView* values, const ArrayView* indices) override;
  void lexsort_rows(std::span<const ArrayView> keys, const ArrayView& indices) override;
  bool middle_pair(const ArrayView& rows, bool skip_nan, const ArrayView& out) override;
  void searchsorted(const ArrayView& sorted, const ArrayView& queries, bool right, const ArrayView& out) override;
  std::int64_t flag_positions(const ArrayView& flags, const ArrayView& out) override;
  // cuda_dense_solver.cpp (cuSOLVER loaded at run time)
  DenseSolver* dense_solver() override;
  // cuda_fft.cpp (cuFFT loaded at run time)
  void fft(const FftJob& job, const ArrayView& in, const ArrayView& out) override;
  FftPlanCache& fft_plan_cache() override;

  void synchronize() override;

 private:
  int index_;
};

}  // namespace copper::backend::cuda
