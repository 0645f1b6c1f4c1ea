// Automatic fusion of eager elementwise code (issue 17; first stage: the CPU backend).
//
// With fusion on, an elementwise op whose operands all cover one shape in C order (or are
// scalars or single elements) is recorded instead of run: the call checks its arguments,
// resolves dtypes, allocates its result and returns at once, as always, and the recorded
// ops run later as one pass over memory, block by block (src/backend/cpu/cpu_fused_chain.cpp),
// with intermediates that no array holds kept out of memory. Results are the eager ones:
// any read of an array the recorded work touches (ndarray::data(): host copies, every
// other operation, exports, printing) runs it first, and so do synchronize() and
// run_deferred(). Floating-point warnings of recorded ops come when they run, under the
// error state of their call (as GPU ops' already do); ops under errstate 'raise', 'call',
// 'print' or 'log', and arrays whose memory is shared outside copper, run at once.
#pragma once
#include <atomic>
#include <cstddef>
#include <memory>

#include "copper/ndarray.hpp"

namespace copper {

// On or off for the whole process; on by default, off when COPPER_FUSION=0. Turning it
// off runs what is pending.
void set_fusion(bool on);
bool fusion_enabled();
// Runs every deferred op now.
void run_deferred();
// How many ops are waiting, a reduction ending the chain included (tests).
std::size_t deferred_ops();
// How many of the last chain run's intermediates were kept out of memory (scratch slots:
// results no array held by then), for tests.
std::size_t last_chain_scratch_slots();

// a.data() for a pointer handed outside copper (DLPack, the CUDA array interface,
// data_ptr, data.ptr): runs the pending work on it, and later ops on its memory are never
// deferred, since the other side may read or write it at any time.
void* exported_data(const ndarray& a);

namespace detail {
// Set while deferred work is pending or running: ndarray::data() looks no further when not.
extern std::atomic<bool> deferred_pending;
void run_deferred_work();                   // runs everything pending
void run_deferred_touching(const Buffer* b);  // runs the pending chain if it touches b
// Memory that code outside copper may read or write at any time (foreign or exported).
void mark_shared_outside(const std::shared_ptr<Buffer>& b);
}  // namespace detail

}  // namespace copper
