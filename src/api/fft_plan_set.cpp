// copper::fft::PlanSet: the plans a program's plan object keeps (backend::FftPinnedPlans).
#include <algorithm>
#include <mutex>

#include "backend/backend.h"
#include "backend/fft_plan_cache.h"
#include "copper/fft.hpp"

namespace copper::fft {

PlanSet::PlanSet(Device device) : device_(device), pins_(std::make_shared<backend::FftPinnedPlans>()) {
  backend::backend_for(device_).fft_plan_cache();  // an unknown device raises here, not at first use
}

std::int64_t PlanSet::size() const {
  std::lock_guard lock(pins_->mutex);
  return static_cast<std::int64_t>(pins_->plans.size());
}

std::size_t PlanSet::work_size() const {
  std::lock_guard lock(pins_->mutex);
  std::size_t bytes = 0;
  for (const auto& [key, plan] : pins_->plans) bytes = std::max(bytes, plan->work_size());
  return bytes;
}

std::vector<PlanCacheEntry> PlanSet::entries() const {
  std::lock_guard lock(pins_->mutex);
  std::vector<PlanCacheEntry> r;
  for (const auto& [key, plan] : pins_->plans) r.push_back({key, plan});
  return r;
}

PlanSet::Use::Use(const PlanSet& set)
    : scope_(new backend::FftPlanCache::PinScope(backend::backend_for(set.device_).fft_plan_cache(), *set.pins_),
             [](void* p) { delete static_cast<backend::FftPlanCache::PinScope*>(p); }) {}

PlanSet::Use::~Use() = default;

}  // namespace copper::fft
