// copper::fft::PlanCache: a handle on the plan cache of one device's backend.
#include <sstream>

#include "backend/backend.h"
#include "backend/fft_plan_cache.h"
#include "copper/errors.hpp"
#include "copper/fft.hpp"

namespace copper::fft {
namespace {

backend::FftPlanCache& cache_of(Device d) { return backend::backend_for(d).fft_plan_cache(); }

}  // namespace

std::string describe(const PlanCacheEntry& e) {
  std::ostringstream s;
  s << "key: (";
  for (std::size_t i = 0; i < e.key.size(); ++i) s << (i ? ", " : "") << e.key[i];
  s << (e.key.size() == 1 ? ",)" : ")") << ", plan type: " << (e.plan->rank() == 1 ? "Plan1d" : "PlanNd") << " ("
    << e.plan->description() << "), memory usage: " << e.plan->work_size();
  return s.str();
}

PlanCache::PlanCache(Device device) : device_(device) { cache_of(device_); }

std::int64_t PlanCache::get_size() const { return cache_of(device_).size_limit(); }
void PlanCache::set_size(std::int64_t size) { cache_of(device_).set_size_limit(size); }
std::int64_t PlanCache::get_curr_size() const { return cache_of(device_).count(); }
std::int64_t PlanCache::get_memsize() const { return cache_of(device_).memsize_limit(); }
void PlanCache::set_memsize(std::int64_t bytes) { cache_of(device_).set_memsize_limit(bytes); }
std::int64_t PlanCache::get_curr_memsize() const { return cache_of(device_).memsize(); }
std::int64_t PlanCache::hits() const { return cache_of(device_).hits(); }
std::int64_t PlanCache::misses() const { return cache_of(device_).misses(); }
void PlanCache::clear() { cache_of(device_).clear(); }
std::vector<PlanCacheEntry> PlanCache::entries() const { return cache_of(device_).entries(); }
std::shared_ptr<const Plan> PlanCache::get(const PlanKey& key) const { return cache_of(device_).get(key); }
bool PlanCache::erase(const PlanKey& key) { return cache_of(device_).erase(key); }

std::string PlanCache::info() const {
  const backend::FftPlanCache& c = cache_of(device_);
  const std::int64_t size = c.size_limit(), memsize = c.memsize_limit();
  std::ostringstream s;
  s << "------------------- " << (device_.type == DeviceType::cpu ? "FFTW" : "cuFFT") << " plan cache (device "
    << device_.str() << ") -------------------\n";
  s << "cache enabled? " << (size != 0 && memsize != 0 ? "True" : "False") << "\n";
  s << "current / max size   : " << c.count() << " / " << size << " (counts)\n";
  s << "current / max memsize: " << c.memsize() << " / ";
  if (memsize < 0) s << "(unlimited)";
  else s << memsize;
  s << " (bytes)\n";
  s << "hits / misses: " << c.hits() << " / " << c.misses() << " (counts)\n\n";
  s << "cached plans (most recently used first):\n";
  for (const PlanCacheEntry& e : c.entries()) s << describe(e) << "\n";
  return s.str();
}

PlanCache get_plan_cache(Device device) { return PlanCache(device); }

}  // namespace copper::fft
