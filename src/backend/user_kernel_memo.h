// What a user kernel's call built (a CPU entry point, a GPU kernel's source and key),
// memoized per call signature so that repeated calls build nothing. The build runs
// outside the lock; when two threads build one key, the first stored wins.
#pragma once
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

namespace copper::backend {

template <class Value>
class UserKernelMemo {
 public:
  template <class Build>
  Value get(const std::string& key, Build&& build) {
    {
      std::lock_guard lock(mutex_);
      if (auto it = map_.find(key); it != map_.end()) return it->second;
    }
    Value value = build();
    std::lock_guard lock(mutex_);
    return map_.emplace(key, std::move(value)).first->second;
  }

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, Value> map_;
};

}  // namespace copper::backend
