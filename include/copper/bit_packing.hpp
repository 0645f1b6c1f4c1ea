// numpy.packbits / unpackbits (src/api/bit_packing.cpp).
#pragma once
#include <optional>
#include <string>

#include "copper/ndarray.hpp"

namespace copper {

// Groups of 8 truth values along axis (none: flattened) into uint8, zero-padded at the end;
// bitorder "big" puts the first value in the most significant bit.
ndarray packbits(const ndarray& a, std::optional<int> axis = std::nullopt, const std::string& bitorder = "big");
// uint8 -> one 0/1 uint8 per bit along axis; count keeps that many bits (negative: drops
// them from the end; more than 8*n pads zeros).
ndarray unpackbits(const ndarray& a, std::optional<int> axis = std::nullopt,
                   std::optional<std::int64_t> count = std::nullopt, const std::string& bitorder = "big");

}  // namespace copper
