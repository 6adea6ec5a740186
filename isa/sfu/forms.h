// Every fast-math form as a function of one 32-bit input, the way scripts/device_fastmath.cu
// evaluates it on the H200 for the chunk hashes: the f32 forms on their bit pattern, the x2
// forms on both halves, the f64 .ftz forms on the upper word (low word 0; the result's upper
// word XOR its lower word, which must be 0), and the div forms on the pair (low, high) of
// mix64(k) for k the input.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace warpsim::isa::sfu {

struct Form {
  std::string_view name;
  uint32_t (*fn)(uint32_t);
};

// In the order of the probe's hashes.bin.
std::span<const Form> fastmathForms();
const Form* findForm(std::string_view name);

}  // namespace warpsim::isa::sfu
