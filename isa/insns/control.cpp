// Control flow: bra, brx.idx, call (device functions, direct or through a function pointer, and
// the vprintf, __assertfail, malloc and free built-ins, and the device-side launch of dynamic
// parallelism), ret, exit, trap, brkpt, nanosleep.
// The machine owns the SIMT stack; these tell it what happened.
#include "isa/insns/families.h"
#include "isa/insns/lanes.h"

namespace warpsim::isa::insns {
namespace {

void braH(Exec& x, const Inst& in) { x.machine->branch(in, x.mask); }
void callH(Exec& x, const Inst& in) {
  if (x.mask) x.machine->call(in, x.mask);
}
// call (rets), %fptr, (args), list: ops[1] holds each lane's target address.
void indirectCallH(Exec& x, const Inst& in) {
  if (x.mask) x.machine->callIndirect(in, x.mask, x.reg(in.ops[1]));
}
// brx.idx index, list: ops[0] holds each lane's index into Inst::table.
void brxH(Exec& x, const Inst& in) { x.machine->branchIndexed(in, x.mask, x.reg(in.ops[0])); }
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

// Argument `arg` of an external call (a .param variable, `bytes` wide) for the lanes in the
// mask, and the call's return variable (when the call names one).
void paramValues(Exec& x, const Inst& in, size_t arg, unsigned bytes, uint64_t* out) {
  uint64_t addrs[kWarpSize];
  for (unsigned l = 0; l < kWarpSize; ++l) addrs[l] = uint64_t(in.ops[2].elems[arg].offset);
  x.machine->load(in, Space::Param, x.mask, addrs, bytes, 1, out);
}

void storeReturn(Exec& x, const Inst& in, unsigned bytes, const uint64_t* values) {
  if (in.ops[0].elems.empty()) return;
  uint64_t ret[kWarpSize];
  for (unsigned l = 0; l < kWarpSize; ++l) ret[l] = uint64_t(in.ops[0].elems[0].offset);
  x.machine->store(in, Space::Param, x.mask, ret, bytes, 1, values);
}

// vprintf(format, args): both generic addresses, read from the caller's .param variables.
void vprintfH(Exec& x, const Inst& in) {
  if (!x.mask) return;
  uint64_t fmt[kWarpSize] = {}, argBuf[kWarpSize] = {};
  paramValues(x, in, 0, 8, fmt);
  paramValues(x, in, 1, 8, argBuf);
  uint64_t count[kWarpSize] = {};
  forLanes(x.mask, [&](unsigned l) { count[l] = x.machine->printf(in, l, fmt[l], argBuf[l]); });
  // The return value, the number of arguments (as CUDA's printf returns), is written only when
  // the call names a return variable.
  storeReturn(x, in, 4, count);
}

void externalCallH(Exec& x, const Inst& in) {
  if (!x.mask) return;
  const std::string what = "call to external function " + in.text.substr(in.text.find(' ') + 1);
  x.machine->unsupported(in, what.c_str());
}

// malloc(size) -> pointer and free(pointer), as nvcc declares them: one 64-bit parameter, and
// for malloc a 64-bit return variable. Lanes call in lane order, so addresses do not depend on
// anything but the schedule (sim/func/device_heap.h).
void mallocH(Exec& x, const Inst& in) {
  if (!x.mask) return;
  uint64_t size[kWarpSize] = {}, ptr[kWarpSize] = {};
  paramValues(x, in, 0, 8, size);
  x.machine->deviceMallocLanes(in, x.mask, size, ptr);
  storeReturn(x, in, 8, ptr);
}

void freeH(Exec& x, const Inst& in) {
  if (!x.mask) return;
  uint64_t ptr[kWarpSize] = {};
  paramValues(x, in, 0, 8, ptr);
  x.machine->deviceFreeLanes(in, x.mask, ptr);
}

// Dynamic parallelism (CDP2): nvcc -rdc turns `k<<<g, b, shared, stream>>>(args)` into
//   buf = __cudaCDP2GetParameterBufferV2(k, g, b, shared);  // dim3s as .b8[12] parameters
//   if (buf) { st [buf + offset], arg ...;  __cudaCDP2LaunchDeviceV2(buf, stream); }
// Reads `words` 32-bit words of argument `arg` (a .param variable) for the lanes in the mask.
void paramWords(Exec& x, const Inst& in, size_t arg, unsigned words, uint64_t (*out)[kWarpSize]) {
  for (unsigned w = 0; w < words; ++w) {
    uint64_t addrs[kWarpSize];
    for (unsigned l = 0; l < kWarpSize; ++l)
      addrs[l] = uint64_t(in.ops[2].elems[arg].offset) + 4 * w;
    x.machine->load(in, Space::Param, x.mask, addrs, 4, 1, out[w]);
  }
}

void launchBufferH(Exec& x, const Inst& in) {
  if (!x.mask) return;
  uint64_t fn[kWarpSize] = {}, dims[6][kWarpSize] = {}, shared[1][kWarpSize] = {};
  uint64_t out[kWarpSize] = {};
  paramValues(x, in, 0, 8, fn);
  paramWords(x, in, 1, 3, dims);
  paramWords(x, in, 2, 3, dims + 3);
  paramWords(x, in, 3, 1, shared);
  forLanes(x.mask, [&](unsigned l) {
    const uint32_t g[3] = {uint32_t(dims[0][l]), uint32_t(dims[1][l]), uint32_t(dims[2][l])};
    const uint32_t b[3] = {uint32_t(dims[3][l]), uint32_t(dims[4][l]), uint32_t(dims[5][l])};
    out[l] = x.machine->deviceLaunchBuffer(in, l, fn[l], g, b, uint32_t(shared[0][l]));
  });
  storeReturn(x, in, 8, out);
}

void launchDeviceH(Exec& x, const Inst& in) {
  if (!x.mask) return;
  uint64_t buf[kWarpSize] = {}, stream[kWarpSize] = {}, out[kWarpSize] = {};
  paramValues(x, in, 0, 8, buf);
  paramValues(x, in, 1, 8, stream);
  forLanes(x.mask, [&](unsigned l) {
    out[l] = x.machine->deviceLaunch(in, l, buf[l], stream[l]);
    if (out[l]) x.machine->setDeviceLastError(in, l, uint32_t(out[l]));
  });
  storeReturn(x, in, 4, out);
}

// The device runtime's memory and stream calls (cudaMalloc, cudaFree, cudaStreamCreateWithFlags,
// cudaStreamDestroy in device code, which nvcc -rdc calls __cudaCDP2*): each returns a
// cudaError_t. Device-side cudaMalloc allocates from the device heap, as malloc does (CUDA
// Programming Guide, "Dynamic Global Memory Allocation").
constexpr uint64_t kCudaErrorMemoryAllocation = 2, kCudaStreamNonBlocking = 1;

void cdpMallocH(Exec& x, const Inst& in) {
  if (!x.mask) return;
  uint64_t where[kWarpSize] = {}, size[kWarpSize] = {}, ptr[kWarpSize] = {}, err[kWarpSize] = {};
  paramValues(x, in, 0, 8, where);
  paramValues(x, in, 1, 8, size);
  forLanes(x.mask, [&](unsigned l) {
    ptr[l] = x.machine->deviceMalloc(in, l, size[l]);
    err[l] = ptr[l] ? 0 : kCudaErrorMemoryAllocation;
    if (err[l]) x.machine->setDeviceLastError(in, l, uint32_t(err[l]));
  });
  x.machine->store(in, Space::Generic, x.mask, where, 8, 1, ptr);  // through the caller's pointer
  storeReturn(x, in, 4, err);
}

void cdpFreeH(Exec& x, const Inst& in) {
  if (!x.mask) return;
  uint64_t ptr[kWarpSize] = {}, err[kWarpSize] = {};
  paramValues(x, in, 0, 8, ptr);
  forLanes(x.mask, [&](unsigned l) { x.machine->deviceFree(in, l, ptr[l]); });
  storeReturn(x, in, 4, err);
}

void cdpStreamCreateH(Exec& x, const Inst& in) {
  if (!x.mask) return;
  uint64_t where[kWarpSize] = {}, flags[kWarpSize] = {}, stream[kWarpSize] = {},
           err[kWarpSize] = {};
  paramValues(x, in, 0, 8, where);
  paramValues(x, in, 1, 4, flags);
  LaneMask created = 0;
  forLanes(x.mask, [&](unsigned l) {
    // The device runtime accepts only cudaStreamNonBlocking (the programming guide: a stream
    // made on the device must be non-blocking).
    if (flags[l] != kCudaStreamNonBlocking) {
      err[l] = 1;  // cudaErrorInvalidValue
      x.machine->setDeviceLastError(in, l, 1);
      return;
    }
    stream[l] = x.machine->deviceStreamCreate(in, l);
    created |= LaneMask{1} << l;
  });
  if (created) x.machine->store(in, Space::Generic, created, where, 8, 1, stream);
  storeReturn(x, in, 4, err);
}

void cdpStreamDestroyH(Exec& x, const Inst& in) {
  if (!x.mask) return;
  uint64_t stream[kWarpSize] = {}, err[kWarpSize] = {};
  paramValues(x, in, 0, 8, stream);
  forLanes(x.mask, [&](unsigned l) {
    err[l] = x.machine->deviceStreamDestroy(in, l, stream[l]);
    if (err[l]) x.machine->setDeviceLastError(in, l, uint32_t(err[l]));
  });
  storeReturn(x, in, 4, err);
}

// cudaGraphSetConditional(handle, value) in a kernel of a CUDA graph: the handle is the device
// address of the conditional node's value (harness/driver/graph.h), so setting it is a store,
// which the memory checks see like any other.
void graphSetConditionalH(Exec& x, const Inst& in) {
  if (!x.mask) return;
  uint64_t handle[kWarpSize] = {}, value[kWarpSize] = {};
  paramValues(x, in, 0, 8, handle);
  paramValues(x, in, 1, 4, value);
  x.machine->store(in, Space::Global, x.mask, handle, 4, 1, value);
}

// cudaGetLastError (kClear) and cudaPeekAtLastError in device code: the thread's last error
// from a failed device runtime call (a launch, a malloc, a stream call), 0 when none failed.
template <bool kClear>
void lastErrorH(Exec& x, const Inst& in) {
  if (!x.mask) return;
  uint64_t err[kWarpSize] = {};
  forLanes(x.mask, [&](unsigned l) { err[l] = x.machine->deviceLastError(in, l, kClear); });
  storeReturn(x, in, 4, err);
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
    return "'bra' takes one label operand (an indirect branch is brx.idx)";
  in.run = braH;
  return "";
}

// brx.idx index, tlist: tlist a `.branchtargets` list (lowering put it in Inst::table).
std::string bindBrx(Inst& in) {
  if (!in.mods.has("idx")) return "'brx' needs .idx";
  if (in.ops.size() != 2 || in.ops[0].kind != OpndKind::Reg || in.table < 0)
    return "'" + in.text + "' takes an index register and a .branchtargets list";
  in.ops.pop_back();  // the list's placeholder
  in.run = brxH;
  return "";
}

// call [(rets),] func [, (args)]: normalized to {rets, func, args}. An indirect call names a
// register for func and ends with its .callprototype or .calltargets list (in Inst::table).
std::string bindCall(Inst& in) {
  Opnd rets, func, args;
  rets.kind = args.kind = OpndKind::List;
  size_t i = 0;
  if (i < in.ops.size() && in.ops[i].kind == OpndKind::List) rets = in.ops[i++];
  const bool indirect = i < in.ops.size() && in.ops[i].kind == OpndKind::Reg;
  if (i >= in.ops.size() || (!indirect && in.ops[i].kind != OpndKind::Func))
    return "'call' needs a function name or a register holding a function's address";
  func = in.ops[i++];
  if (i < in.ops.size() && in.ops[i].kind == OpndKind::List) args = in.ops[i++];
  if (indirect && in.table < 0)
    return "an indirect call needs a .callprototype or .calltargets list after its arguments";
  if (!indirect && in.table >= 0) return "a direct call takes no .callprototype or .calltargets";
  if (i + (in.table >= 0 ? 1 : 0) != in.ops.size())
    return "'call' takes [(returns),] function [, (arguments)] [, prototype or target list]";
  in.ops = {rets, func, args};
  in.run = indirect ? indirectCallH : callH;
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
      {"bra", "control", InsnClass::Control, Role::Branch, Operation::Other, {}, {"uni"}, bindBra},
      {"call", "control", InsnClass::Control, Role::Call, Operation::Other, {}, {"uni"}, bindCall},
      {"brx",
       "control",
       InsnClass::Control,
       Role::Branch,
       Operation::Other,
       {},
       {"idx", "uni"},
       bindBrx},
      {"ret",
       "control",
       InsnClass::Control,
       Role::Return,
       Operation::Other,
       {},
       {"uni"},
       [](Inst& in) { return bindNoOperands(in, retH); }},
      {"exit",
       "control",
       InsnClass::Control,
       Role::Exit,
       Operation::Other,
       {},
       {},
       [](Inst& in) { return bindNoOperands(in, exitH); }},
      {"trap",
       "control",
       InsnClass::Control,
       Role::Trap,
       Operation::Other,
       {},
       {},
       [](Inst& in) { return bindNoOperands(in, trapH); }},
      {"brkpt",
       "control",
       InsnClass::Control,
       Role::Trap,
       Operation::Other,
       {},
       {},
       [](Inst& in) { return bindNoOperands(in, brkptH); }},
      {"nanosleep",
       "control",
       InsnClass::Misc,
       Role::Effect,
       Operation::Other,
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
  if (callee == "malloc" || callee == "free") {
    if (in.ops[2].elems.size() != 1) return callee + " takes 1 argument";
    if (callee == "malloc" && in.ops[0].elems.size() > 1) return "malloc returns 1 value";
    in.text += " " + callee;  // faults name the callee: "call.uni malloc"
    in.run = callee == "malloc" ? mallocH : freeH;
    return "";
  }
  if (callee == "__cudaCDP2GetParameterBufferV2" || callee == "cudaGetParameterBufferV2") {
    if (in.ops[2].elems.size() != 4) return callee + " takes 4 arguments";
    in.text += " " + callee;
    in.run = launchBufferH;
    return "";
  }
  if (callee == "__cudaCDP2LaunchDeviceV2" || callee == "cudaLaunchDeviceV2") {
    if (in.ops[2].elems.size() != 2) return callee + " takes 2 arguments";
    in.text += " " + callee;
    in.run = launchDeviceH;
    return "";
  }
  struct RuntimeCall {
    const char* name;
    size_t arguments;
    Handler run;
  };
  static const RuntimeCall kRuntimeCalls[] = {
      {"__cudaCDP2Malloc", 2, cdpMallocH},
      {"__cudaCDP2Free", 1, cdpFreeH},
      {"__cudaCDP2StreamCreateWithFlags", 2, cdpStreamCreateH},
      {"__cudaCDP2StreamDestroy", 1, cdpStreamDestroyH},
      {"__cudaCDP2GetLastError", 0, lastErrorH<true>},
      {"__cudaCDP2PeekAtLastError", 0, lastErrorH<false>},
      {"cudaGraphSetConditional", 2, graphSetConditionalH},
  };
  for (const RuntimeCall& c : kRuntimeCalls) {
    if (callee != c.name) continue;
    if (in.ops[2].elems.size() != c.arguments)
      return callee + " takes " + std::to_string(c.arguments) + " argument" +
             (c.arguments == 1 ? "" : "s");
    in.text += " " + callee;
    in.run = c.run;
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
