// Helpers for backends running automatic fusion's chains (fused_chain.h).
#include "backend/fused_chain.h"

#include "backend/backend.h"

namespace copper::backend {

namespace {

// Every operand of scratch slot `slot` goes through memory instead. A scratch slot stands
// for exactly one buffer (the recorder gives each its own).
void slot_in_memory(std::vector<ChainStep>& steps, int slot) {
  if (slot < 0) return;
  for (ChainStep& s : steps) {
    for (int k = 0; k < s.nin; ++k)
      if (s.in[k].scratch == slot) s.in[k].scratch = -1;
    if (s.out.scratch == slot) s.out.scratch = -1;
  }
}

}  // namespace

void keep_in_memory(Chain& chain, const void* data) {
  int slot = -1;
  for (const ChainStep& s : chain.steps)
    if (s.out.data == data && s.out.scratch >= 0) slot = s.out.scratch;
  slot_in_memory(chain.steps, slot);
}

Chain after_chain(const Chain& chain) {
  Chain tail;
  tail.shape = chain.after_shape;
  tail.size = chain.after_size;
  tail.context = chain.context;
  tail.scratch_itemsize = chain.scratch_itemsize;
  tail.steps = chain.after;
  return tail;
}

void run_after_steps(Backend& be, Chain& chain) {
  if (chain.after.empty() || !chain.reduction) return;
  Chain tail = after_chain(chain);
  slot_in_memory(tail.steps, chain.reduction->out_scratch);
  be.run_chain(tail);
  for (std::size_t i = 0; i < tail.steps.size(); ++i) chain.after[i].fp_found = tail.steps[i].fp_found;
}

}  // namespace copper::backend
