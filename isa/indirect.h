// Indirect control flow (PTX ISA 9.0, "brx.idx" and "call"): the target tables that lowering
// builds from a function's `.branchtargets`, `.calltargets` and `.callprototype` lists, and the
// resolution of an indirect call's target address to the function it enters. A function's
// address is functionAddress(index) (isa/lower.h); a call through anything else, or to a
// function its prototype or list does not allow, is a kernel fault, never a jump into nowhere.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "isa/ir.h"
#include "isa/program.h"

namespace warpsim::isa {

// Which functions of the module have their address taken (a function name used as a value in
// an instruction other than a direct call, or in a variable's initializer), by function index
// (the index `functionIndex` maps each name to).
std::vector<bool> addressTakenFunctions(const ir::Module& m,
                                        const std::unordered_map<std::string, int>& functionIndex);

// The table of an indirect call through `list` (a .calltargets or .callprototype list);
// "" or what is wrong with the list (a name that is no function of the module).
std::string callTable(const ir::Module& m, const ir::TargetList& list,
                      const std::unordered_map<std::string, int>& functionIndex,
                      const std::vector<bool>& addressTaken, TargetTable& out);

// What an indirect call's target address enters: `function` (an index into p.functions) or,
// when it enters nothing it may, `error` (a kernel fault's message) or `unsupported` (a target
// warpsim cannot run: an external function, or one it could not build).
struct CallTarget {
  int32_t function = -1;
  std::string error;
  std::string unsupported;
};
CallTarget resolveCallTarget(const Program& p, const TargetTable& table, uint64_t address);

}  // namespace warpsim::isa
