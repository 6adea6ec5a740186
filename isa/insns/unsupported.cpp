// Instructions warpsim parses but does not execute yet. A kernel that reaches one gets
// "not supported yet: <opcode> at <file>:<line>" as a kernel fault, never a wrong result.
#include "isa/insns/families.h"

namespace warpsim::isa::insns {

void notSupportedHandler(Exec& x, const Inst& in) {
  if (!x.mask) return;
  x.machine->unsupported(in, in.text.c_str());
}

bool reportsNotSupported(Handler h) {
  return h == notSupportedHandler || isExternalCallStub(h) || isAtom128Stub(h);
}

namespace {
std::string bindUnsupported(Inst& in) {
  in.run = notSupportedHandler;
  return "";
}
}  // namespace

std::vector<OpcodeSpec> unsupported() {
  std::vector<OpcodeSpec> specs;
  // Any modifier is accepted: the instruction never runs, and its name is reported whole.
  for (std::string_view op :
       {"istypep", "multimem", "stackrestore", "stacksave", "alloca", "applypriority", "discard",
        "createpolicy", "pmevent", "clusterlaunchcontrol", "tcgen05"}) {
    specs.push_back({op,
                     "unsupported",
                     InsnClass::Misc,
                     Role::Unmodelled,
                     Operation::Other,
                     {},
                     {"*"},
                     bindUnsupported});
    // A texture fetch's coordinates are a vector even of one element: `tex.1d {...}, [t, {%r}]`.
    specs.back().forms.oneElementVectors = op == "tex" || op == "tld4";
  }
  return specs;
}

}  // namespace warpsim::isa::insns
