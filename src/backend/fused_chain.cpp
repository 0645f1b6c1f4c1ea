// Helpers for backends running automatic fusion's chains (fused_chain.h).
#include "backend/fused_chain.h"

#include "backend/backend.h"

namespace copper::backend {

void keep_in_memory(Chain& chain, const void* data) {
  int slot = -1;
  for (const ChainStep& s : chain.steps)
    if (s.out.data == data && s.out.scratch >= 0) slot = s.out.scratch;
  if (slot < 0) return;
  // A scratch slot stands for exactly one buffer (the recorder gives each its own).
  for (ChainStep& s : chain.steps) {
    for (int k = 0; k < s.nin; ++k)
      if (s.in[k].scratch == slot) s.in[k].scratch = -1;
    if (s.out.scratch == slot) s.out.scratch = -1;
  }
}

void run_after_steps(Backend& be, Chain& chain) {
  if (chain.after.empty() || !chain.reduction) return;
  Chain tail;
  tail.shape = chain.after_shape;
  tail.size = chain.after_size;
  tail.context = chain.context;
  tail.scratch_itemsize = chain.scratch_itemsize;
  tail.steps = std::move(chain.after);
  const int slot = chain.reduction->out_scratch;
  if (slot >= 0)
    for (ChainStep& s : tail.steps) {
      for (int k = 0; k < s.nin; ++k)
        if (s.in[k].scratch == slot) s.in[k].scratch = -1;
      if (s.out.scratch == slot) s.out.scratch = -1;
    }
  struct GiveBack {  // the steps (with fp_found) go back to the chain, even on an error
    Chain& chain;
    Chain& tail;
    ~GiveBack() { chain.after = std::move(tail.steps); }
  } give_back{chain, tail};
  be.run_chain(tail);
}

}  // namespace copper::backend
