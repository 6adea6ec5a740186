// Instructions about the launch rather than the data:
//   griddepcontrol.launch_dependents / griddepcontrol.wait (PTX ISA, "griddepcontrol"):
//     programmatic dependent launch. launch_dependents lets a dependent grid start early;
//     wait waits until the grids this one depends on have completed and their memory is
//     visible. warpsim runs one launch at a time, each after the previous one has completed
//     (harness/driver runs launches when enqueued), so both are satisfied when they execute:
//     no-ops, seen by observers as instructions.
//   setmaxnreg.inc|dec.sync.aligned.u32 imm (PTX ISA, "setmaxnreg"): the warp's register
//     budget. The count must be a multiple of 8 in 24 .. 256; the functional model keeps every
//     register, so the checked value is left to observers (the instruction event's operand).
#include "isa/insns/addresses.h"
#include "isa/insns/families.h"
#include "isa/insns/lanes.h"

namespace warpsim::isa::insns {
namespace {

void nopH(Exec&, const Inst&) {}

void setmaxnregH(Exec& x, const Inst& in) {
  const uint64_t n = uniformValue(x, in.ops[0], x.mask);
  if (n < 24 || n > 256 || n % 8 != 0)
    x.machine->trap(in, x.mask, "setmaxnreg's register count must be a multiple of 8 in 24..256");
}

std::string bindGriddep(Inst& in) {
  if (!in.mods.has("launch_dependents") && !in.mods.has("wait"))
    return msg(in, "needs .launch_dependents or .wait");
  in.cls = InsnClass::Misc;
  in.run = nopH;
  return in.ops.empty() ? "" : msg(in, "takes no operands");
}

std::string bindSetmaxnreg(Inst& in) {
  if (in.mods.has("inc") == in.mods.has("dec")) return msg(in, "needs .inc or .dec");
  if (in.ops.size() != 1 || in.ops[0].kind != OpndKind::Reg || in.ops[0].declared)
    return msg(in, "takes one immediate register count");
  in.cls = InsnClass::Misc;
  in.run = setmaxnregH;
  return "";
}

}  // namespace

std::vector<OpcodeSpec> launchControl() {
  return {
      {"griddepcontrol",
       "launch_control",
       InsnClass::Misc,
       Role::Effect,
       Operation::Other,
       {},
       {"launch_dependents", "wait"},
       bindGriddep},
      {"setmaxnreg",
       "launch_control",
       InsnClass::Misc,
       Role::Effect,
       Operation::Other,
       {Type::U32},
       {"inc", "dec", "sync", "aligned"},
       bindSetmaxnreg},
  };
}

}  // namespace warpsim::isa::insns
