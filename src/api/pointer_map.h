// A map from pointers to small values for automatic fusion's per-op bookkeeping
// (fusion_deferred.cpp): open addressing with linear probing in a power-of-two table, so an
// insert allocates nothing once the table has grown to a chain's working size, and clear()
// keeps the table. std::unordered_map allocated a node per insert and freed them all at
// every chain run: with the per-run maps, a quarter of a short fused formula's host time
// went to malloc and free (Black-Scholes on 10 elements, 2026-12-04).
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace copper::detail {

template <class V> class PointerMap {
 public:
  // The value of `key` (not null), and whether it was inserted as `value` (false: present).
  std::pair<V*, bool> try_emplace(const void* key, const V& value) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    std::size_t i = home(key);
    while (slots_[i].key) {
      if (slots_[i].key == key) return {&slots_[i].value, false};
      i = (i + 1) & (slots_.size() - 1);
    }
    slots_[i] = Slot{key, value};
    used_.push_back(static_cast<std::uint32_t>(i));
    ++size_;
    return {&slots_[i].value, true};
  }
  // The value of `key`, default-constructed where absent (std::unordered_map's operator[]).
  V& operator[](const void* key) { return *try_emplace(key, V{}).first; }
  V* find(const void* key) {
    if (size_ == 0) return nullptr;
    for (std::size_t i = home(key);; i = (i + 1) & (slots_.size() - 1)) {
      if (slots_[i].key == key) return &slots_[i].value;
      if (!slots_[i].key) return nullptr;
    }
  }
  const V* find(const void* key) const { return const_cast<PointerMap*>(this)->find(key); }
  bool contains(const void* key) const { return find(key) != nullptr; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Empties the map, keeping its table (clears only the slots in use).
  void clear() {
    for (std::uint32_t i : used_) slots_[i] = Slot{};
    used_.clear();
    size_ = 0;
  }
  // Calls f(key, value) for every entry, in insertion order.
  template <class F> void for_each(F&& f) const {
    for (std::uint32_t i : used_) f(slots_[i].key, slots_[i].value);
  }

 private:
  struct Slot {
    const void* key = nullptr;
    V value{};
  };
  std::size_t home(const void* key) const {
    // Fibonacci hashing: allocations are 16-byte aligned, so the low bits carry nothing.
    const auto h = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(key)) * 0x9E3779B97F4A7C15ull;
    return static_cast<std::size_t>(h >> 32) & (slots_.size() - 1);
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    std::vector<std::uint32_t> order = std::move(used_);
    slots_.assign(old.empty() ? 64 : 2 * old.size(), Slot{});
    used_.clear();
    used_.reserve(slots_.size() / 2);
    size_ = 0;
    for (std::uint32_t i : order) try_emplace(old[i].key, old[i].value);
  }

  std::vector<Slot> slots_;
  std::vector<std::uint32_t> used_;  // slots in use, in insertion order
  std::size_t size_ = 0;
};

}  // namespace copper::detail
