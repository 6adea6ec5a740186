// Host models of the device-side building blocks the references mirror: warp shuffle trees,
// in the order the lanes combine values, and nvcc 13's expf expansion.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "isa/sfu/approx.h"

namespace warpsim::kernels {

constexpr uint32_t kWarp = 32;

// `for (off = 16; off > 0; off >>= 1) v = op(v, __shfl_down_sync(~0u, v, off));` over a full
// warp: lane l combines with lane l+off; a lane whose source is past lane 31 gets its own value
// back (the PTX shfl.down rule) and so combines with itself. Returns every lane's final value.
template <class T, class Op>
std::array<T, kWarp> shflDownTree(std::array<T, kWarp> v, Op op) {
  for (uint32_t off = kWarp / 2; off > 0; off >>= 1) {
    std::array<T, kWarp> next;
    for (uint32_t l = 0; l < kWarp; ++l) next[l] = op(v[l], l + off < kWarp ? v[l + off] : v[l]);
    v = next;
  }
  return v;
}

// `for (off = 16; off > 0; off >>= 1) v = op(v, __shfl_xor_sync(~0u, v, off));`: a butterfly.
template <class T, class Op>
std::array<T, kWarp> shflXorTree(std::array<T, kWarp> v, Op op) {
  for (uint32_t off = kWarp / 2; off > 0; off >>= 1) {
    std::array<T, kWarp> next;
    for (uint32_t l = 0; l < kWarp; ++l) next[l] = op(v[l], v[l ^ off]);
    v = next;
  }
  return v;
}

inline float bitsToFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline uint32_t floatToBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// ex2.approx.ftz.f32 as the H200 computes it: the simulator's MUFU.EX2 model, fitted bit for
// bit to the chip on all 2^32 inputs (isa/sfu/mufu.h, docs/FIDELITY.md).
inline float ex2ApproxModel(float x) {
  return bitsToFloat(isa::sfu::ex2ApproxF32(floatToBits(x), true));
}

// expf as nvcc 13 (CUDA 13.0 libdevice, no --use_fast_math) expands it, operation for
// operation, from the PTX it emits:
//   t = sat(fma.rn(x, log2e/256, 0.5)); j = fma.rm(t, 252, 12582913); k = j - 12583039
//   f = fma.rn(x, 1.925963e-8, fma.rn(x, log2e, -k)); r = ex2.approx.ftz(f) * bits(j << 23)
// operation for operation, with ex2.approx as the chip's: bit-exact.
inline float cudaExpf(float x) {
  float t = std::fmaf(x, bitsToFloat(0x3BBB989D), 0.5f);
  t = std::fmin(std::fmax(t, 0.0f), 1.0f);  // cvt.sat.f32.f32 (t is never NaN here)
  // fma.rm: t*252 + 12582913 lies in [2^23, 2^24) where the float ulp is 1, and is exact in
  // double, so rounding toward -inf is the floor.
  const float j = float(std::floor(double(t) * 252.0 + 12582913.0));
  const float k = j + bitsToFloat(0xCB40007F);  // exact: both are integers near 2^23
  float f = std::fmaf(x, bitsToFloat(0x3FB8AA3B), -k);
  f = std::fmaf(x, bitsToFloat(0x32A57060), f);
  const float scale = bitsToFloat(floatToBits(j) << 23);
  return ex2ApproxModel(f) * scale;
}

}  // namespace warpsim::kernels
