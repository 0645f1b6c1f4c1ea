#include "backend/cpu/popcount.h"

#include <cstring>
#include <type_traits>

namespace copper::backend::cpu::popcount {
namespace {

#if defined(__x86_64__) && defined(__GNUC__)
bool have_popcnt() {
  static const bool yes = __builtin_cpu_supports("popcnt");
  return yes;
}

template <class T>
__attribute__((target("popcnt"))) void count(const T* in, std::uint8_t* out, std::int64_t n) {
  using U = std::make_unsigned_t<T>;
  for (std::int64_t i = 0; i < n; ++i) {
    T x;
    std::memcpy(&x, in + i, sizeof(T));  // any alignment
    U m = static_cast<U>(x);
    if constexpr (std::is_signed_v<T>) m = x < 0 ? static_cast<U>(U(0) - m) : m;
    if constexpr (sizeof(T) == 8) out[i] = static_cast<std::uint8_t>(__builtin_popcountll(m));
    else out[i] = static_cast<std::uint8_t>(__builtin_popcount(m));
  }
}
#else
bool have_popcnt() { return false; }
template <class T> void count(const T*, std::uint8_t*, std::int64_t) {}
#endif

}  // namespace

template <class T> bool run(const T* in, std::uint8_t* out, std::int64_t n) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "narrower integers vectorize in the portable loop");
  if (!have_popcnt()) return false;
  count(in, out, n);
  return true;
}

template bool run(const std::int32_t*, std::uint8_t*, std::int64_t);
template bool run(const std::uint32_t*, std::uint8_t*, std::int64_t);
template bool run(const std::int64_t*, std::uint8_t*, std::int64_t);
template bool run(const std::uint64_t*, std::uint8_t*, std::int64_t);

}  // namespace copper::backend::cpu::popcount
