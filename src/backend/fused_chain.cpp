// Helpers for backends running automatic fusion's chains (fused_chain.h).
#include "backend/fused_chain.h"

#include "backend/backend.h"

namespace copper::backend {

namespace {

// Calls f on every memory address an operand of `steps` holds (not scalar values).
template <class F>
void for_each_operand(std::vector<ChainStep>& steps, F&& f) {
  for (ChainStep& s : steps) {
    for (int k = 0; k < s.nin; ++k)
      if (!s.in[k].value) f(s.in[k]);
    f(s.out);
  }
}

// The operands of `steps` at `data` go through memory instead of a scratch slot.
void at_in_memory(std::vector<ChainStep>& steps, const void* data) {
  for_each_operand(steps, [&](ChainOperand& o) {
    if (o.data == data) o.scratch = -1;
  });
}

}  // namespace

void relocate(Chain& chain, const void* from, void* to) {
  if (from == to) return;
  auto move = [&](ChainOperand& o) {
    if (o.data == from) o.data = to;
  };
  for_each_operand(chain.steps, move);
  for_each_operand(chain.after, move);
  if (chain.reduction) {
    if (chain.reduction->in.data == from) chain.reduction->in.data = to;
    if (chain.reduction->out.data == from) chain.reduction->out.data = to;
  }
}

void keep_in_memory(Chain& chain, void* data) {
  bool scratch = false;
  for_each_operand(chain.steps, [&](const ChainOperand& o) { scratch |= o.scratch >= 0 && o.data == data; });
  if (!scratch) return;
  at_in_memory(chain.steps, data);
  if (chain.memory_for) relocate(chain, data, chain.memory_for(data));
}

void keep_all_in_memory(Chain& chain) {
  std::vector<void*> scratch;  // keep_in_memory moves operands: their addresses first
  for_each_operand(chain.steps, [&](const ChainOperand& o) {
    if (o.scratch >= 0) scratch.push_back(o.data);
  });
  for (void* data : scratch) keep_in_memory(chain, data);  // a no-op for an address already done
}

Chain after_chain(const Chain& chain) {
  Chain tail;
  tail.shape = chain.after_shape;
  tail.size = chain.after_size;
  tail.context = chain.context;
  tail.scratch_itemsize = chain.scratch_itemsize;
  tail.steps = chain.after;
  tail.memory_for = chain.memory_for;
  return tail;
}

void run_after_steps(Backend& be, Chain& chain) {
  if (chain.after.empty() || !chain.reduction) return;
  Chain tail = after_chain(chain);
  // The reduction wrote its output to memory (its own: the recorder never defers it).
  at_in_memory(tail.steps, chain.reduction->out.data);
  be.run_chain(tail);
  for (std::size_t i = 0; i < tail.steps.size(); ++i) chain.after[i].fp_found = tail.steps[i].fp_found;
}

}  // namespace copper::backend
