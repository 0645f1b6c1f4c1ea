// A test process that dies of a signal prints its stack to stderr first, so a crash seen
// only on another machine (a GPU run, CI) says where it happened. The names come from the
// executable's exported symbols (ENABLE_EXPORTS); the default action then runs as before,
// so ctest still reports the signal.
#include <execinfo.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <initializer_list>

namespace {

void print_stack_and_die(int sig) {
  const char* what = strsignal(sig);
  static constexpr char kHead[] = "\n*** copper_tests: fatal signal: ";
  (void)!write(STDERR_FILENO, kHead, sizeof kHead - 1);
  (void)!write(STDERR_FILENO, what, std::strlen(what));
  (void)!write(STDERR_FILENO, "\n", 1);
  void* frames[64];
  backtrace_symbols_fd(frames, backtrace(frames, 64), STDERR_FILENO);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

const bool installed = [] {
  void* warm[1];
  backtrace(warm, 1);  // loads libgcc's unwinder now, not inside the handler
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) std::signal(sig, print_stack_and_die);
  return true;
}();

}  // namespace
