// The middle pair of each row (median, nanmedian) by radix select, one thread block per
// row: elements become exact sort keys on the fly (ops/sort_keys.h, NaNs above every
// number), and one pass per key byte, most significant first, counts the candidates'
// next byte in shared memory and keeps the bin holding the wanted rank. The lower middle
// key is then known; the upper one is the same key while its rank is still among the
// equal keys, else the smallest key above it (one more pass). The row stays in L2
// between passes, so HBM sees about one read of the input: sorting whole rows (what
// partition does) costs several read-write passes of the whole array.
// Each warp counts into its own histogram, which keeps the shared-memory atomics of
// skewed data (few distinct leading bytes) from queueing across the block.
#include "backend/cuda/cub/aot_select.h"
#include "backend/cuda/cub/aot_support.cuh"
#include "ops/sort_keys.h"

namespace copper::backend::cuda::aot {

namespace {

namespace sk = ops::sort_keys;

constexpr int kThreads = 512;
constexpr int kWarps = kThreads / 32;
constexpr int kBins = 256;

template <class U>
__global__ void __launch_bounds__(kThreads)
    middle_pair_kernel(const U* rows, long long n, sk::KeyClass cls, bool skip_nan, U* out) {
  __shared__ unsigned hist[kWarps][kBins];
  __shared__ unsigned s_nans;
  __shared__ unsigned s_digit, s_bin_count;
  __shared__ long long s_rank;
  __shared__ unsigned long long s_above;
  const U* row = rows + static_cast<long long>(blockIdx.x) * n;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x == 0) {
    s_nans = 0;
    s_above = ~0ull;
  }
  U prefix = 0, mask = 0;  // the key bytes decided so far
  long long k0 = 0, k1 = 0, rank = 0;
  unsigned bin_count = 0;
  constexpr int kTopShift = 8 * (static_cast<int>(sizeof(U)) - 1);
  for (int shift = kTopShift; shift >= 0; shift -= 8) {
    for (int i = threadIdx.x; i < kWarps * kBins; i += kThreads) (&hist[0][0])[i] = 0;
    __syncthreads();
    const bool first = shift == kTopShift;
    unsigned nans = 0;
    for (long long i = threadIdx.x; i < n; i += kThreads) {
      const U bits = row[i];
      const U key = sk::encode_key(cls, bits, false);
      if (first && cls == sk::KeyClass::floating) nans += sk::is_nan_bits(bits);
      if (U(key & mask) == prefix) atomicAdd(&hist[warp][(key >> shift) & 0xff], 1u);
    }
    if (nans) atomicAdd(&s_nans, nans);
    __syncthreads();
    for (int b = threadIdx.x; b < kBins; b += kThreads) {
      unsigned total = 0;
      for (int w = 0; w < kWarps; ++w) total += hist[w][b];
      hist[0][b] = total;
    }
    __syncthreads();
    if (first) {
      // Every thread reads the same count, so the early exit below is uniform.
      const long long m = skip_nan ? n - s_nans : n;
      if ((!skip_nan && s_nans > 0) || m == 0) {
        if (threadIdx.x == 0) out[2 * blockIdx.x] = out[2 * blockIdx.x + 1] = sk::quiet_nan_bits<U>();
        return;
      }
      k0 = (m - 1) / 2;
      k1 = m / 2;
      rank = k0;
    }
    if (warp == 0) {
      // Lane l scans bins [8l, 8l + 8); a warp prefix sum finds the bin holding `rank`.
      unsigned count[8], sum = 0;
      for (int j = 0; j < 8; ++j) sum += count[j] = hist[0][8 * lane + j];
      unsigned inclusive = sum;
      for (int offset = 1; offset < 32; offset *= 2) {
        const unsigned v = __shfl_up_sync(0xffffffffu, inclusive, offset);
        if (lane >= offset) inclusive += v;
      }
      const long long exclusive = inclusive - sum;
      if (exclusive <= rank && rank < static_cast<long long>(inclusive)) {
        long long r = rank - exclusive;
        int j = 0;
        while (r >= count[j]) r -= count[j++];
        s_digit = static_cast<unsigned>(8 * lane + j);
        s_rank = r;
        s_bin_count = count[j];
      }
    }
    __syncthreads();
    prefix = U(prefix | U(U(s_digit) << shift));
    mask = U(mask | U(U(0xff) << shift));
    rank = s_rank;
    bin_count = s_bin_count;
  }
  // prefix is the key at position k0: (k0 - rank) keys lie below it, bin_count equal it.
  const U low = prefix;
  U high = low;
  if (k1 >= k0 - rank + bin_count) {
    unsigned long long best = ~0ull;
    for (long long i = threadIdx.x; i < n; i += kThreads) {
      const U key = sk::encode_key(cls, row[i], false);
      if (key > low && key < best) best = key;
    }
    for (int offset = 16; offset > 0; offset /= 2) {
      const unsigned long long v = __shfl_down_sync(0xffffffffu, best, offset);
      if (v < best) best = v;
    }
    if (lane == 0) atomicMin(&s_above, best);
    __syncthreads();
    high = static_cast<U>(s_above);
  }
  if (threadIdx.x == 0) {
    out[2 * blockIdx.x] = sk::decode_key(cls, low);
    out[2 * blockIdx.x + 1] = sk::decode_key(cls, high);
  }
}

}  // namespace

void middle_pair(const Launch& launch, DType dtype, const void* rows, std::int64_t nrows, std::int64_t n,
                 bool skip_nan, void* out) {
  if (nrows == 0) return;
  const Kind k = kind(dtype);
  const sk::KeyClass cls = k == Kind::bool_  ? sk::KeyClass::boolean
                           : k == Kind::int_ ? sk::KeyClass::signed_int
                           : k == Kind::uint_ ? sk::KeyClass::unsigned_int
                                              : sk::KeyClass::floating;
  detail::with_unsigned(itemsize(dtype), [&](auto u) {
    using U = decltype(u);
    middle_pair_kernel<U><<<static_cast<unsigned>(nrows), kThreads, 0, detail::stream_of(launch)>>>(
        static_cast<const U*>(rows), n, cls, skip_nan, static_cast<U*>(out));
    detail::check(cudaGetLastError(), "median");
  });
}

}  // namespace copper::backend::cuda::aot
