#include "sim/timing/tensor_work.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace warpsim::sim::timing {
namespace {

// "m16n8k16" -> 2 * 16 * 8 * 16; 0 when `s` is not a shape.
double shapeWork(const std::string& s) {
  unsigned m = 0, n = 0, k = 0;
  char tail = 0;
  if (std::sscanf(s.c_str(), "m%un%uk%u%c", &m, &n, &k, &tail) != 3) return 0;
  return 2.0 * m * n * k;
}

bool hasType(const isa::Inst& in, isa::Type t) {
  return std::find(in.mods.types.begin(), in.mods.types.end(), t) != in.mods.types.end();
}

}  // namespace

TensorWork tensorWork(const isa::Inst& in, const TimingConfig& c) {
  if (in.cls != isa::InsnClass::Tensor) return {};
  double work = 0;  // operations of the whole instruction (a multiply-add is 2)
  for (const std::string& w : in.mods.words)
    if (const double f = shapeWork(w)) work = f;
  if (work == 0) return {};
  using T = isa::Type;
  // The work of one SASS instruction of its kind, and the cycles the pipe spends on one
  // (micro_mma_chain: tests/recorded/timing/h100_tensor.tsv).
  double perSass = 4096, cyclesPerSass = c.iiTensor;  // HMMA.16816: m16n8k16, f16 or bf16
  if (hasType(in, T::F64)) {
    perSass = 512;  // DMMA.884: m8n8k4
    cyclesPerSass = c.iiTensorFp64;
  } else if (hasType(in, T::TF32)) {
    perSass = 2048;  // HMMA.1688.F32.TF32: the f16 rate's half
  } else if (hasType(in, T::S8) || hasType(in, T::U8) || hasType(in, T::E4M3) ||
             hasType(in, T::E5M2)) {
    perSass = 8192;  // IMMA.16832: twice the f16 rate
  } else if (in.mods.has("s4") || in.mods.has("u4") || in.mods.has("b1")) {
    perSass = 16384;  // IMMA.16864 / BMMA [unverified: not measured]
  }
  const bool wgmma = in.mods.has("mma_async");
  if (wgmma) {  // a quarter of the warpgroup's work, at its own rate
    work /= 4;
    cyclesPerSass = c.iiTensorWgmma;
  }
  // wmma's SASS instructions each write their own part of D, and the next wmma's first one
  // needs only the first part: a chain of them waits one latency a step (micro_mma_chain, 26.6
  // cycles a wmma by one warp), so the result's latency is the first instruction's.
  return {std::max(1.0, work / perSass) * cyclesPerSass, wgmma};
}

}  // namespace warpsim::sim::timing
