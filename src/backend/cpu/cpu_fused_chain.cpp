// CpuBackend::run_chain: automatic fusion's deferred elementwise steps, run block by
// block. Each thread takes a range of blocks and runs every step on a block before the
// next, so a block's operands stay in cache between steps and intermediates that no one
// holds live in per-thread scratch instead of memory. The steps are the op catalogue's
// ordinary loops (the same results as eager calls); no compiler at run time. A strided
// view among a step's inputs is gathered into a per-thread buffer for each block first.
// A reduction ending the chain over the innermost axes, of rows of up to
// reduce_kernels::chunk_elements, whose input no one else holds, takes whole rows per
// block: the steps fill a per-thread buffer with them and the reduction reads it there, so
// the input never reaches memory (fed_rows). Any other reduction runs after the chain,
// reading its input from memory.
#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

#include "backend/chain_compile_audit.h"
#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/cpu_elementwise_loops.h"
#include "backend/cpu/cpu_reduce_kernels.h"
#include "backend/cpu/thread_pool.h"
#include "copper/errors.hpp"

namespace copper::backend::cpu {

namespace {

using std::int64_t;

// Elements per block: 8192 float64 are 64 KiB per operand, so a few steps' operands
// stay in L2 between steps.
constexpr int64_t kBlock = 8192;

struct StepViews {
  std::array<ArrayView, 3> in;
  ArrayView out;
};

// Copies elements [begin, begin + n) (C order over `shape`) of the view at `base` with byte
// `strides` to `dst`, one run along the innermost axis at a time.
void gather_block(const char* base, const Shape& shape, const Strides& strides, int64_t isz, int64_t begin, int64_t n,
                  char* dst, std::vector<int64_t>& index) {
  const std::size_t nd = shape.size();
  index.resize(nd);
  int64_t off = 0, rest = begin;
  for (std::size_t d = nd; d-- > 0;) {
    index[d] = rest % shape[d];
    rest /= shape[d];
    off += index[d] * strides[d];
  }
  const int64_t inner = shape[nd - 1], step = strides[nd - 1];
  auto copy_run = [&]<class T>(T*, int64_t run) {
    const char* src = base + off;
    T* out = reinterpret_cast<T*>(dst);
    for (int64_t j = 0; j < run; ++j) std::memcpy(out + j, src + j * step, sizeof(T));
  };
  for (int64_t done = 0; done < n;) {
    const int64_t run = std::min(inner - index[nd - 1], n - done);
    switch (isz) {
      case 1: copy_run(static_cast<std::uint8_t*>(nullptr), run); break;
      case 2: copy_run(static_cast<std::uint16_t*>(nullptr), run); break;
      case 4: copy_run(static_cast<std::uint32_t*>(nullptr), run); break;
      case 8: copy_run(static_cast<std::uint64_t*>(nullptr), run); break;
      default:
        for (int64_t j = 0; j < run; ++j) std::memcpy(dst + j * isz, base + off + j * step, static_cast<std::size_t>(isz));
    }
    dst += run * isz;
    done += run;
    index[nd - 1] += run;
    off += run * step;
    for (std::size_t d = nd - 1; d > 0 && index[d] == shape[d]; --d) {
      off += strides[d - 1] - index[d] * strides[d];
      index[d] = 0;
      ++index[d - 1];
    }
  }
}

ArrayView block_view(const ChainOperand& o, const void* value) {
  const int64_t stride = (o.broadcast || o.value) ? 0 : itemsize(o.dtype);
  return ArrayView{o.value ? const_cast<void*>(value) : o.data, o.dtype, Shape{kBlock}, Strides{stride}};
}

// One thread's state for running the steps: block views and scratch slots. A scratch
// slot holds one block, or (`span_slot`) a span of many blocks that a reduction reads
// after them, each block at its offset in the span.
class BlockRunner {
 public:
  BlockRunner(CpuBackend& be, const Chain& chain, const std::vector<LoopFn>& fns, std::vector<FpWatch>& watches,
              int span_slot = -1, int64_t span_elements = 0)
      : be_(be), chain_(chain), fns_(fns), watches_(watches), span_slot_(span_slot), views_(chain.steps.size()),
        scratch_(chain.scratch_itemsize.size()), gathered_(chain.views.size()) {
    // A block slot (scratch or gathered view) holds at most the chain's size: a short
    // chain's slots are short, as zeroing and freeing full blocks was most of a 10-element
    // formula's run.
    const int64_t block = std::min(kBlock, chain.size);
    for (std::size_t k = 0; k < scratch_.size(); ++k)
      scratch_[k].resize(static_cast<std::size_t>((static_cast<int>(k) == span_slot ? span_elements : block) *
                                                  chain.scratch_itemsize[k]));
    for (std::size_t i = 0; i < chain.steps.size(); ++i) {
      const ChainStep& s = chain.steps[i];
      for (int k = 0; k < s.nin; ++k) {
        views_[i].in[k] = block_view(s.in[k], s.values[k]);
        if (s.in[k].view >= 0) {
          std::vector<unsigned char>& buf = gathered_[static_cast<std::size_t>(s.in[k].view)];
          buf.resize(std::max(buf.size(), static_cast<std::size_t>(block * itemsize(s.in[k].dtype))));
        }
      }
      views_[i].out = block_view(s.out, nullptr);
    }
  }

  // Every step over positions [begin, begin + n) (n <= kBlock); a span slot's block goes
  // `span_offset` elements into the span.
  void run(int64_t begin, int64_t n, int64_t span_offset = 0) {
    for (std::size_t i = 0; i < chain_.steps.size(); ++i) {
      const ChainStep& s = chain_.steps[i];
      StepViews& v = views_[i];
      for (int k = 0; k < s.nin; ++k) {
        if (s.in[k].view >= 0) {
          // A strided view: its block is gathered into the step's own buffer.
          std::vector<unsigned char>& buf = gathered_[static_cast<std::size_t>(s.in[k].view)];
          gather_block(static_cast<const char*>(s.in[k].data), chain_.shape,
                       chain_.views[static_cast<std::size_t>(s.in[k].view)], itemsize(s.in[k].dtype), begin, n,
                       reinterpret_cast<char*>(buf.data()), index_);
          v.in[k].data = buf.data();
          v.in[k].shape[0] = n;
          continue;
        }
        place(v.in[k], s.in[k], begin, n, span_offset);
      }
      place(v.out, s.out, begin, n, span_offset);
      switch (s.kind) {
        case StepKind::ufunc:
          fp_watch = s.fp_mask ? &watches_[i] : nullptr;
          fns_[i](std::span<const ArrayView>(v.in.data(), s.nin), std::span<const ArrayView>(&v.out, 1));
          fp_watch = nullptr;
          break;
        case StepKind::cast: be_.copy(v.in[0], v.out); break;  // the block's conversion, as astype's
        case StepKind::where: be_.where(v.in[0], v.in[1], v.in[2], v.out); break;
      }
    }
  }

  void* span() { return scratch_[static_cast<std::size_t>(span_slot_)].data(); }

 private:
  // Points a block view at positions [begin, begin + n) of its operand.
  void place(ArrayView& v, const ChainOperand& o, int64_t begin, int64_t n, int64_t span_offset) {
    v.shape[0] = n;
    if (o.value || o.broadcast) return;
    if (o.scratch < 0) {
      v.data = static_cast<char*>(o.data) + begin * itemsize(o.dtype);
      return;
    }
    char* slot = reinterpret_cast<char*>(scratch_[static_cast<std::size_t>(o.scratch)].data());
    v.data = o.scratch == span_slot_ ? slot + span_offset * itemsize(o.dtype) : slot;
  }

  CpuBackend& be_;
  const Chain& chain_;
  const std::vector<LoopFn>& fns_;
  std::vector<FpWatch>& watches_;
  int span_slot_;
  std::vector<StepViews> views_;
  std::vector<std::vector<unsigned char>> scratch_;
  std::vector<std::vector<unsigned char>> gathered_;  // per Chain::views entry: its block
  std::vector<int64_t> index_;                        // gather_block's multi-index
};

bool c_contiguous(const ArrayView& v) { return v.strides == c_strides(v.shape, itemsize(v.dtype)); }

// The reduction's input as the scratch slot that holds it, when the chain can feed the
// reduction whole rows (see the file comment): a C-ordered input with the reduced axes
// innermost, rows short enough that the reduction reduces each on its own whatever the
// number of rows (so its values are the eager ones), a C-ordered output.
std::optional<int> fed_rows_slot(const Chain& chain) {
  const ChainReduction& r = *chain.reduction;
  if (!c_contiguous(r.in) || !c_contiguous(r.out)) return std::nullopt;
  int64_t row = 1;
  for (std::size_t d = r.in.shape.size() - static_cast<std::size_t>(r.nreduce); d < r.in.shape.size(); ++d)
    row *= r.in.shape[d];
  if (row < 1 || row > reduce_kernels::chunk_elements) return std::nullopt;
  std::optional<int> slot;
  DType dtype = r.in.dtype;
  for (const ChainStep& s : chain.steps)
    if (s.out.data == r.in.data) {
      slot = s.out.scratch >= 0 ? std::optional<int>(s.out.scratch) : std::nullopt;
      dtype = s.out.dtype;
    }
  if (dtype != r.in.dtype) return std::nullopt;
  return slot;
}

}  // namespace

bool CpuBackend::can_chain(const ChainStep& step) const {
  if (step.kind != StepKind::ufunc) return true;  // every cast and where has a loop
  return ops::info(step.op).nout == 1 && elementwise_loop(step.op, step.loop) != nullptr;
}

void CpuBackend::run_chain(Chain& chain) {
  audit_chain_compile(chain);  // COPPER_CHAIN_COMPILE_AUDIT only: the GPU kernels NVRTC would build
  const std::optional<int> fed = chain.reduction ? fed_rows_slot(chain) : std::nullopt;
  if (chain.reduction && !fed) keep_in_memory(chain, chain.reduction->in.data);
  const std::size_t nsteps = chain.steps.size();
  std::vector<LoopFn> fns(nsteps);
  for (std::size_t i = 0; i < nsteps; ++i)
    if (chain.steps[i].kind == StepKind::ufunc) fns[i] = elementwise_loop(chain.steps[i].op, chain.steps[i].loop);
  std::vector<FpWatch> watches(nsteps);
  if (fed) {
    // Whole rows per task, about a block of them (one row when rows are longer).
    const ChainReduction& r = *chain.reduction;
    const int64_t nrows = shape_size(r.out.shape);
    const int64_t row = chain.size / nrows;
    const int64_t rows_per_task = std::max<int64_t>(1, kBlock / row);
    const int64_t ntasks = (nrows + rows_per_task - 1) / rows_per_task;
    const int64_t isz = itemsize(r.in.dtype), osz = itemsize(r.out.dtype);
    parallel_for(ntasks, std::max<int64_t>(1, parallel_grain / (rows_per_task * row)), [&](int64_t first, int64_t last) {
      BlockRunner runner(*this, chain, fns, watches, *fed, rows_per_task * row);
      for (int64_t t = first; t < last; ++t) {
        const int64_t r0 = t * rows_per_task, r1 = std::min(nrows, r0 + rows_per_task);
        const int64_t begin = r0 * row, end = r1 * row;
        for (int64_t b = begin; b < end; b += kBlock) runner.run(b, std::min(kBlock, end - b), b - begin);
        reduce(r.op, ArrayView{runner.span(), r.in.dtype, Shape{r1 - r0, row}, Strides{row * isz, isz}}, 1,
               ArrayView{static_cast<char*>(r.out.data) + r0 * osz, r.out.dtype, Shape{r1 - r0}, Strides{osz}});
      }
    });
  } else {
    const int64_t nblocks = (chain.size + kBlock - 1) / kBlock;
    parallel_for(nblocks, std::max<int64_t>(1, parallel_grain / kBlock), [&](int64_t first, int64_t last) {
      BlockRunner runner(*this, chain, fns, watches);
      for (int64_t b = first; b < last; ++b) runner.run(b * kBlock, std::min(kBlock, chain.size - b * kBlock));
    });
  }
  for (std::size_t i = 0; i < nsteps; ++i) chain.steps[i].fp_found = watches[i].found.load() & chain.steps[i].fp_mask;
  if (chain.reduction && !fed) {
    const ChainReduction& r = *chain.reduction;
    reduce(r.op, r.in, r.nreduce, r.out);
  }
  run_after_steps(*this, chain);
}

}  // namespace copper::backend::cpu
