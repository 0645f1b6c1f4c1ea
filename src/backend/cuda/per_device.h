// One object per GPU, made on first use and read without a lock afterwards (every op
// asks for its device's context, backend and memory pool). A table owns its objects;
// the process-wide tables are leaked on purpose, since buffers freed at process exit may
// still need their device's objects.
#pragma once
#include <atomic>
#include <memory>
#include <mutex>

namespace copper::backend::cuda {

// The most GPUs copper addresses in one process (fixed-size per-device tables).
inline constexpr int kMaxDevices = 64;

template <class T> class PerDevice {
 public:
  static constexpr int kMaxDevices = cuda::kMaxDevices;

  PerDevice() = default;
  PerDevice(const PerDevice&) = delete;
  PerDevice& operator=(const PerDevice&) = delete;
  ~PerDevice() {
    for (auto& p : objects_) delete p.load(std::memory_order_relaxed);
  }

  // The object of `index` (0 <= index < kMaxDevices), made by `make()` (returning
  // std::unique_ptr<T>) the first time; callers check the index beforehand. If make()
  // throws, nothing is stored.
  template <class Make> T& get(int index, Make&& make) {
    if (T* p = objects_[index].load(std::memory_order_acquire)) return *p;
    std::lock_guard lock(mutex_);
    if (T* p = objects_[index].load(std::memory_order_relaxed)) return *p;
    T* made = make().release();
    objects_[index].store(made, std::memory_order_release);
    return *made;
  }

 private:
  std::mutex mutex_;
  std::atomic<T*> objects_[kMaxDevices] = {};
};

}  // namespace copper::backend::cuda
