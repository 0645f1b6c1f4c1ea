// packbits/unpackbits as elementwise work on a reshaped view: the bits of one byte sit on
// a new trailing axis of length 8, weighted (pack) or shifted out (unpack).
#include <string>

#include "copper/creation.hpp"
#include "copper/bit_packing.hpp"
#include "copper/manipulation.hpp"
#include "copper/reductions.hpp"
#include "copper/ufuncs.hpp"

namespace copper {
namespace {

void check_bitorder(const std::string& bitorder) {
  if (bitorder != "big" && bitorder != "little") throw ValueError("'order' must be either 'little' or 'big'");
}

// The 8 bit weights (pack) or shifts (unpack) of one byte, first element first.
ndarray bit_positions(const std::string& bitorder, Device device) {
  const ndarray shifts = arange(Scalar(0), Scalar(8), Scalar(1), uint8, device);
  return bitorder == "big" ? subtract(7, shifts).astype(uint8) : shifts;
}

// a with the chosen axis last (flattened when axis is none; 0-d counts as 1-d).
std::pair<ndarray, int> axis_last(const ndarray& a, std::optional<int> axis) {
  if (!axis) return {ravel(a), 0};
  const ndarray x = a.ndim() == 0 ? reshape(a, {1}) : a;
  const int ax = normalize_axis(*axis, x.ndim());
  return {moveaxis(x, {ax}, {-1}), ax};
}

}  // namespace

ndarray packbits(const ndarray& a, std::optional<int> axis, const std::string& bitorder) {
  if (!is_integer(a.dtype()) && a.dtype() != bool_)
    throw TypeError("Expected an input array of integer or boolean data type");
  check_bitorder(bitorder);
  auto [x, ax] = axis_last(a, axis);
  const std::int64_t n = x.shape().back(), bytes = (n + 7) / 8;
  ndarray bits = not_equal(x, 0).astype(uint8);
  if (bytes * 8 != n) {
    Shape pad = bits.shape();
    pad.back() = bytes * 8 - n;
    bits = concatenate({bits, zeros(pad, uint8, a.device())}, -1);
  }
  Shape grouped = bits.shape();
  grouped.back() = bytes;
  grouped.push_back(8);
  const ndarray weights = left_shift(ones({8}, uint8, a.device()), bit_positions(bitorder, a.device()));
  const ndarray packed = sum(multiply(reshape(bits, grouped), weights), -1, {.dtype = uint8});
  return axis ? ascontiguousarray(moveaxis(packed, {-1}, {ax})) : packed;
}

ndarray unpackbits(const ndarray& a, std::optional<int> axis, std::optional<std::int64_t> count,
                   const std::string& bitorder) {
  if (a.dtype() != uint8) throw TypeError("Expected an input array of unsigned byte data type");
  check_bitorder(bitorder);
  auto [x, ax] = axis_last(a, axis);
  const std::int64_t total = x.shape().back() * 8;
  Shape flat = x.shape();
  flat.back() = total;
  ndarray bits = reshape(bitwise_and(right_shift(expand_dims(x, {-1}), bit_positions(bitorder, a.device())), 1),
                         flat);
  if (count) {
    std::int64_t keep = *count;
    if (keep < 0) {
      if (-keep > total) throw ValueError("-count larger than number of elements");
      keep += total;
    }
    if (keep <= total) {
      Index idx(static_cast<std::size_t>(bits.ndim() - 1), Slice());
      idx.push_back(Slice(std::nullopt, keep));
      bits = bits[idx];
    } else {
      Shape pad = bits.shape();
      pad.back() = keep - total;
      bits = concatenate({bits, zeros(pad, uint8, a.device())}, -1);
    }
  }
  return ascontiguousarray(axis ? moveaxis(bits, {-1}, {ax}) : bits).astype(uint8, Casting::unsafe, false);
}

}  // namespace copper
