// A chain of deferred elementwise operations (automatic fusion, src/api/fusion_deferred.cpp)
// that a backend runs as one pass over memory: every step has the chain's shape, every
// operand is C-contiguous over that shape, one element broadcast to all of it, a scalar
// value, or a read-only view of memory the chain never writes with any strides over that
// shape (`Chain::views`: X[:, None, :] - C[None, :, :]), so element i of every operand is
// the one at flat position i. Steps run in order for each block of positions, so a step
// sees what earlier steps wrote there.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "backend/array_view.h"
#include "copper/dtype.hpp"
#include "copper/ndarray.hpp"
#include "ops/catalogue.h"

namespace copper::backend {

struct ChainOperand {
  void* data = nullptr;    // the first element in memory (unused for values and scratch)
  DType dtype = DType::float64;
  bool broadcast = false;  // one element read at every position (strides 0)
  bool value = false;      // a scalar: its bytes are the step's values[k]
  int scratch = -1;        // >= 0: an intermediate no one else holds; the backend may keep
                           // it in scratch slot `scratch` instead of writing memory
  int view = -1;           // >= 0: read through Chain::views[view]'s strides from `data`
};

// What a step computes: a ufunc's loop (`op` over `loop`), a conversion of in[0] to out's
// dtype as astype makes it, or where(in[0], in[1], in[2]) (in[0] bool; in[1], in[2] and out
// of one dtype).
enum class StepKind : std::uint8_t { ufunc, cast, where };

struct ChainStep {
  StepKind kind = StepKind::ufunc;
  ops::UfuncId op{};  // ufunc steps
  DType loop = DType::float64;
  int nin = 0;
  std::array<ChainOperand, 3> in{};
  ChainOperand out{};
  alignas(16) unsigned char values[3][16] = {};
  unsigned fp_mask = 0;   // errstate's bits to detect (FpFlag), as when the op was called
  unsigned fp_found = 0;  // set by the backend: the bits of fp_mask its values raised
};

// A reduction that ends the chain (Backend::reduce's arguments): after every step it reads
// one buffer the chain writes, `in` covering the whole chain shape with its axes in any
// order (in.data is that buffer's chain position), into `out`, memory no step touches. A
// backend may feed it from the steps directly, so its input never reaches memory.
struct ChainReduction {
  ops::ReduceOp op{};
  ArrayView in{};
  int nreduce = 0;
  ArrayView out{};  // C-contiguous when the chain has steps after the reduction
  int out_scratch = -1;  // >= 0: no one else holds `out`, and the steps after read it as this slot
};

struct Chain {
  Shape shape;
  std::int64_t size = 0;
  std::vector<ChainStep> steps;
  std::vector<int> scratch_itemsize;  // per scratch slot
  std::vector<Strides> views;         // byte strides over `shape` of read-only views
  // Backend::chain_context() when the first step was recorded; every step shares it (the
  // CUDA backend's: the stream the ops were called on, which the chain then runs on).
  std::shared_ptr<void> context;
  std::optional<ChainReduction> reduction;
  // Elementwise steps after the reduction, over its output's shape (`after_shape`, C order):
  // they read the reduction's output, scalars, one-element broadcasts, and C-contiguous
  // arrays over that shape that no step before the reduction touches, and write new arrays
  // (or the buffers they and the reduction write). `sqrt` in `sqrt(sum(x**2, axis=-1))`.
  std::vector<ChainStep> after;
  Shape after_shape;
  std::int64_t after_size = 0;
  // Memory for a scratch buffer that a run needs in memory after all (keep_in_memory): the
  // recorder gives results that only the chain holds no memory of their own, and this
  // returns the address of memory given to the buffer at `address` (kept until the chain's
  // hold on its buffers ends), or `address` itself where the buffer has memory. Unset:
  // every buffer has memory.
  std::function<void*(void* address)> memory_for;

  // Empties the chain as a new one is, keeping its vectors' memory for the next chain.
  void clear() {
    shape.clear();
    size = 0;
    steps.clear();
    scratch_itemsize.clear();
    views.clear();
    context.reset();
    reduction.reset();
    after.clear();
    after_shape.clear();
    after_size = 0;
    memory_for = nullptr;
  }
};

// Every operand at `from` (steps, steps after the reduction, the reduction's input and
// output) addresses `to` instead.
void relocate(Chain& chain, const void* from, void* to);

// The buffer at `data` goes through memory instead of its scratch slot (if it had one),
// given memory first where it had none (Chain::memory_for): for a run that materialises a
// reduction's input before reducing it. Other buffers of the slot keep it.
void keep_in_memory(Chain& chain, void* data);

// keep_in_memory for every scratch buffer of the chain's steps (not those after its
// reduction): for a run that goes step by step through memory.
void keep_all_in_memory(Chain& chain);

// The chain's steps after its reduction (Chain::after) as a chain of their own over the
// reduction's output (the scratch slots numbered as in `chain`).
Chain after_chain(const Chain& chain);

// Runs the chain's steps after its reduction, once the reduction's output is in memory, as
// a chain of their own on `be` (fp_found set on chain.after's steps); the reduction's output
// is read from memory even where it had a scratch slot.
class Backend;
void run_after_steps(Backend& be, Chain& chain);

}  // namespace copper::backend
