#include "isa/insn_table.h"

#include <algorithm>

#include "isa/insns/families.h"

namespace warpsim::isa {
namespace {

std::vector<OpcodeSpec> buildTable() {
  std::vector<OpcodeSpec> all;
  for (auto family :
       {insns::intArithmetic,  insns::intLogic,        insns::compare,    insns::floatArithmetic,
        insns::floatSpecial,   insns::halfArithmetic,  insns::conversion, insns::movement,
        insns::memory,         insns::atomics,         insns::control,    insns::synchronization,
        insns::warpLevel,      insns::video,           insns::videoSimd,  insns::asyncCopy,
        insns::mbarrierFamily, insns::tensorMapFamily, insns::matrixMove, insns::matrixMultiply,
        insns::launchControl,  insns::texture,         insns::wmmaFamily, insns::clusterFamily,
        insns::wgmmaFamily,    insns::unsupported}) {
    auto specs = family();
    all.insert(all.end(), specs.begin(), specs.end());
  }
  return all;
}

bool acceptsWord(const OpcodeSpec& s, std::string_view w) {
  if (auto t = typeFromName(w)) {
    if (std::find(s.types.begin(), s.types.end(), *t) != s.types.end()) return true;
  }
  for (std::string_view m : s.mods) {
    if (m == w || m == "*") return true;
    if (m.size() > 1 && m.back() == '*' && w.substr(0, m.size() - 1) == m.substr(0, m.size() - 1))
      return true;
  }
  return false;
}

}  // namespace

const std::vector<OpcodeSpec>& instructionTable() {
  static const std::vector<OpcodeSpec> table = buildTable();
  return table;
}

const OpcodeSpec* findSpec(const std::string& opcode, const Mods& mods) {
  const OpcodeSpec* untyped = nullptr;
  for (const auto& s : instructionTable()) {
    if (s.opcode != opcode) continue;
    if (s.types.empty()) {
      untyped = &s;
      continue;
    }
    // The primary type is the first type word; cvt-like opcodes list destination types.
    if (!mods.types.empty() &&
        std::find(s.types.begin(), s.types.end(), mods.types[0]) != s.types.end())
      return &s;
  }
  return untyped;
}

Fusion fusionOf(const OpcodeSpec& s) {
  if (s.cls != InsnClass::Fp32 && s.cls != InsnClass::Half) return Fusion::None;
  switch (s.operation) {
    case Operation::Multiply:
      return Fusion::Multiply;
    case Operation::Add:
      return Fusion::Add;
    case Operation::Subtract:
      return Fusion::Subtract;
    case Operation::Negate:
      return Fusion::Negate;
    case Operation::Divide:
      return s.cls == InsnClass::Fp32 ? Fusion::Divide : Fusion::None;
    default:
      return Fusion::None;
  }
}

std::string validateInstruction(const ir::Instruction& instr) {
  bool known = false;
  for (const auto& s : instructionTable()) known = known || s.opcode == instr.opcode;
  if (!known) return "unknown opcode '" + instr.opcode + "'";
  for (const std::string& w : instr.mods) {
    bool ok = false;
    for (const auto& s : instructionTable())
      if (s.opcode == instr.opcode && acceptsWord(s, w)) {
        ok = true;
        break;
      }
    if (!ok) return "'" + instr.opcode + "' does not take modifier '." + w + "'";
  }
  return "";
}

}  // namespace warpsim::isa
