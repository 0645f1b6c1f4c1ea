// Helpers for backends running automatic fusion's chains (fused_chain.h).
#include "backend/fused_chain.h"

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

}  // namespace copper::backend
