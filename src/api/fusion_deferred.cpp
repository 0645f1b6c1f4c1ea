// Automatic fusion, recording and running (copper/fusion.hpp). One pending chain for the
// process: ops join it while they cover its shape and touch memory the way its other
// steps do; anything else runs what is pending first. The chain runs when something reads
// memory it touches (ndarray::data()), on synchronize()/run_deferred(), or when it is full.
// Its bookkeeping lives here, keyed by buffer, so the array types carry none of it.
#include "api/fusion_deferred.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "api/fp_errors_internal.h"
#include "api/pointer_map.h"
#include "backend/backend.h"
#include "copper/errstate.hpp"
#include "copper/fusion.hpp"

namespace copper {
namespace {

// Steps per chain: enough for long formulas (Black-Scholes written as NumPy code is 63
// ops with its two wheres), few enough that a chain's operands still fit the per-thread
// working set and its GPU kernel compiles in a fraction of a second.
constexpr std::size_t kMaxSteps = 64;

// Memory of the chain's results that got memory at their call (where the backend had no
// room to defer it: record()) and that only the chain still holds (temporaries that died
// while deferred): they stay allocated until it runs, where eager code would have freed
// them, so past this many bytes the chain runs first (COPPER_FUSION_MEMORY_MB overrides).
// 4 GiB. Results given no memory at the call (the rule) hold none while dead.
std::size_t dead_memory_limit() {
  static const std::size_t limit = [] {
    const char* v = std::getenv("COPPER_FUSION_MEMORY_MB");
    return v && *v ? static_cast<std::size_t>(std::strtoull(v, nullptr, 10)) << 20 : std::size_t{4} << 30;
  }();
  return limit;
}

// On unless COPPER_FUSION=0.
bool fusion_from_environment() {
  const char* v = std::getenv("COPPER_FUSION");
  return !(v && std::string_view(v) == "0");
}

std::atomic<bool> enabled{fusion_from_environment()};

// How a chain touches one buffer: at one byte offset, C-ordered over the chain's shape, or
// (`irregular`) only read, some way other than that: one element broadcast, or a view with
// other strides; and whether any step writes it.
struct BufferUse {
  std::int64_t offset;
  bool irregular;
  bool written;
  long holds = 0;      // the chain's HeldUse entries of the buffer
  bool after = false;  // touched only by the reduction's output and the steps after it
};

struct Access {
  const std::shared_ptr<Buffer>* buffer;
  std::int64_t offset;
  bool irregular;  // a one-element broadcast, or `view`
  bool write;
  Strides view{};  // non-empty: read with these byte strides over the chain's shape
};

// One use of a buffer by the chain: keeps the memory alive and counts as a holder.
struct HeldUse {
  std::shared_ptr<Buffer> buffer;
  const void* address;  // the operand's first element
  bool irregular;
};

// A new array a step made for its result; for a result given a dead result's memory
// (recycle()), also the buffer that owns that memory (null: the result owns its own).
struct MadeResult {
  std::shared_ptr<Buffer> buffer;
  DType dtype;
  std::shared_ptr<Buffer> owner;
};

struct Pending {
  std::mutex state;  // guards everything below
  std::mutex run;    // held while a chain runs, so a reader of its memory waits for it
  Device device{};
  backend::Chain chain;
  std::vector<ErrState> states;               // each step's error state at its call
  std::vector<HeldUse> held;
  detail::PointerMap<BufferUse> uses;  // by Buffer*
  std::vector<MadeResult> made;  // results of the chain's steps given memory at their call, not yet recycled
  std::size_t made_bytes = 0;    // memory the chain's steps allocated
  // Bytes of the chain's results given no memory yet (deferred buffers): read without the
  // lock by record()'s check of the backend's room, so atomic.
  std::atomic<std::size_t> deferred_bytes{0};
  // References that results made from recycled memory hold on its owner (see recycle()),
  // by owner (Buffer*): they do not count as holders outside the chain.
  detail::PointerMap<long> alias_holds;
  // The vectors of the last chain run, emptied: the next chain takes them, so recording a
  // chain reallocates nothing once a program's chains have reached their size.
  backend::Chain spare_chain;
  std::vector<ErrState> spare_states;
  std::vector<HeldUse> spare_held;
};

// Never destroyed: it may hold buffers at exit, whose allocators are gone by then.
Pending& pending() {
  static Pending* p = new Pending;
  return *p;
}

// Buffers shared outside copper, by address; the weak pointer tells a live entry from one
// whose buffer is gone (its address cannot be reused while the weak pointer holds the block).
struct SharedOutside {
  std::mutex m;
  std::unordered_map<const Buffer*, std::weak_ptr<Buffer>> buffers;
};

SharedOutside& shared_outside_table() {
  static SharedOutside* t = new SharedOutside;
  return *t;
}

bool is_shared_outside(const std::shared_ptr<Buffer>& b) {
  SharedOutside& t = shared_outside_table();
  std::lock_guard lock(t.m);
  if (t.buffers.empty()) return false;
  auto it = t.buffers.find(b.get());
  if (it == t.buffers.end()) return false;
  if (!it->second.expired()) return true;
  t.buffers.erase(it);
  return false;
}

bool deferrable(FpMode m) { return m == FpMode::ignore || m == FpMode::warn; }

// Whether an op over `shape` on `device`, called in backend context `context`, may join
// the pending (non-empty) chain as far as where it runs goes.
bool same_run(const Pending& p, Device device, const std::shared_ptr<void>& context, const Shape& shape) {
  return p.device == device && p.chain.context == context && p.chain.shape == shape;
}

// Whether only the chain (and its `made` list) still holds a result of one of its steps.
bool dead(const Pending& p, const MadeResult& m) {
  const BufferUse* u = p.uses.find(m.buffer.get());
  return m.buffer.use_count() == (u ? u->holds : 0) + 1;
}

// Bytes of the chain's results that no one outside the chain holds any more.
std::size_t dead_bytes(const Pending& p) {
  std::size_t bytes = 0;
  for (const MadeResult& m : p.made)
    if (dead(p, m)) bytes += m.buffer->nbytes();
  return bytes;
}

// Memory for a new result of `dtype` and `nbytes`, where memory is short (results get
// memory at the call only then): that of an earlier such result of the chain that has
// died meanwhile (a formula's temporaries), which eager code would have freed and the
// pool handed back. The new buffer shares the dead one's address and keeps the
// memory's owner alive (the owner, never the dead buffer itself, so buffers made this way
// never form chains of holders, however many times memory passes on); every later step of
// the chain comes after the dead result's last use, so one position in memory (or one
// register, when all of them end up held by no one) serves them in turn. Looks at the
// newest few results only, where temporaries are, to keep the per-op cost flat.
std::shared_ptr<Buffer> recycle(Pending& p, DType dtype, std::size_t nbytes, std::shared_ptr<Buffer>& owner) {
  const std::size_t first = p.made.size() > 8 ? p.made.size() - 8 : 0;
  for (std::size_t i = p.made.size(); i-- > first;) {
    const MadeResult& m = p.made[i];
    if (m.dtype != dtype || m.buffer->nbytes() != nbytes || !dead(p, m)) continue;
    owner = m.owner ? m.owner : m.buffer;
    void* data = m.buffer->address();
    const Device device = m.buffer->device();
    p.made.erase(p.made.begin() + static_cast<std::ptrdiff_t>(i));
    ++p.alias_holds[owner.get()];
    return std::make_shared<Buffer>(data, nbytes, device, [keep = owner](void*) {});
  }
  return nullptr;
}

// `a`'s byte strides broadcast over `shape` (0 along axes it is broadcast on), or empty
// when its shape does not broadcast to `shape`.
Strides strides_over(const ndarray& a, const Shape& shape) {
  const std::size_t n = shape.size(), m = static_cast<std::size_t>(a.ndim());
  if (m > n) return {};
  Strides st(n, 0);
  for (std::size_t d = 0; d < m; ++d) {
    const std::int64_t len = a.shape()[d];
    if (len == shape[n - m + d]) st[n - m + d] = len == 1 ? 0 : a.strides()[d];
    else if (len != 1) return {};
  }
  return st;
}

// Whether `strides` are c_strides(shape, itemsize), without making those.
bool are_c_strides(const Strides& strides, const Shape& shape, std::int64_t itemsize) {
  if (strides.size() != shape.size()) return false;
  std::int64_t step = itemsize;
  for (std::size_t i = shape.size(); i-- > 0;) {
    if (strides[i] != step) return false;
    step *= std::max<std::int64_t>(shape[i], 1);
  }
  return true;
}

// Whether `a` can join a chain over `shape`, and how it would be touched: written in C
// order; or read in C order, one element broadcast, or as a view with any strides.
bool chain_access(const ndarray& a, const Shape& shape, bool write, Access& out) {
  if (is_shared_outside(a.buffer())) return false;
  if (!write && a.size() == 1) {
    out = Access{&a.buffer(), a.offset(), true, false};
    return true;
  }
  if (a.shape() == shape && a.is_c_contiguous()) {
    out = Access{&a.buffer(), a.offset(), false, write};
    return true;
  }
  if (write) return false;
  Strides view = strides_over(a, shape);
  if (view.empty()) return false;
  out = Access{&a.buffer(), a.offset(), true, false, std::move(view)};
  return true;
}

// Whether the pending chain may take these accesses: a buffer the chain writes is touched
// at one offset in C order by every step; any other is only read, in any way.
bool fits(const Pending& p, std::span<const Access> accesses) {
  for (const Access& a : accesses) {
    const BufferUse* u = p.uses.find(a.buffer->get());
    if (!u) continue;
    if ((u->irregular || a.irregular) ? (u->written || a.write) : u->offset != a.offset) return false;
  }
  return true;
}

// Whether the pending chain, ended by a reduction, may take a step over `shape` with these
// accesses among its steps after the reduction (Chain::after): over the reduction's output
// shape, touching in C order only buffers that nothing before the reduction touches (the
// reduction's output, what earlier such steps wrote, new memory), or reading one element
// of a buffer nothing writes; no strided views.
bool fits_after(const Pending& p, const Shape& shape, std::span<const Access> accesses) {
  if (p.chain.after_size == 0 || shape != p.chain.after_shape) return false;
  for (const Access& a : accesses) {
    if (!a.view.empty()) return false;
    const BufferUse* u = p.uses.find(a.buffer->get());
    if (!u) continue;
    if (u->irregular || a.irregular) {
      if (u->written || a.write) return false;
    } else if (!u->after || u->offset != a.offset) {
      return false;
    }
  }
  return true;
}

// Results given no memory at their call (deferred buffers) are named by placeholder
// addresses until their chain runs: unique among the buffers a pending chain touches (the
// bookkeeping names buffers by address), aligned as any allocation (kernels choose their
// vector widths by alignment), and outside every address space (bit 62 set, so not a
// canonical x86-64 or arm64 user address, and no GPU's): using one by mistake faults
// instead of reading some other array. They wrap around after 2^61 bytes, by which time
// no chain holds the earlier ones.
void* placeholder_address(std::size_t nbytes) {
  static std::atomic<std::uint64_t> next{0};
  constexpr std::uint64_t base = std::uint64_t{1} << 62, span = std::uint64_t{1} << 61, page = 4096;
  const std::uint64_t step = (static_cast<std::uint64_t>(nbytes) / page + 2) * page;  // a page apart at least
  return reinterpret_cast<void*>(static_cast<std::uintptr_t>(base + next.fetch_add(step) % span));
}

// The chain's intermediates that no one else holds and that it writes before it reads
// them: they need no memory, only the backend's scratch. Each buffer is touched at one
// address (fits()), so addresses name buffers here. A buffer's holders in the chain are its
// held uses (BufferUse::holds counts them) and the recycled results' references on it; the
// chain's list of its results (Pending::made) must be gone by now, as its references are
// holders too. Buffers whose uses do not overlap share a slot of their item size, as
// registers would, so a long formula of temporaries needs a few slots (on the CPU each is a
// block of memory per thread); the reduction's input and output keep theirs to themselves,
// and the steps after the reduction share none of the slots before it. The maps are the
// calling thread's, kept from run to run.
void assign_scratch(backend::Chain& chain, const std::vector<HeldUse>& held,
                    const detail::PointerMap<BufferUse>& uses, const detail::PointerMap<long>& alias_holds) {
  thread_local detail::PointerMap<bool> unheld;  // address -> no holder outside the chain
  thread_local detail::PointerMap<int> slot;     // address -> scratch slot (-1: read first)
  thread_local detail::PointerMap<int> last;     // address -> index of its last access
  thread_local std::vector<int> busy_until;      // per slot: its occupant's last access
  unheld.clear();
  slot.clear();
  last.clear();
  busy_until.clear();
  for (const HeldUse& h : held) {
    const BufferUse* u = uses.find(h.buffer.get());
    const long* alias = alias_holds.find(h.buffer.get());
    const long holders = (u ? u->holds : 0) + (alias ? *alias : 0);
    bool* v = unheld.try_emplace(h.address, true).first;
    *v = *v && !h.irregular && h.buffer.use_count() == holders;
  }
  // Accesses are numbered in run order: step i is i, the reduction the number of steps,
  // step j after it one more than that plus j.
  const int nsteps = static_cast<int>(chain.steps.size());
  auto note = [&](const void* address, int at) {
    int* v = last.try_emplace(address, at).first;
    *v = std::max(*v, at);
  };
  auto note_step = [&](const backend::ChainStep& s, int at) {
    for (int k = 0; k < s.nin; ++k)
      if (!s.in[k].value) note(s.in[k].data, at);
    note(s.out.data, at);
  };
  for (int i = 0; i < nsteps; ++i) note_step(chain.steps[static_cast<std::size_t>(i)], i);
  if (chain.reduction) {
    note(chain.reduction->in.data, nsteps);
    note(chain.reduction->out.data, nsteps);
  }
  for (std::size_t j = 0; j < chain.after.size(); ++j) note_step(chain.after[j], nsteps + 1 + static_cast<int>(j));
  const void* reduced = chain.reduction ? chain.reduction->in.data : nullptr;
  const void* reduced_out = chain.reduction ? chain.reduction->out.data : nullptr;
  int shared_from = 0;  // slots below this are not shared (those before the reduction, for steps after it)
  auto written = [&](const void* address, DType dtype, int at) {
    const bool* free = unheld.find(address);
    if (!free || !*free || slot.contains(address)) return;
    const int size = static_cast<int>(itemsize(dtype));
    const bool own = address == reduced || address == reduced_out;
    int k = -1;
    for (int c = shared_from; !own && k < 0 && c < static_cast<int>(busy_until.size()); ++c) {
      const auto i = static_cast<std::size_t>(c);
      if (chain.scratch_itemsize[i] == size && busy_until[i] < at) k = c;
    }
    if (k < 0) {
      k = static_cast<int>(chain.scratch_itemsize.size());
      chain.scratch_itemsize.push_back(size);
      busy_until.push_back(0);
    }
    busy_until[static_cast<std::size_t>(k)] = own ? std::numeric_limits<int>::max() : *last.find(address);
    slot.try_emplace(address, k);
  };
  auto visit = [&](backend::ChainStep& s, int at) {
    for (int k = 0; k < s.nin; ++k)
      if (!s.in[k].value) slot.try_emplace(s.in[k].data, -1);
    written(s.out.data, s.out.dtype, at);
  };
  for (int i = 0; i < nsteps; ++i) visit(chain.steps[static_cast<std::size_t>(i)], i);
  shared_from = static_cast<int>(busy_until.size());
  // The reduction writes its output before the steps after it read it.
  if (chain.reduction && !chain.after.empty()) written(reduced_out, chain.reduction->out.dtype, nsteps);
  for (std::size_t j = 0; j < chain.after.size(); ++j) visit(chain.after[j], nsteps + 1 + static_cast<int>(j));
  auto slot_of = [&](const void* address) {
    const int* k = slot.find(address);
    return k ? *k : -1;
  };
  auto assign = [&](backend::ChainStep& s) {
    for (int k = 0; k < s.nin; ++k)
      if (!s.in[k].value) s.in[k].scratch = slot_of(s.in[k].data);
    s.out.scratch = slot_of(s.out.data);
  };
  for (backend::ChainStep& s : chain.steps) assign(s);
  for (backend::ChainStep& s : chain.after) assign(s);
  if (chain.reduction && !chain.after.empty()) chain.reduction->out_scratch = slot_of(reduced_out);
}

// Memory for the chain's deferred buffers that someone still holds (their step writes them
// to memory), moving the chain's operands from their placeholders to it; the others are
// scratch, and get memory only if the backend asks (Chain::memory_for: a run that goes
// through memory after all). `deferred` maps each deferred buffer the chain touches by its
// placeholder; it must outlive the run.
void give_memory(backend::Chain& chain, backend::Backend& be, const detail::PointerMap<Buffer*>& deferred) {
  auto bind = [&be, context = chain.context](Buffer& b) {
    if (b.deferred()) detail::bind_memory(b, be.allocate_for_chain(context, b.nbytes()));
    return b.address();
  };
  auto in_memory = [&](std::vector<backend::ChainStep>& steps) {
    for (backend::ChainStep& s : steps)
      if (Buffer* const* b = s.out.scratch < 0 ? deferred.find(s.out.data) : nullptr)
        relocate(chain, s.out.data, bind(**b));  // moves s.out.data too
  };
  in_memory(chain.steps);
  in_memory(chain.after);
  // keep_in_memory() moves the operands (of the chain it runs, the steps after the
  // reduction being a chain of their own).
  chain.memory_for = [&deferred, bind](void* address) -> void* {
    Buffer* const* b = deferred.find(address);
    return b ? bind(**b) : address;
  };
}

}  // namespace

void set_fusion(bool on) {
  enabled.store(on, std::memory_order_relaxed);
  if (!on) run_deferred();
}

bool fusion_enabled() { return enabled.load(std::memory_order_relaxed); }

void run_deferred() { detail::run_deferred_work(); }

void* exported_data(const ndarray& a) {
  detail::mark_shared_outside(a.buffer());
  return a.data();
}

std::size_t deferred_ops() {
  Pending& p = pending();
  std::lock_guard lock(p.state);
  return p.chain.steps.size() + (p.chain.reduction ? 1 : 0) + p.chain.after.size();
}

namespace detail {

std::atomic<bool> deferred_pending{false};
std::atomic<std::size_t> last_scratch_slots{0};  // last_chain_scratch_slots()

void run_deferred_work() {
  Pending& p = pending();
  backend::Chain chain;
  std::vector<ErrState> states;
  std::vector<HeldUse> held;  // released once the chain has run
  // The held buffers without memory, by placeholder: the calling thread's, kept from run to
  // run (a run never starts another on its thread).
  thread_local detail::PointerMap<Buffer*> deferred;
  deferred.clear();
  {
    std::lock_guard running(p.run);
    Device device;
    {
      std::lock_guard lock(p.state);
      if (p.chain.steps.empty()) {
        deferred_pending.store(false, std::memory_order_release);
        return;
      }
      chain = std::move(p.chain);
      states = std::move(p.states);
      held = std::move(p.held);
      device = p.device;
      p.chain = std::move(p.spare_chain);
      p.states = std::move(p.spare_states);
      p.held = std::move(p.spare_held);
      p.chain.clear();
      p.states.clear();
      p.held.clear();
      p.made.clear();
      p.made_bytes = 0;
      assign_scratch(chain, held, p.uses, p.alias_holds);
      last_scratch_slots.store(chain.scratch_itemsize.size(), std::memory_order_relaxed);
      for (const HeldUse& h : held)
        if (h.buffer->deferred()) deferred.try_emplace(h.buffer->address(), h.buffer.get());
      p.deferred_bytes.store(0, std::memory_order_relaxed);
      p.uses.clear();
      p.alias_holds.clear();
    }
    // Readers of this chain's memory wait on `running`; pending stays set until it is done.
    struct Settle {
      Pending& p;
      ~Settle() {
        std::lock_guard lock(p.state);
        deferred_pending.store(!p.chain.steps.empty(), std::memory_order_release);
      }
    } settle{p};
    struct Release {  // the chain's hold on its buffers ends with the run, thrown or not
      std::vector<HeldUse>& held;
      ~Release() { held.clear(); }
    } release{held};
    backend::Backend& be = backend::backend_for(device);
    give_memory(chain, be, deferred);
    be.run_chain(chain);
  }
  // Warnings after the run, under each step's own error state, in call order (the steps
  // after the reduction last: their states follow the others').
  const std::size_t before = chain.steps.size();
  for (std::size_t i = 0; i < before + chain.after.size(); ++i) {
    const backend::ChainStep& s = i < before ? chain.steps[i] : chain.after[i - before];
    if (!s.fp_found) continue;
    struct Restore {
      ErrState saved;
      ~Restore() { seterr(saved); }
    } restore{seterr(states[i])};
    report_fp_errors(s.fp_found, fp_op_name(s.op));
  }
  // The emptied vectors serve the next chain.
  chain.clear();
  states.clear();
  std::lock_guard lock(p.state);
  p.spare_chain = std::move(chain);
  p.spare_states = std::move(states);
  p.spare_held = std::move(held);
}

void run_deferred_touching(const Buffer* b) {
  Pending& p = pending();
  {
    std::lock_guard running(p.run);  // a chain in progress on another thread finishes first
    std::lock_guard lock(p.state);
    if (!p.uses.contains(b)) return;
  }
  run_deferred_work();
}

void settle_buffer(const Buffer& b) {
  run_deferred_touching(&b);
  if (!b.deferred()) return;
  // No pending chain computes it any more (its run failed before giving it memory): memory
  // now, unwritten, as a failed eager op leaves its result.
  Pending& p = pending();
  std::lock_guard running(p.run);
  if (b.deferred()) bind_memory(const_cast<Buffer&>(b), backend::backend_for(b.device()).allocate(b.nbytes()));
}

void bind_memory(Buffer& b, std::shared_ptr<Buffer> memory) {
  b.ptr_ = memory->data();
  b.deleter_ = [keep = std::move(memory)](void*) {};
  b.deferred_.store(false, std::memory_order_release);
}

void mark_shared_outside(const std::shared_ptr<Buffer>& b) {
  SharedOutside& t = shared_outside_table();
  std::lock_guard lock(t.m);
  // Entries of freed buffers go when the table doubles, so a program that exports many
  // short-lived arrays keeps it small.
  static std::size_t sweep_at = 1024;
  if (t.buffers.size() >= sweep_at) {
    std::erase_if(t.buffers, [](const auto& e) { return e.second.expired(); });
    sweep_at = std::max<std::size_t>(1024, 2 * t.buffers.size());
  }
  t.buffers[b.get()] = b;
}

}  // namespace detail

std::size_t last_chain_scratch_slots() { return detail::last_scratch_slots.load(std::memory_order_relaxed); }

namespace api {

namespace {

// Records `step` (kind, op, loop, nin, each input's dtype and fp_mask set) over `inputs`
// into the pending chain, as defer_elementwise describes.
bool record(backend::ChainStep step, std::span<const DeferredInput> inputs, const ndarray* out, DType result_dtype,
            const Shape& shape, const Strides& out_strides, ndarray& result) {
  const ndarray* any = out;
  for (const DeferredInput& in : inputs)
    if (!any && in.array) any = in.array;
  const Device device = any ? any->device() : default_device();
  backend::Backend& be = backend::backend_for(device);
  if (!be.can_chain(step)) return false;
  const ErrState st = geterr();
  if (!deferrable(st.divide) || !deferrable(st.over) || !deferrable(st.under) || !deferrable(st.invalid)) return false;
  const std::int64_t size = shape_size(shape);
  if (size == 0) return false;

  // Every operand must fit a chain; an input in the output's buffer must be the output's
  // very view (x += y), as the eager path otherwise copies it first.
  std::array<Access, 4> accesses;
  const int nin = static_cast<int>(inputs.size());
  int naccess = 0;
  for (int k = 0; k < nin; ++k) {
    if (!inputs[k].array) continue;
    if (inputs[k].array->dtype() != step.in[k].dtype) return false;
    if (!chain_access(*inputs[k].array, shape, false, accesses[naccess])) return false;
    ++naccess;
  }
  std::shared_ptr<void> context = be.chain_context();
  Pending& p = pending();
  ndarray made;
  bool lazy = false;              // made has no memory yet
  std::shared_ptr<Buffer> owner;  // of a recycled result's memory (null: newly allocated)
  if (out) {
    if (out->dtype() != result_dtype || !chain_access(*out, shape, true, accesses[naccess])) return false;
    for (int k = 0; k < naccess; ++k)
      if (accesses[k].buffer->get() == out->buffer().get() &&
          (accesses[k].irregular || accesses[k].offset != out->offset()))
        return false;
    ++naccess;
  } else {
    if (!are_c_strides(out_strides, shape, itemsize(result_dtype))) return false;
    const auto nbytes = static_cast<std::size_t>(size * itemsize(result_dtype));
    // No memory until the chain runs, and none then unless someone holds the result, where
    // the backend has room for it beside the chain's other such results (else memory now,
    // so that running out raises here, as eagerly).
    const std::size_t deferred_bytes = p.deferred_bytes.load(std::memory_order_relaxed) + nbytes;
    lazy = deferred_bytes <= be.memory_room();
    std::shared_ptr<Buffer> memory;
    if (lazy) {
      memory = std::make_shared<Buffer>(Buffer::Deferred{}, placeholder_address(nbytes), nbytes, device);
    } else {
      std::lock_guard lock(p.state);
      if (!p.chain.steps.empty() && !p.chain.reduction && same_run(p, device, context, shape))
        memory = recycle(p, result_dtype, nbytes, owner);
    }
    made = ndarray(memory ? std::move(memory) : be.allocate(nbytes), result_dtype, shape, out_strides, 0);
    accesses[naccess++] = Access{&made.buffer(), 0, false, true};
  }
  const std::span<const Access> touched(accesses.data(), static_cast<std::size_t>(naccess));

  std::array<const Strides*, 3> views{};  // each input's Access::view, when it has one
  for (int k = 0, a = 0; k < nin; ++k) {
    backend::ChainOperand& o = step.in[k];
    if (inputs[k].array) {
      o.broadcast = inputs[k].array->size() == 1;
      if (!accesses[a].view.empty()) views[k] = &accesses[a].view;
      ++a;
    } else {
      o.value = true;
      inputs[k].scalar->store(o.dtype, step.values[k]);
    }
  }
  const ndarray& target = out ? *out : made;
  step.out.dtype = result_dtype;

  // Joins the pending chain, or says it cannot (the lock on p.state held).
  auto join = [&] {
    // Addresses now: a run of the pending chain gives its results memory, and those are
    // placeholders until then.
    for (int k = 0; k < nin; ++k)
      if (inputs[k].array)
        step.in[k].data = static_cast<char*>(inputs[k].array->buffer()->address()) + inputs[k].array->offset();
    step.out.data = static_cast<char*>(target.buffer()->address()) + target.offset();
    const bool empty = p.chain.steps.empty();
    const bool over_memory = p.made_bytes > dead_memory_limit() && dead_bytes(p) > dead_memory_limit();
    const bool room = p.chain.steps.size() + p.chain.after.size() < kMaxSteps && !over_memory;
    // A chain ending in a reduction takes only steps over the reduction's output after it.
    const bool after = !empty && p.chain.reduction && room && p.device == device && p.chain.context == context &&
                       fits_after(p, shape, touched);
    if (!empty && !after && !(same_run(p, device, context, shape) && !p.chain.reduction && room && fits(p, touched)))
      return false;
    if (empty) {
      p.device = device;
      p.chain.shape = shape;
      p.chain.size = size;
      p.chain.context = context;
    }
    if (lazy) {
      p.deferred_bytes.fetch_add(made.buffer()->nbytes(), std::memory_order_relaxed);
    } else if (!out) {
      p.made.push_back(MadeResult{made.buffer(), result_dtype, owner});
      if (!owner) p.made_bytes += made.buffer()->nbytes();
    }
    (after ? p.chain.after : p.chain.steps).push_back(step);
    for (int k = 0; k < nin; ++k)
      if (views[k]) {
        p.chain.steps.back().in[k].view = static_cast<int>(p.chain.views.size());
        p.chain.views.push_back(*views[k]);
      }
    detail::deferred_pending.store(true, std::memory_order_release);
    p.states.push_back(st);
    for (const Access& a : touched) {
      const char* at = static_cast<const char*>((*a.buffer)->address()) + a.offset;
      p.held.push_back(HeldUse{*a.buffer, at, a.irregular});
      auto [use, added] = p.uses.try_emplace(a.buffer->get(), BufferUse{a.offset, a.irregular, a.write, 0, after});
      if (!added) {
        use->written |= a.write;
        use->irregular |= a.irregular;
      }
      ++use->holds;
    }
    return true;
  };
  for (;;) {
    std::shared_ptr<Buffer> unsettled;
    {
      std::lock_guard lock(p.state);
      // A deferred operand the pending chain does not touch belongs to a chain that another
      // thread is running, and gets its memory (its address) there: wait for that first.
      // One the pending chain touches keeps its placeholder while this lock is held.
      for (const Access& a : touched)
        if (a.buffer != &made.buffer() && (*a.buffer)->deferred() && !p.uses.contains(a.buffer->get()))
          unsettled = *a.buffer;
      if (!unsettled && join()) break;
    }
    if (unsettled) unsettled->data();
    else detail::run_deferred_work();  // this op cannot join what is pending: that runs first
  }
  result = out ? *out : std::move(made);
  return true;
}

// Whether `a` addresses its elements as a C-ordered array does, up to the order of its
// axes (a transposed view of one): strides positive, each the product of the lengths of
// the axes with smaller strides.
bool c_order_up_to_axes(const ndarray& a) {
  std::vector<std::pair<std::int64_t, std::int64_t>> dims;  // (stride, length), length > 1
  for (int d = 0; d < a.ndim(); ++d)
    if (a.shape()[d] != 1) dims.emplace_back(a.strides()[d], a.shape()[d]);
  std::sort(dims.begin(), dims.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  std::int64_t want = itemsize(a.dtype());
  for (auto it = dims.rbegin(); it != dims.rend(); ++it) {
    if (it->first != want) return false;
    want *= it->second;
  }
  return true;
}

}  // namespace

bool defer_reduce(ops::ReduceOp op, const ndarray& in, int nreduce, const ndarray& out) {
  if (!fusion_enabled() || !detail::deferred_pending.load(std::memory_order_acquire)) return false;
  const Device device = in.device();
  backend::Backend& be = backend::backend_for(device);
  backend::ChainStep more;  // whether the backend takes deferred work now (CUDA: no graph capture)
  more.kind = backend::StepKind::cast;
  more.nin = 1;
  more.in[0].dtype = more.out.dtype = in.dtype();
  if (!be.can_chain(more) || out.buffer() == in.buffer() || is_shared_outside(out.buffer()) ||
      !c_order_up_to_axes(in))
    return false;
  const std::shared_ptr<void> context = be.chain_context();
  Pending& p = pending();
  std::lock_guard lock(p.state);
  // A deferred output is a chain's result: the pending chain's (refused below), or one that a
  // run on another thread is giving memory, whose address is not settled yet.
  if (out.buffer()->deferred()) return false;
  if (p.chain.steps.empty() || p.chain.reduction || p.device != device || p.chain.context != context ||
      in.size() != p.chain.size || p.uses.contains(out.buffer().get()))
    return false;
  // The input must be a buffer the chain writes, at the chain's offset, last as in's dtype
  // (so its address, read only now, is the one the chain's steps have).
  BufferUse* use = p.uses.find(in.buffer().get());
  if (!use || !use->written || use->irregular || use->offset != in.offset()) return false;
  char* at = static_cast<char*>(in.buffer()->address()) + in.offset();
  char* out_at = static_cast<char*>(out.buffer()->address()) + out.offset();
  const backend::ChainStep* last = nullptr;
  for (const backend::ChainStep& s : p.chain.steps)
    if (s.out.data == at) last = &s;
  if (!last || last->out.dtype != in.dtype()) return false;
  p.chain.reduction = backend::ChainReduction{op, backend::ArrayView{at, in.dtype(), in.shape(), in.strides()}, nreduce,
                                              backend::ArrayView{out_at, out.dtype(), out.shape(), out.strides()}};
  p.held.push_back(HeldUse{in.buffer(), at, false});
  ++use->holds;
  p.held.push_back(HeldUse{out.buffer(), out_at, false});
  p.uses.try_emplace(out.buffer().get(), BufferUse{out.offset(), false, true, 1, true});
  // Elementwise steps over the output may follow (fits_after) when it is C-ordered.
  if (out.is_c_contiguous() && out.size() > 0) {
    p.chain.after_shape = out.shape();
    p.chain.after_size = out.size();
  }
  return true;
}

bool defer_elementwise(ops::UfuncId op, DType loop, std::span<const DeferredInput> inputs, const ndarray* out,
                       DType result_dtype, const Shape& shape, const Strides& out_strides, ndarray& result) {
  if (!fusion_enabled()) return false;
  backend::ChainStep step;
  step.op = op;
  step.loop = loop;
  step.nin = static_cast<int>(inputs.size());
  for (int k = 0; k < step.nin; ++k) step.in[k].dtype = ops::input_dtype(op, loop, k);
  step.fp_mask = fp_watch_mask();
  return record(step, inputs, out, result_dtype, shape, out_strides, result);
}

bool defer_where(std::span<const DeferredInput, 3> inputs, DType dtype, const Shape& shape, ndarray& result) {
  if (!fusion_enabled()) return false;
  backend::ChainStep step;
  step.kind = backend::StepKind::where;
  step.nin = 3;
  step.in[0].dtype = DType::bool_;
  step.in[1].dtype = step.in[2].dtype = dtype;
  return record(step, inputs, nullptr, dtype, shape, c_strides(shape, itemsize(dtype)), result);
}

bool defer_cast(const ndarray& src, DType dtype, const Strides& strides, ndarray& result) {
  if (!fusion_enabled()) return false;
  // A bool-to-bool copy moves bytes, as NumPy's does (a bool view may hold any byte); a GPU
  // chain loads a bool as a value (nonzero is true), so such a copy runs eagerly.
  if (src.dtype() == DType::bool_ && dtype == DType::bool_) return false;
  backend::ChainStep step;
  step.kind = backend::StepKind::cast;
  step.nin = 1;
  step.in[0].dtype = src.dtype();
  const DeferredInput in{&src};
  return record(step, std::span<const DeferredInput>(&in, 1), nullptr, dtype, src.shape(), strides, result);
}

}  // namespace api
}  // namespace copper
