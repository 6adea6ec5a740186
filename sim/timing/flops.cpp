#include "sim/timing/flops.h"

#include <cstdio>
#include <string>
#include <vector>

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

std::vector<std::string> parts(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    const size_t dot = text.find('.', start);
    out.push_back(text.substr(start, dot - start));
    if (dot == std::string::npos) return out;
    start = dot + 1;
  }
}

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
  const std::vector<std::string> p = parts(in.text);
  if (in.cls == K::Tensor) {
    for (const std::string& s : p)
      if (const uint64_t f = shapeFlops(s)) return {FlopKind::Tensor, 0, f};
    return {};
  }
  if (in.cls != K::Fp32 && in.cls != K::Fp64 && in.cls != K::Half) return {};
  const std::string& op = p[0];
  uint32_t ops = 0;
  if (op == "add" || op == "sub" || op == "mul")
    ops = 1;
  else if (op == "fma" || op == "mad")
    ops = 2;
  else
    return {};
  for (size_t i = 1; i < p.size(); ++i) {
    const std::string& t = p[i];
    if (t == "f32") return {FlopKind::Fp32, ops, 0};
    if (t == "f64") return {FlopKind::Fp64, ops, 0};
    if (t == "f16" || t == "bf16") return {FlopKind::Fp16, ops, 0};
    if (t == "f16x2" || t == "bf16x2") return {FlopKind::Fp16, 2 * ops, 0};
  }
  return {};
}

}  // namespace warpsim::sim::timing
