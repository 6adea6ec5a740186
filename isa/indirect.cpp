#include "isa/indirect.h"

#include <algorithm>
#include <cstdio>

#include "isa/facts.h"
#include "isa/lower.h"

namespace warpsim::isa {
namespace {

std::vector<uint32_t> sizesOf(const std::vector<ir::VarDecl>& decls) {
  std::vector<uint32_t> out;
  for (const ir::VarDecl& d : decls) out.push_back(uint32_t(d.totalBytes()));
  return out;
}

std::vector<uint32_t> sizesOf(const std::vector<ParamSlot>& slots) {
  std::vector<uint32_t> out;
  for (const ParamSlot& s : slots) out.push_back(s.bytes);
  return out;
}

// Whether the slots have the sizes `bytes` (no allocation: this runs for every indirect call).
bool sameSizes(const std::vector<ParamSlot>& slots, const std::vector<uint32_t>& bytes) {
  if (slots.size() != bytes.size()) return false;
  for (size_t i = 0; i < bytes.size(); ++i)
    if (slots[i].bytes != bytes[i]) return false;
  return true;
}

// "(4, 8)": parameter sizes as a message shows them.
std::string describeSizes(const std::vector<uint32_t>& sizes) {
  std::string s = "(";
  for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s + ")";
}

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

std::vector<bool> addressTakenFunctions(const ir::Module& m,
                                        const std::unordered_map<std::string, int>& functionIndex) {
  std::vector<bool> taken(m.functions.size(), false);
  auto mark = [&](const std::string& name) {
    if (auto it = functionIndex.find(name); it != functionIndex.end())
      taken[size_t(it->second)] = true;
  };
  for (const ir::VarDecl& g : m.globals)
    for (const ir::InitValue& v : g.init)
      if (v.kind == ir::InitValue::Kind::SymbolAddr) mark(v.symbol);
  for (const ir::Function& f : m.functions)
    for (const ir::Statement& s : f.body) {
      if (s.kind != ir::Statement::Kind::Instr) continue;
      const auto names = [](const ir::Operand& o) { return o.kind == ir::OperandKind::Symbol; };
      const std::vector<ir::Operand>& ops = s.instr.operands;
      // A direct call names its callee, which takes no address (its role says it is a call;
      // asked only of instructions that name a symbol, as few do).
      if (std::none_of(ops.begin(), ops.end(), names) || roleOf(s.instr.opcode) == Role::Call)
        continue;
      for (const ir::Operand& o : ops)
        if (names(o)) mark(o.name);
    }
  return taken;
}

std::string callTable(const ir::Module& m, const ir::TargetList& list,
                      const std::unordered_map<std::string, int>& functionIndex,
                      const std::vector<bool>& addressTaken, TargetTable& out) {
  out.name = list.name;
  if (list.kind == ir::TargetList::Kind::CallTargets) {
    out.kind = TargetTable::Kind::CallTargets;
    for (const std::string& name : list.names) {
      auto it = functionIndex.find(name);
      if (it == functionIndex.end())
        return "'" + name + "' in .calltargets '" + list.name + "' is not a function";
      out.callees.push_back(it->second);
    }
    return "";
  }
  out.kind = TargetTable::Kind::Prototype;
  out.paramBytes = sizesOf(list.params);
  out.returnBytes = sizesOf(list.returns);
  for (const auto& [name, index] : functionIndex) {
    const ir::Function& f = m.functions[size_t(index)];
    if (addressTaken[size_t(index)] && !f.isEntry && sizesOf(f.params) == out.paramBytes &&
        sizesOf(f.returns) == out.returnBytes)
      out.callees.push_back(index);
  }
  std::sort(out.callees.begin(), out.callees.end());
  return "";
}

CallTarget resolveCallTarget(const Program& p, const TargetTable& table, uint64_t address) {
  CallTarget t;
  const uint64_t offset = address - kFunctionWindow;
  if (address < kFunctionWindow || offset % 16 != 0 || offset / 16 >= p.functions.size()) {
    t.error = "indirect call to " + hex(address) + ", which is not the address of a function";
    return t;
  }
  int32_t index = int32_t(offset / 16);
  const FunctionCode* f = &p.functions[size_t(index)];
  if (f->isExtern) {
    // A forward declaration's address stands for the definition's.
    for (size_t i = 0; i < p.functions.size(); ++i)
      if (!p.functions[i].isExtern && p.functions[i].name == f->name) {
        f = &p.functions[i];
        index = int32_t(i);
        break;
      }
  }
  if (f->isEntry) {
    t.error = "indirect call to kernel '" + f->name + "' (a .entry cannot be called)";
    return t;
  }
  if (table.kind == TargetTable::Kind::CallTargets) {
    if (std::find(table.callees.begin(), table.callees.end(), index) == table.callees.end()) {
      t.error = "indirect call to '" + f->name + "', which is not in its .calltargets list '" +
                table.name + "'";
      return t;
    }
  } else if (!f->isExtern && !f->error &&
             (!sameSizes(f->params, table.paramBytes) ||
              !sameSizes(f->returns, table.returnBytes))) {
    t.error = "indirect call to '" + f->name + "', whose parameters " +
              describeSizes(sizesOf(f->params)) + " and return values " +
              describeSizes(sizesOf(f->returns)) + " (bytes) do not match its prototype '" +
              table.name + "': " + describeSizes(table.paramBytes) + " and " +
              describeSizes(table.returnBytes);
    return t;
  }
  if (f->isExtern) {
    t.unsupported = "an indirect call to external function '" + f->name + "'";
    return t;
  }
  if (f->error) {
    t.unsupported = "an indirect call to '" + f->name + "': " + f->error->message();
    return t;
  }
  t.function = index;
  return t;
}

}  // namespace warpsim::isa
