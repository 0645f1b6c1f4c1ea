// The per-thread floating-point error state and how errors are reported (errstate.hpp).
#include "copper/errstate.hpp"

#include <exception>
#include <iostream>
#include <mutex>
#include <string>

#include "api/fp_errors_internal.h"
#include "copper/errors.hpp"
#include "copper/fusion.hpp"

namespace copper {

namespace {

thread_local ErrState state_;
thread_local FpErrorCall call_;

std::mutex handler_mutex_;
FpErrorHandler handler_;  // null: the default handler

void default_handler(FpMode mode, const std::string& kind, unsigned flag, const std::string& message) {
  switch (mode) {
    case FpMode::warn: std::cerr << "RuntimeWarning: " << message << "\n"; break;
    case FpMode::print: std::cout << "Warning: " << message << "\n"; break;
    case FpMode::call:
      if (!call_) throw ValueError("No callable set for floating-point errors (seterrcall) in 'call' mode");
      call_(kind, flag);
      break;
    case FpMode::log:
      if (!call_) throw ValueError("No object with a write method set for floating-point errors in 'log' mode");
      call_(kind, flag);
      break;
    default: break;
  }
}

constexpr struct {
  unsigned flag;
  const char* kind;
  FpMode ErrState::*mode;
} kErrors[] = {
    {fp_divide, "divide by zero", &ErrState::divide},
    {fp_overflow, "overflow", &ErrState::over},
    {fp_underflow, "underflow", &ErrState::under},
    {fp_invalid, "invalid value", &ErrState::invalid},
};

}  // namespace

FpMode fp_mode_from_name(std::string_view name) {
  for (FpMode m : {FpMode::ignore, FpMode::warn, FpMode::raise, FpMode::call, FpMode::print, FpMode::log})
    if (fp_mode_name(m) == name) return m;
  throw ValueError("invalid error mode '" + std::string(name) +
                   "'; expected one of 'ignore', 'warn', 'raise', 'call', 'print', 'log'");
}

std::string_view fp_mode_name(FpMode mode) {
  static constexpr std::string_view names[] = {"ignore", "warn", "raise", "call", "print", "log"};
  return names[static_cast<int>(mode)];
}

ErrState geterr() { return state_; }

ErrState seterr(const ErrState& state) {
  const ErrState old = state_;
  state_ = state;
  return old;
}

unsigned fp_watch_mask() {
  unsigned mask = 0;
  for (const auto& e : kErrors)
    if (state_.*e.mode != FpMode::ignore) mask |= e.flag;
  return mask;
}

void set_fp_error_handler(FpErrorHandler handler) {
  std::lock_guard lock(handler_mutex_);
  handler_ = std::move(handler);
}

FpErrorCall seterrcall(FpErrorCall call) {
  FpErrorCall old = std::move(call_);
  call_ = std::move(call);
  return old;
}

FpErrorCall geterrcall() { return call_; }

void report_fp_errors(unsigned flags, std::string_view op) {
  for (const auto& e : kErrors) {
    const FpMode mode = state_.*e.mode;
    if (!(flags & e.flag) || mode == FpMode::ignore) continue;
    const std::string message = std::string(e.kind) + " encountered in " + std::string(op);
    if (mode == FpMode::raise) throw FloatingPointError(message);
    FpErrorHandler handler;
    {
      std::lock_guard lock(handler_mutex_);
      handler = handler_;
    }
    if (handler) handler(mode, e.kind, e.flag, message);
    else default_handler(mode, e.kind, e.flag, message);
  }
}

namespace detail {

std::atomic<void (*)()> fp_scope_exit_hook{nullptr};

}  // namespace detail

void flush_fp_errors() {
  // Deferred GPU work recorded in the scope runs first, so its errors are the scope's.
  if (detail::deferred_pending.load(std::memory_order_acquire)) run_deferred();
  if (auto hook = detail::fp_scope_exit_hook.load()) hook();
}

errstate::errstate(const ErrState& state) : previous_(seterr(state)), unwinding_(std::uncaught_exceptions()) {}

errstate::~errstate() noexcept(false) {
  // GPU work launched in the scope reports its errors under the scope's state; not while
  // an exception unwinds (a second exception would terminate).
  struct Restore {
    ErrState previous;
    ~Restore() { seterr(previous); }
  } restore{previous_};
  if (std::uncaught_exceptions() == unwinding_) flush_fp_errors();
}

}  // namespace copper
