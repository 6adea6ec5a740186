#include "sim/timing/flops.h"

#include <cstdio>
#include <string>

#include "isa/insn_table.h"

namespace warpsim::sim::timing {

const char* flopKindName(FlopKind k) {
  switch (k) {
    case FlopKind::Fp32:
      return "fp32";
    case FlopKind::Fp64:
      return "fp64";
    case FlopKind::Fp16:
      return "fp16";
    case FlopKind::Tensor:
      return "tensor";
    default:
      return "none";
  }
}

namespace {

// "m16n8k16" -> 2 * 16 * 8 * 16; 0 when `s` is not a shape.
uint64_t shapeFlops(const std::string& s) {
  unsigned m = 0, n = 0, k = 0;
  char tail = 0;
  if (std::sscanf(s.c_str(), "m%un%uk%u%c", &m, &n, &k, &tail) != 3) return 0;
  return 2ull * m * n * k;
}

}  // namespace

FlopWeight flopWeight(const isa::Inst& in) {
  using K = isa::InsnClass;
  using Op = isa::Operation;
  if (in.cls == K::Tensor) {
    // A wgmma is issued by each of its warpgroup's four warps: a quarter of the work each.
    const bool wgmma = in.mods.has("mma_async");
    for (const std::string& s : in.mods.words)
      if (const uint64_t f = shapeFlops(s)) return {FlopKind::Tensor, 0, wgmma ? f / 4 : f};
    return {};
  }
  if ((in.cls != K::Fp32 && in.cls != K::Fp64 && in.cls != K::Half) || !in.spec) return {};
  const Op op = in.spec->operation;
  const uint32_t ops = op == Op::Add || op == Op::Subtract || op == Op::Multiply ? 1
                       : op == Op::MultiplyAdd                                   ? 2
                                                                                 : 0;
  if (!ops) return {};
  for (const isa::Type t : in.mods.types) {
    switch (t) {
      case isa::Type::F32:
        return {FlopKind::Fp32, ops, 0};
      case isa::Type::F64:
        return {FlopKind::Fp64, ops, 0};
      case isa::Type::F16:
      case isa::Type::BF16:
        return {FlopKind::Fp16, ops, 0};
      case isa::Type::F16x2:
      case isa::Type::BF16x2:
        return {FlopKind::Fp16, 2 * ops, 0};
      default:
        break;
    }
  }
  return {};
}

}  // namespace warpsim::sim::timing
