// The plan cache both backends keep (one per device): least recently used plans are
// dropped first when the count or work-area byte limit is reached. Thread-safe; plans
// are shared_ptrs, so one evicted while another thread executes it lives until that ends.
#pragma once
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "copper/fft.hpp"

namespace copper::backend {

// The plans a user's plan object keeps (copper::fft::PlanSet, CuPy's get_fft_plan).
struct FftPinnedPlans {
  mutable std::mutex mutex;
  std::map<fft::PlanKey, std::shared_ptr<const fft::Plan>> plans;
};

class FftPlanCache {
 public:
  using PlanPtr = std::shared_ptr<const fft::Plan>;
  explicit FftPlanCache(std::int64_t size = 16) : size_limit_(size) {}

  // The plan cached under key (a hit), else make() (a miss), cached when the limits let it.
  PlanPtr get_or_make(const fft::PlanKey& key, const std::function<PlanPtr()>& make);

  std::int64_t size_limit() const;
  void set_size_limit(std::int64_t size);
  std::int64_t memsize_limit() const;
  void set_memsize_limit(std::int64_t bytes);
  std::int64_t count() const;
  std::int64_t memsize() const;
  std::int64_t hits() const;
  std::int64_t misses() const;
  void clear();
  std::vector<fft::PlanCacheEntry> entries() const;
  PlanPtr get(const fft::PlanKey& key);  // moves it to the front; nullptr when absent
  bool erase(const fft::PlanKey& key);

  // While a scope lives, get_or_make on this thread looks in `pins` first (a plan found
  // there leaves the cache and its statistics alone) and adds what it hands out to it.
  // Scopes nest; each pins one cache (one device).
  class PinScope {
   public:
    PinScope(const FftPlanCache& cache, FftPinnedPlans& pins);
    ~PinScope();
    PinScope(const PinScope&) = delete;
    PinScope& operator=(const PinScope&) = delete;

   private:
    const FftPlanCache* prev_cache_;
    FftPinnedPlans* prev_pins_;
  };

 private:
  PlanPtr lookup_or_make(const fft::PlanKey& key, const std::function<PlanPtr()>& make);
  void evict_to_fit(std::size_t incoming_bytes);  // mutex_ held
  using Lru = std::list<fft::PlanCacheEntry>;
  mutable std::mutex mutex_;
  Lru lru_;  // most recently used first
  std::map<fft::PlanKey, Lru::iterator> index_;
  std::int64_t size_limit_;
  std::int64_t memsize_limit_ = -1;
  std::int64_t memsize_ = 0;
  std::int64_t hits_ = 0, misses_ = 0;
};

}  // namespace copper::backend
