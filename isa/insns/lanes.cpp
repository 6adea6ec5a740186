#include "isa/insns/lanes.h"

namespace warpsim::isa::insns {

std::string expectOperands(const Inst& in, size_t n) {
  if (in.ops.size() == n) return "";
  return "'" + in.text + "' takes " + std::to_string(n) + " operands, " +
         std::to_string(in.ops.size()) + " given";
}

std::string expectRegs(const Inst& in, std::initializer_list<size_t> indices) {
  for (size_t i : indices) {
    if (i >= in.ops.size()) return "missing operand " + std::to_string(i + 1);
    if (in.ops[i].kind != OpndKind::Reg)
      return "operand " + std::to_string(i + 1) + " of '" + in.text + "' must be a register";
  }
  return "";
}

}  // namespace warpsim::isa::insns
