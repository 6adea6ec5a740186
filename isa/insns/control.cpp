// Control flow: bra, call (device functions and the vprintf and __assertfail built-ins), ret, exit,
// trap, brkpt, nanosleep. The machine owns the SIMT stack; these tell it what happened.
#include "isa/insns/families.h"
#include "isa/insns/lanes.h"

namespace warpsim::isa::insns {
namespace {

void braH(Exec& x, const Inst& in) { x.machine->branch(in, x.mask); }
void callH(Exec& x, const Inst& in) {
  if (x.mask) x.machine->call(in, x.mask);
}
void retH(Exec& x, const Inst& in) { x.machine->ret(in, x.mask); }
void exitH(Exec& x, const Inst& in) { x.machine->exit(in, x.mask); }
void trapH(Exec& x, const Inst& in) {
  if (x.mask) x.machine->trap(in, x.mask, "the kernel executed trap");
}
void brkptH(Exec& x, const Inst& in) {
  if (x.mask) x.machine->trap(in, x.mask, "the kernel executed brkpt");
}
void nanosleepH(Exec& x, const Inst& in) {
  if (x.mask) x.machine->nanosleep(in);
}

// vprintf(format, args): both generic addresses, read from the caller's .param variables.
void vprintfH(Exec& x, const Inst& in) {
  if (!x.mask) return;
  const Opnd& args = in.ops[2];
  uint64_t fmt[kWarpSize] = {}, argBuf[kWarpSize] = {};
  uint64_t addrFmt[kWarpSize], addrArgs[kWarpSize];
  for (unsigned l = 0; l < kWarpSize; ++l) {
    addrFmt[l] = uint64_t(args.elems[0].offset);
    addrArgs[l] = uint64_t(args.elems[1].offset);
  }
  x.machine->load(in, Space::Param, x.mask, addrFmt, 8, 1, fmt);
  x.machine->load(in, Space::Param, x.mask, addrArgs, 8, 1, argBuf);
  uint64_t count[kWarpSize] = {};
  forLanes(x.mask, [&](unsigned l) { count[l] = x.machine->printf(in, l, fmt[l], argBuf[l]); });
  // The return value, the number of arguments (as CUDA's printf returns), is written only when
  // the call names a return variable.
  if (!in.ops[0].elems.empty()) {
    uint64_t ret[kWarpSize];
    for (unsigned l = 0; l < kWarpSize; ++l) ret[l] = uint64_t(in.ops[0].elems[0].offset);
    x.machine->store(in, Space::Param, x.mask, ret, 4, 1, count);
  }
}

void externalCallH(Exec& x, const Inst& in) {
  if (!x.mask) return;
  const std::string what = "call to external function " + in.text.substr(in.text.find(' ') + 1);
  x.machine->unsupported(in, what.c_str());
}

// Reads the NUL-terminated string at generic address `at` in `lane`'s view, at most `limit` bytes.
std::string readString(Exec& x, const Inst& in, unsigned lane, uint64_t at, size_t limit) {
  std::string s;
  uint64_t addrs[kWarpSize] = {}, byte[kWarpSize] = {};
  for (size_t i = 0; i < limit; ++i) {
    addrs[lane] = at + i;
    x.machine->load(in, Space::Generic, LaneMask{1} << lane, addrs, 1, 1, byte);
    if (byte[lane] == 0) break;
    s += char(byte[lane]);
  }
  return s;
}

// __assertfail(message, file, line, function, charSize), as nvcc emits assert(): the first
// failing lane stops the kernel with CUDA's text, "FILE:LINE: FUNCTION: Assertion `EXPR`
// failed." (the chip prints it for every failing thread, then the launch fails with
// cudaErrorAssert).
void assertFailH(Exec& x, const Inst& in) {
  if (!x.mask) return;
  const unsigned lane = unsigned(std::countr_zero(x.mask));
  const auto& a = in.ops[2].elems;
  uint64_t v[5] = {};
  for (size_t i = 0; i < 5; ++i) {
    uint64_t addrs[kWarpSize] = {}, out[kWarpSize] = {};
    addrs[lane] = uint64_t(a[i].offset);
    x.machine->load(in, Space::Param, LaneMask{1} << lane, addrs, i == 2 ? 4 : 8, 1, out);
    v[i] = out[lane];
  }
  constexpr size_t kLimit = 4096;  // a wild pointer stops at the limit, not at the heap's end
  const std::string message = readString(x, in, lane, v[0], kLimit);
  const std::string file = readString(x, in, lane, v[1], kLimit);
  const std::string function = readString(x, in, lane, v[3], kLimit);
  x.machine->assertFailed(in, lane,
                          file + ":" + std::to_string(uint32_t(v[2])) + ": " + function +
                              ": Assertion `" + message + "` failed.");
}

std::string bindBra(Inst& in) {
  if (in.ops.size() != 1 || in.ops[0].kind != OpndKind::Label)
    return "'bra' takes one label operand (indirect branches, brx.idx, are not supported yet)";
  in.run = braH;
  return "";
}

// call [(rets),] func [, (args)] [, prototype]: normalized to {rets, func, args}.
std::string bindCall(Inst& in) {
  Opnd rets, func, args;
  rets.kind = args.kind = OpndKind::List;
  size_t i = 0;
  if (i < in.ops.size() && in.ops[i].kind == OpndKind::List) rets = in.ops[i++];
  if (i < in.ops.size() && in.ops[i].kind == OpndKind::Reg)
    return "not supported yet: an indirect call (through a function pointer) in '" + in.text + "'";
  if (i >= in.ops.size() || in.ops[i].kind != OpndKind::Func) return "'call' needs a function name";
  func = in.ops[i++];
  if (i < in.ops.size() && in.ops[i].kind == OpndKind::List) args = in.ops[i++];
  in.ops = {rets, func, args};
  in.run = callH;
  return "";
}

std::string bindNoOperands(Inst& in, Handler h) {
  if (!in.ops.empty()) return "'" + in.text + "' takes no operands";
  in.run = h;
  return "";
}

}  // namespace

std::vector<OpcodeSpec> control() {
  return {
      {"bra", "control", InsnClass::Control, Role::Branch, {}, {"uni"}, bindBra},
      {"call", "control", InsnClass::Control, Role::Call, {}, {"uni"}, bindCall},
      {"ret",
       "control",
       InsnClass::Control,
       Role::Return,
       {},
       {"uni"},
       [](Inst& in) { return bindNoOperands(in, retH); }},
      {"exit",
       "control",
       InsnClass::Control,
       Role::Exit,
       {},
       {},
       [](Inst& in) { return bindNoOperands(in, exitH); }},
      {"trap",
       "control",
       InsnClass::Control,
       Role::Trap,
       {},
       {},
       [](Inst& in) { return bindNoOperands(in, trapH); }},
      {"brkpt",
       "control",
       InsnClass::Control,
       Role::Trap,
       {},
       {},
       [](Inst& in) { return bindNoOperands(in, brkptH); }},
      {"nanosleep",
       "control",
       InsnClass::Misc,
       Role::Effect,
       {Type::U32},
       {},
       [](Inst& in) {
         in.run = nanosleepH;
         return expectOperands(in, 1);
       }},
  };
}

std::string bindExternalCall(Inst& in, const std::string& callee) {
  if (callee == "vprintf") {
    if (in.ops[2].elems.size() != 2) return "vprintf takes 2 arguments";
    in.run = vprintfH;
    in.cls = InsnClass::Misc;
    return "";
  }
  if (callee == "__assertfail") {
    if (in.ops[2].elems.size() != 5) return "__assertfail takes 5 arguments";
    in.text += " " + callee;  // faults name the callee: "call.uni __assertfail"
    in.run = assertFailH;
    return "";
  }
  // Reported when executed: "kernel fault (not supported yet): call to external function
  // malloc at k.cu:12 (PTX line 40, call.uni malloc), ...".
  in.text += " " + callee;
  in.run = externalCallH;
  return "";
}

bool isExternalCallStub(Handler h) { return h == externalCallH; }

}  // namespace warpsim::isa::insns
