// The exception lists of the 16-bit special functions, measured on the H200 over all 65,536
// inputs of each form (scripts/device_fastmath.sh; the chip's tables are committed in
// tests/recorded/fastmath/), and the exact forms built from them.
#include "isa/sfu/half_tables.h"

#include <array>

#include "isa/sfu/approx.h"

namespace warpsim::isa::sfu {
namespace {

// Each list ends with kEnd, which is not an exception (a list may be empty otherwise).
constexpr HalfException kEnd{0, 0};
constexpr HalfException kEx2F16[] = {
#include "isa/sfu/tables/ex2_f16.inc"
    kEnd};
constexpr HalfException kEx2FtzBF16[] = {
#include "isa/sfu/tables/ex2_ftz_bf16.inc"
    kEnd};
constexpr HalfException kTanhF16[] = {
#include "isa/sfu/tables/tanh_f16.inc"
    kEnd};
constexpr HalfException kTanhBF16[] = {
#include "isa/sfu/tables/tanh_bf16.inc"
    kEnd};

using Table = std::array<uint16_t, 65536>;

// The whole function as a table: built once (the first call), immutable afterwards, so that
// an instruction costs one load.
template <size_t N>
std::span<const HalfException> list(const HalfException (&a)[N]) {
  return {a, N - 1};  // without kEnd
}

Table build(uint16_t (*computed)(uint16_t), std::span<const HalfException> exceptions) {
  Table t{};
  for (uint32_t h = 0; h < 65536; ++h) t[h] = computed(uint16_t(h));
  for (const HalfException& e : exceptions) t[e.in] = e.out;
  return t;
}

}  // namespace

std::span<const HalfException> ex2F16Exceptions() { return list(kEx2F16); }
std::span<const HalfException> ex2FtzBF16Exceptions() { return list(kEx2FtzBF16); }
std::span<const HalfException> tanhF16Exceptions() { return list(kTanhF16); }
std::span<const HalfException> tanhBF16Exceptions() { return list(kTanhBF16); }

uint16_t ex2ApproxF16(uint16_t h) {
  static const Table t = build(ex2ApproxF16Computed, list(kEx2F16));
  return t[h];
}
uint16_t ex2ApproxFtzBF16(uint16_t h) {
  static const Table t = build(ex2ApproxFtzBF16Computed, list(kEx2FtzBF16));
  return t[h];
}
uint16_t tanhApproxF16(uint16_t h) {
  static const Table t = build(tanhApproxF16Computed, list(kTanhF16));
  return t[h];
}
uint16_t tanhApproxBF16(uint16_t h) {
  static const Table t = build(tanhApproxBF16Computed, list(kTanhBF16));
  return t[h];
}

}  // namespace warpsim::isa::sfu
