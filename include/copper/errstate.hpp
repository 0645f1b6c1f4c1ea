// NumPy's floating-point error handling: seterr / geterr / errstate / seterrcall.
// Each thread has its own state (NumPy keeps it in a context variable), defaulting to
// NumPy's: warn on divide-by-zero, overflow and invalid; ignore underflow.
//
// Elementwise ops detect the errors from values (an infinity from finite inputs is
// divide-by-zero at a pole such as x/0 or log(0), else overflow; a NaN from inputs without
// NaN is invalid; an integer divisor of 0 is divide-by-zero), the same rules on every
// device. Underflow is not detected. On the CPU the errors are handled when the op returns;
// a GPU records them in a device-side word, and they are handled at the stream's next
// synchronization (a host read, synchronize(), or leaving an errstate block), so no op
// waits for the GPU.
#pragma once
#include <functional>
#include <string>
#include <string_view>

#include "copper/errors.hpp"

namespace copper {

// Python's FloatingPointError: a floating-point error under errstate(...='raise').
struct FloatingPointError : error { using error::error; };

enum class FpMode : unsigned char { ignore, warn, raise, call, print, log };

// NumPy's bits (the `flag` a seterrcall function receives).
enum FpFlag : unsigned { fp_divide = 1, fp_overflow = 2, fp_underflow = 4, fp_invalid = 8 };

struct ErrState {
  FpMode divide = FpMode::warn;
  FpMode over = FpMode::warn;
  FpMode under = FpMode::ignore;
  FpMode invalid = FpMode::warn;
  bool operator==(const ErrState&) const = default;
};

// NumPy's names ("ignore", "warn", ...); ValueError for others.
FpMode fp_mode_from_name(std::string_view name);
std::string_view fp_mode_name(FpMode mode);

ErrState geterr();
ErrState seterr(const ErrState& state);  // returns the previous state
// The bits (FpFlag) whose mode is not ignore: what detection must look for.
unsigned fp_watch_mask();

// What 'warn', 'call', 'print' and 'log' do, per error: kind is NumPy's ("divide by zero",
// "overflow", "underflow", "invalid value"), flag its FpFlag, message NumPy's text
// ("divide by zero encountered in divide"). The default handler writes warnings to stderr
// and 'print' to stdout and calls the seterrcall function for 'call'; the Python module
// installs one that issues RuntimeWarning and calls Python objects.
using FpErrorHandler = std::function<void(FpMode mode, const std::string& kind, unsigned flag, const std::string& message)>;
void set_fp_error_handler(FpErrorHandler handler);

// The function 'call' mode calls with (kind, flag): NumPy's seterrcall, for C++ callers.
using FpErrorCall = std::function<void(const std::string& kind, unsigned flag)>;
FpErrorCall seterrcall(FpErrorCall call);  // returns the previous one
FpErrorCall geterrcall();

// Applies the calling thread's state to errors `flags` that op `op` raised: raise throws
// FloatingPointError, the other modes go to the handler. NumPy's order: divide, over,
// under, invalid.
void report_fp_errors(unsigned flags, std::string_view op);

// Handles now the errors GPU work has recorded (synchronizing the streams that have
// some); nothing on the CPU, whose errors are handled as each op returns.
void flush_fp_errors();

// Sets a state for a scope and restores the previous one on exit, as `with np.errstate(...)`.
// On exit, GPU work enqueued inside is synchronized first, so its errors are handled under
// the scope's state (the one place errstate waits for a GPU).
class errstate {
 public:
  explicit errstate(const ErrState& state);
  ~errstate() noexcept(false);
  errstate(const errstate&) = delete;
  errstate& operator=(const errstate&) = delete;

 private:
  ErrState previous_;
  int unwinding_;  // std::uncaught_exceptions() on entry
};

}  // namespace copper
