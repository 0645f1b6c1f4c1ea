// bitwise_count's contiguous loop with the processor's popcnt instruction. x86-64 has had
// it since 2008, but the library is compiled for the baseline ISA, which lacks it: the
// portable shift-and-mask count (ops::bitwise_count) ran 2-4x NumPy's time on 32- and
// 64-bit integers, whose magnitudes and narrowing to uint8 GCC does not vectorize there.
#pragma once
#include <cstdint>

namespace copper::backend::cpu::popcount {

// out[i] = set bits of |in[i]| (NumPy counts the magnitude of signed values) for T of 4 or
// 8 bytes; false, having written nothing, when the processor has no popcnt.
template <class T> bool run(const T* in, std::uint8_t* out, std::int64_t n);

}  // namespace copper::backend::cpu::popcount
