#include "isa/insns/lanes.h"

#include <algorithm>

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

std::string msg(const Inst& in, const std::string& what) { return "'" + in.text + "' " + what; }

std::string checkWords(const Inst& in, std::initializer_list<std::string_view> allowed,
                       size_t types) {
  if (in.mods.types.size() != types)
    return msg(in, types == 1 ? "takes exactly one type" : "takes two types");
  for (const std::string& w : in.mods.words) {
    if (typeFromName(w)) continue;
    if (std::find(allowed.begin(), allowed.end(), w) == allowed.end())
      return msg(in, "does not take ." + w);
  }
  return "";
}

std::string bindRegs(Inst& in, Handler h, size_t operands) {
  if (auto e = expectOperands(in, operands); !e.empty()) return e;
  for (size_t i = 0; i < operands; ++i)
    if (auto e = expectRegs(in, {i}); !e.empty()) return e;
  if (!h) return msg(in, "has an unsupported type");
  in.run = h;
  return "";
}

}  // namespace warpsim::isa::insns
