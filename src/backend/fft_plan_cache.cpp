#include "backend/fft_plan_cache.h"

#include "copper/errors.hpp"

namespace copper::backend {
namespace {

// The pin set active on this thread and the cache it applies to (PinScope).
thread_local const FftPlanCache* pinned_cache = nullptr;
thread_local FftPinnedPlans* pinned_plans = nullptr;

}  // namespace

FftPlanCache::PinScope::PinScope(const FftPlanCache& cache, FftPinnedPlans& pins)
    : prev_cache_(pinned_cache), prev_pins_(pinned_plans) {
  pinned_cache = &cache;
  pinned_plans = &pins;
}

FftPlanCache::PinScope::~PinScope() {
  pinned_cache = prev_cache_;
  pinned_plans = prev_pins_;
}

FftPlanCache::PlanPtr FftPlanCache::get_or_make(const fft::PlanKey& key, const std::function<PlanPtr()>& make) {
  FftPinnedPlans* pins = pinned_cache == this ? pinned_plans : nullptr;
  if (!pins) return lookup_or_make(key, make);
  {
    std::lock_guard lock(pins->mutex);
    if (auto it = pins->plans.find(key); it != pins->plans.end()) return it->second;
  }
  PlanPtr plan = lookup_or_make(key, make);
  std::lock_guard lock(pins->mutex);
  pins->plans.emplace(key, plan);
  return plan;
}

FftPlanCache::PlanPtr FftPlanCache::lookup_or_make(const fft::PlanKey& key, const std::function<PlanPtr()>& make) {
  std::vector<PlanPtr> evicted;  // destroyed after the lock is released
  std::lock_guard lock(mutex_);
  if (auto it = index_.find(key); it != index_.end()) {
    ++hits_;
    lru_.splice(lru_.begin(), lru_, it->second);
    return lru_.front().plan;
  }
  ++misses_;
  // Made under the lock: two threads asking for one new plan build it once.
  PlanPtr plan = make();
  const auto bytes = static_cast<std::int64_t>(plan->work_size());
  if (size_limit_ == 0 || (memsize_limit_ >= 0 && bytes > memsize_limit_)) return plan;  // too big to keep
  while (!lru_.empty() && (static_cast<std::int64_t>(lru_.size()) >= size_limit_ ||
                           (memsize_limit_ >= 0 && memsize_ + bytes > memsize_limit_))) {
    memsize_ -= static_cast<std::int64_t>(lru_.back().plan->work_size());
    index_.erase(lru_.back().key);
    evicted.push_back(std::move(lru_.back().plan));
    lru_.pop_back();
  }
  lru_.push_front({key, plan});
  index_[key] = lru_.begin();
  memsize_ += bytes;
  return plan;
}

std::int64_t FftPlanCache::size_limit() const {
  std::lock_guard lock(mutex_);
  return size_limit_;
}

void FftPlanCache::set_size_limit(std::int64_t size) {
  if (size < 0) throw ValueError("the plan cache size must be a non-negative integer");
  std::vector<PlanPtr> evicted;
  std::lock_guard lock(mutex_);
  size_limit_ = size;
  while (static_cast<std::int64_t>(lru_.size()) > size_limit_) {
    memsize_ -= static_cast<std::int64_t>(lru_.back().plan->work_size());
    index_.erase(lru_.back().key);
    evicted.push_back(std::move(lru_.back().plan));
    lru_.pop_back();
  }
}

std::int64_t FftPlanCache::memsize_limit() const {
  std::lock_guard lock(mutex_);
  return memsize_limit_;
}

void FftPlanCache::set_memsize_limit(std::int64_t bytes) {
  if (bytes < -1) throw ValueError("the plan cache memsize must be -1 (unlimited) or a non-negative integer");
  std::vector<PlanPtr> evicted;
  std::lock_guard lock(mutex_);
  memsize_limit_ = bytes;
  while (!lru_.empty() && memsize_limit_ >= 0 && memsize_ > memsize_limit_) {
    memsize_ -= static_cast<std::int64_t>(lru_.back().plan->work_size());
    index_.erase(lru_.back().key);
    evicted.push_back(std::move(lru_.back().plan));
    lru_.pop_back();
  }
}

std::int64_t FftPlanCache::count() const {
  std::lock_guard lock(mutex_);
  return static_cast<std::int64_t>(lru_.size());
}

std::int64_t FftPlanCache::memsize() const {
  std::lock_guard lock(mutex_);
  return memsize_;
}

std::int64_t FftPlanCache::hits() const {
  std::lock_guard lock(mutex_);
  return hits_;
}

std::int64_t FftPlanCache::misses() const {
  std::lock_guard lock(mutex_);
  return misses_;
}

void FftPlanCache::clear() {
  Lru dropped;
  std::lock_guard lock(mutex_);
  dropped.swap(lru_);
  index_.clear();
  memsize_ = 0;
}

std::vector<fft::PlanCacheEntry> FftPlanCache::entries() const {
  std::lock_guard lock(mutex_);
  return {lru_.begin(), lru_.end()};
}

FftPlanCache::PlanPtr FftPlanCache::get(const fft::PlanKey& key) {
  std::lock_guard lock(mutex_);
  auto it = index_.find(key);
  if (it == index_.end()) return nullptr;
  lru_.splice(lru_.begin(), lru_, it->second);
  return lru_.front().plan;
}

bool FftPlanCache::erase(const fft::PlanKey& key) {
  PlanPtr dropped;
  std::lock_guard lock(mutex_);
  auto it = index_.find(key);
  if (it == index_.end()) return false;
  memsize_ -= static_cast<std::int64_t>(it->second->plan->work_size());
  dropped = std::move(it->second->plan);
  lru_.erase(it->second);
  index_.erase(it);
  return true;
}

}  // namespace copper::backend
