#include "backend/chain_compile_audit.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <string>
#include <unordered_set>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef COPPER_HAVE_CUDA
#include "backend/cuda/cuda_fused_chain.h"
#include "backend/cuda/kernel_cache.h"
#endif

namespace copper::backend {

#ifdef COPPER_HAVE_CUDA
namespace {

double audit_threshold() {
  const char* v = std::getenv("COPPER_CHAIN_COMPILE_AUDIT");
  return v && *v ? std::atof(v) : 0.0;
}

// Seconds after which a compile is ended: COPPER_CHAIN_COMPILE_AUDIT_CAP, else 3x the limit
// and at least a minute.
double audit_cap(double limit) {
  const char* v = std::getenv("COPPER_CHAIN_COMPILE_AUDIT_CAP");
  return v && *v ? std::atof(v) : std::max(60.0, 3 * limit);
}

// Compiles in a child process, which is killed after `cap` seconds: NVRTC cannot be
// interrupted, and a Python caller holds the interpreter's lock, so no timer of this
// process (pytest-timeout's included) could end a compile that never finishes. Returns the
// seconds taken, or -1 when the child was killed; `failure` gets NVRTC's error (or says the
// child could not be started).
double timed_compile(const std::string& source, double cap, std::string& failure) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(clock::now() - start).count(); };
  int fd[2];
  if (::pipe(fd) != 0) {
    failure = "no pipe for a compiling process";
    return elapsed();
  }
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fd[0]);
    try {
      cuda::compile_cubin(source, 90);
      ::_exit(0);
    } catch (const std::exception& e) {
      const std::size_t n = std::min<std::size_t>(std::strlen(e.what()), 400);
      if (::write(fd[1], e.what(), n) < 0) ::_exit(2);
      ::_exit(1);
    }
  }
  ::close(fd[1]);
  if (pid < 0) {
    ::close(fd[0]);
    failure = "could not fork a compiling process";
    return elapsed();
  }
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) != pid) {
    if (elapsed() > cap) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      ::close(fd[0]);
      return -1;
    }
    ::usleep(2000);
  }
  const double seconds = elapsed();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    char buf[401];
    const ssize_t n = ::read(fd[0], buf, 400);
    failure = n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "the compiling process failed";
  }
  ::close(fd[0]);
  return seconds;
}

std::string audit_dir() {
  const char* v = std::getenv("COPPER_CHAIN_COMPILE_AUDIT_DIR");
  return v && *v ? v : "/tmp";
}

// Compiles `source` unless seen before; logs it when slower than `limit` seconds.
void audit_source(const std::string& source, const char* what, double limit) {
  static std::mutex mutex;
  static std::unordered_set<std::string> seen;
  static int counter = 0;
  if (source.empty()) return;
  std::string path;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!seen.insert(source).second) return;
    path = audit_dir() + "/chain_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ".cu";
  }
  std::ofstream(path) << source;
  std::string failure;
  const double cap = audit_cap(limit);
  const double seconds = timed_compile(source, cap, failure);
  if (seconds >= 0 && seconds <= limit && failure.empty()) {
    std::remove(path.c_str());
    return;
  }
  std::lock_guard<std::mutex> lock(mutex);
  std::ofstream log(audit_dir() + "/chain_compile_audit.log", std::ios::app);
  if (seconds < 0) log << what << " " << cap << " s " << path << " DID NOT FINISH (ended)\n";
  else log << what << " " << seconds << " s " << path << (failure.empty() ? "" : " FAILED: " + failure.substr(0, 200)) << "\n";
}

}  // namespace

void audit_chain_compile(const Chain& chain) {
  static const double limit = audit_threshold();
  if (limit <= 0) return;
  if (!chain.reduction) {
    audit_source(cuda::fused_chain_source(chain), "elementwise", limit);
    return;
  }
  const ChainReduction& r = *chain.reduction;
  std::int64_t row = 1;
  for (std::size_t d = r.in.shape.size() - static_cast<std::size_t>(r.nreduce); d < r.in.shape.size(); ++d)
    row *= r.in.shape[d];
  using cuda::ReduceShape;
  for (ReduceShape shape : {ReduceShape::rows, ReduceShape::block})
    audit_source(cuda::fused_reduction_source(chain, shape, cuda::ReduceMode::contiguous), "fed-reduction", limit);
  if (row <= 32)  // launch_reduce gives rows_serial only short rows
    audit_source(cuda::fused_reduction_source(chain, ReduceShape::rows_serial, cuda::ReduceMode::contiguous),
                 "fed-serial", limit);
}
#else
void audit_chain_compile(const Chain&) {}
#endif

}  // namespace copper::backend
