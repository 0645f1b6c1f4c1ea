// HostBlockCache (host_block_cache.h): a list of (block, size, alignment) in the order they
// were freed, under one mutex; lookups scan it (it holds tens of blocks at most).
#include "backend/cpu/host_block_cache.h"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <list>
#include <mutex>
#include <string>

namespace copper::backend::cpu {

namespace {

std::size_t default_limit() {
  if (const char* env = std::getenv("COPPER_CPU_CACHE_BYTES"); env && *env) {
    try {
      return static_cast<std::size_t>(std::stoull(env));
    } catch (...) {
      // not a number: the default
    }
  }
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  const std::size_t total = pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page)
                                                  : std::size_t{1} << 34;
  return std::min<std::size_t>(total / 16, std::size_t{2} << 30);
}

struct Block {
  void* p;
  std::size_t size, align;
};

}  // namespace

struct HostBlockCache::State {
  std::mutex mutex;
  std::list<Block> blocks;  // oldest first
  std::size_t bytes = 0;
  std::size_t limit = 0;
};

HostBlockCache::HostBlockCache(std::size_t limit_bytes) : state_(new State) { state_->limit = limit_bytes; }

HostBlockCache::~HostBlockCache() {
  release_all();
  delete state_;
}

HostBlockCache& HostBlockCache::instance() {
  static HostBlockCache* cache = new HostBlockCache(default_limit());
  return *cache;
}

std::size_t HostBlockCache::rounded_size(std::size_t n) {
  if (n < min_block) return n;
  const std::size_t step = std::bit_floor(n) / 16;  // 16 classes per power of two
  return (n + step - 1) / step * step;
}

void* HostBlockCache::take(std::size_t size, std::size_t align) {
  if (size < min_block) return nullptr;
  std::lock_guard<std::mutex> lock(state_->mutex);
  for (auto it = state_->blocks.rbegin(); it != state_->blocks.rend(); ++it) {  // the newest: warm in cache
    if (it->size == size && it->align == align) {
      void* p = it->p;
      state_->bytes -= size;
      state_->blocks.erase(std::next(it).base());
      return p;
    }
  }
  return nullptr;
}

void HostBlockCache::give(void* p, std::size_t size, std::size_t align) {
  if (size < min_block || size > state_->limit) {
    std::free(p);
    return;
  }
  std::list<Block> evicted;
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    while (state_->bytes + size > state_->limit && !state_->blocks.empty()) {
      state_->bytes -= state_->blocks.front().size;
      evicted.splice(evicted.end(), state_->blocks, state_->blocks.begin());
    }
    state_->blocks.push_back({p, size, align});
    state_->bytes += size;
  }
  for (const Block& b : evicted) std::free(b.p);  // outside the lock
}

void HostBlockCache::release_all() {
  std::list<Block> all;
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    all.swap(state_->blocks);
    state_->bytes = 0;
  }
  for (const Block& b : all) std::free(b.p);
}

std::size_t HostBlockCache::cached_bytes() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->bytes;
}

}  // namespace copper::backend::cpu
