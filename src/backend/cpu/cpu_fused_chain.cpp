// CpuBackend::run_chain: automatic fusion's deferred elementwise steps, run block by
// block. Each thread takes a range of blocks and runs every step on a block before the
// next, so a block's operands stay in cache between steps and intermediates that no one
// holds live in per-thread scratch instead of memory. The steps are the op catalogue's
// ordinary loops (the same results as eager calls); no compiler at run time. A reduction
// ending the chain runs after it, reading its input from memory.
#include <vector>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/cpu_elementwise_loops.h"
#include "backend/cpu/thread_pool.h"
#include "copper/errors.hpp"

namespace copper::backend::cpu {

namespace {

// Elements per block: 8192 float64 are 64 KiB per operand, so a few steps' operands
// stay in L2 between steps.
constexpr std::int64_t kBlock = 8192;

struct StepViews {
  std::array<ArrayView, 3> in;
  ArrayView out;
};

ArrayView block_view(const ChainOperand& o, const void* value) {
  const std::int64_t stride = (o.broadcast || o.value) ? 0 : itemsize(o.dtype);
  return ArrayView{o.value ? const_cast<void*>(value) : o.data, o.dtype, Shape{kBlock}, Strides{stride}};
}

// Points a block view at positions [begin, begin + n) of its operand.
void place(ArrayView& v, const ChainOperand& o, std::vector<std::vector<unsigned char>>& scratch,
           std::int64_t begin, std::int64_t n) {
  v.shape[0] = n;
  if (o.value || o.broadcast) return;
  v.data = o.scratch >= 0 ? static_cast<void*>(scratch[o.scratch].data())
                          : static_cast<void*>(static_cast<char*>(o.data) + begin * itemsize(o.dtype));
}

}  // namespace

bool CpuBackend::can_chain(const ChainStep& step) const {
  if (step.kind != StepKind::ufunc) return true;  // every cast and where has a loop
  return ops::info(step.op).nout == 1 && elementwise_loop(step.op, step.loop) != nullptr;
}

void CpuBackend::run_chain(Chain& chain) {
  // A reduction ending the chain reads its input from memory after the steps.
  if (chain.reduction) keep_in_memory(chain, chain.reduction->in.data);
  const std::size_t nsteps = chain.steps.size();
  std::vector<LoopFn> fns(nsteps);
  for (std::size_t i = 0; i < nsteps; ++i)
    if (chain.steps[i].kind == StepKind::ufunc) fns[i] = elementwise_loop(chain.steps[i].op, chain.steps[i].loop);
  std::vector<FpWatch> watches(nsteps);
  const std::int64_t nblocks = (chain.size + kBlock - 1) / kBlock;
  parallel_for(nblocks, std::max<std::int64_t>(1, parallel_grain / kBlock), [&](std::int64_t first, std::int64_t last) {
    std::vector<std::vector<unsigned char>> scratch(chain.scratch_itemsize.size());
    for (std::size_t k = 0; k < scratch.size(); ++k)
      scratch[k].resize(static_cast<std::size_t>(kBlock * chain.scratch_itemsize[k]));
    std::vector<StepViews> views(nsteps);
    for (std::size_t i = 0; i < nsteps; ++i) {
      const ChainStep& s = chain.steps[i];
      for (int k = 0; k < s.nin; ++k) views[i].in[k] = block_view(s.in[k], s.values[k]);
      views[i].out = block_view(s.out, nullptr);
    }
    for (std::int64_t b = first; b < last; ++b) {
      const std::int64_t begin = b * kBlock, n = std::min(kBlock, chain.size - begin);
      for (std::size_t i = 0; i < nsteps; ++i) {
        const ChainStep& s = chain.steps[i];
        StepViews& v = views[i];
        for (int k = 0; k < s.nin; ++k) place(v.in[k], s.in[k], scratch, begin, n);
        place(v.out, s.out, scratch, begin, n);
        switch (s.kind) {
          case StepKind::ufunc:
            fp_watch = s.fp_mask ? &watches[i] : nullptr;
            fns[i](std::span<const ArrayView>(v.in.data(), s.nin), std::span<const ArrayView>(&v.out, 1));
            fp_watch = nullptr;
            break;
          case StepKind::cast: copy(v.in[0], v.out); break;  // the block's conversion, as astype's
          case StepKind::where: where(v.in[0], v.in[1], v.in[2], v.out); break;
        }
      }
    }
  });
  for (std::size_t i = 0; i < nsteps; ++i) chain.steps[i].fp_found = watches[i].found.load() & chain.steps[i].fp_mask;
  if (const auto& r = chain.reduction) reduce(r->op, r->in, r->nreduce, r->out);
}

}  // namespace copper::backend::cpu
