// Workers sleep on a condition variable between jobs; a job is one function and a
// task count, handed out through an atomic counter so uneven tasks balance.
#include "backend/cpu/thread_pool.h"

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "copper/errors.hpp"
#include "copper/runtime.hpp"

namespace copper::backend::cpu {
namespace {

int threads_from_environment() {
  if (const char* env = std::getenv("COPPER_NUM_THREADS"); env && *env) {
    int n = std::atoi(env);
    if (n > 0) return n;
  }
  unsigned hw = std::thread::hardware_concurrency();
  return hw ? static_cast<int>(hw) : 1;
}

class Pool {
 public:
  explicit Pool(int nthreads) { resize(nthreads); }
  ~Pool() { stop_workers(); }

  int size() const { return nthreads_; }

  void resize(int nthreads) {
    std::lock_guard<std::mutex> run_lock(run_mutex_);
    stop_workers();
    nthreads_ = nthreads;
    stopping_ = false;
    for (int i = 1; i < nthreads; ++i) workers_.emplace_back([this] { worker_loop(); });
  }

  void run(int ntasks, const std::function<void(int)>& fn) {
    std::lock_guard<std::mutex> run_lock(run_mutex_);  // one job at a time
    {
      std::lock_guard<std::mutex> lock(mutex_);
      fn_ = &fn;
      ntasks_ = ntasks;
      next_.store(0);
      pending_ = ntasks;
      error_ = nullptr;
      ++generation_;
    }
    wake_.notify_all();
    work();
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return pending_ == 0; });
    fn_ = nullptr;
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void work() {
    int finished = 0;
    for (int t; (t = next_.fetch_add(1)) < ntasks_;) {
      try {
        (*fn_)(t);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!error_) error_ = std::current_exception();
      }
      ++finished;
    }
    if (finished) {
      std::lock_guard<std::mutex> lock(mutex_);
      pending_ -= finished;
      if (pending_ == 0) done_.notify_all();
    }
  }

  void worker_loop() {
    std::uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || (generation_ != seen && fn_ != nullptr); });
        if (stopping_) return;
        seen = generation_;
      }
      work();
    }
  }

  void stop_workers() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (auto& w : workers_) w.join();
    workers_.clear();
  }

  std::mutex run_mutex_, mutex_;
  std::condition_variable wake_, done_;
  std::vector<std::thread> workers_;
  const std::function<void(int)>* fn_ = nullptr;
  int ntasks_ = 0;
  std::atomic<int> next_{0};
  int pending_ = 0;
  std::exception_ptr error_;
  std::uint64_t generation_ = 0;
  bool stopping_ = false;
  int nthreads_ = 1;
};

Pool& pool() {
  static Pool p(threads_from_environment());
  return p;
}

thread_local bool inside_job = false;  // nested parallel calls run inline

}  // namespace

int num_threads() { return pool().size(); }

void set_num_threads(int n) {
  if (n < 1) throw ValueError("number of threads must be at least 1");
  if (n != pool().size()) pool().resize(n);
}

void parallel_tasks(int ntasks, const std::function<void(int)>& fn) {
  if (ntasks <= 1 || pool().size() == 1 || inside_job) {
    for (int t = 0; t < ntasks; ++t) fn(t);
    return;
  }
  pool().run(ntasks, [&](int t) {
    inside_job = true;
    fn(t);
    inside_job = false;
  });
}

void parallel_for(std::int64_t n, std::int64_t grain, const std::function<void(std::int64_t, std::int64_t)>& fn) {
  if (n <= 0) return;
  std::int64_t max_tasks = std::max<std::int64_t>(1, n / std::max<std::int64_t>(grain, 1));
  int ntasks = static_cast<int>(std::min<std::int64_t>(max_tasks, num_threads()));
  if (ntasks <= 1) {
    fn(0, n);
    return;
  }
  parallel_tasks(ntasks, [&](int t) {
    std::int64_t begin = n * t / ntasks, end = n * (t + 1) / ntasks;
    fn(begin, end);
  });
}

}  // namespace copper::backend::cpu

namespace copper {
int get_num_threads() { return backend::cpu::num_threads(); }
void set_num_threads(int n) { backend::cpu::set_num_threads(n); }
}  // namespace copper
