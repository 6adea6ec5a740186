// Tests of the control-flow family (isa/insns/control.cpp: bra, call, ret, exit, trap, brkpt,
// nanosleep, the vprintf built-in and other external calls) and of the synchronization family
// (isa/insns/sync.cpp: bar / barrier .sync .arrive .red with ids, thread counts and negated
// predicates, bar.warp.sync, membar / fence with their words): what each tells the machine, and
// the bind errors of bad forms. The machine here records every call it receives.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "isa/insn_table.h"
#include "isa/insns/families.h"
#include "tests/support/exec_harness.h"

namespace warpsim::isa {
namespace {

using test::ExecHarness;
using test::HarnessFault;
using H = ExecHarness;

// Every Machine call, as a line of text, plus the arguments of the last barrier.
class RecordingMachine final : public Machine {
 public:
  std::vector<std::string> log;
  struct Bar {
    BarrierKind kind;
    LaneMask mask;
    uint32_t id, count;
    LaneMask value;
    uint32_t resultSlot;
  } bar{};
  std::map<uint64_t, uint64_t> params;  // .param address -> 8 bytes (vprintf's arguments)

  void load(const Inst&, Space s, LaneMask mask, const uint64_t* addrs, unsigned bytes,
            unsigned vec, uint64_t* out) override {
    log.push_back("load " + std::string(spaceName(s)) + " " + std::to_string(mask) + " " +
                  std::to_string(bytes) + "x" + std::to_string(vec));
    forLanes(mask, [&](unsigned l) { out[l] = params[addrs[l]]; });
  }
  void store(const Inst&, Space s, LaneMask mask, const uint64_t* addrs, unsigned bytes,
             unsigned vec, const uint64_t* data) override {
    log.push_back("store " + std::string(spaceName(s)) + " " + std::to_string(mask) + " " +
                  std::to_string(bytes) + "x" + std::to_string(vec));
    forLanes(mask, [&](unsigned l) { params[addrs[l]] = data[l] + 1000; });
  }
  void atomic(const Inst&, Space, LaneMask, const uint64_t*, unsigned, AtomFn, const uint64_t*,
              const uint64_t*, uint64_t*) override {
    log.push_back("atomic");
  }
  uint64_t toGeneric(Space, uint64_t a, unsigned) override { return a; }
  uint64_t fromGeneric(Space, uint64_t a, unsigned) override { return a; }
  void fence(const Inst&, LaneMask) override {}
  Space spaceOf(uint64_t, unsigned) override { return Space::Global; }
  void branch(const Inst&, LaneMask taken) override {
    log.push_back("branch " + std::to_string(taken));
  }
  void call(const Inst&, LaneMask m) override { log.push_back("call " + std::to_string(m)); }
  void callIndirect(const Inst&, LaneMask m, const uint64_t* t) override {
    log.push_back("call indirect " + std::to_string(m) + " " + std::to_string(t[1]));
  }
  void branchIndexed(const Inst&, LaneMask m, const uint64_t* i) override {
    log.push_back("brx " + std::to_string(m) + " " + std::to_string(i[1]));
  }
  void ret(const Inst&, LaneMask m) override { log.push_back("ret " + std::to_string(m)); }
  void exit(const Inst&, LaneMask m) override { log.push_back("exit " + std::to_string(m)); }
  [[noreturn]] void trap(const Inst&, LaneMask m, const char* why) override {
    throw HarnessFault(std::string(why) + " " + std::to_string(m));
  }
  void barrier(const Inst&, BarrierKind kind, LaneMask mask, uint32_t id, uint32_t count,
               LaneMask value, uint32_t resultSlot) override {
    bar = {kind, mask, id, count, value & mask, resultSlot};
    log.push_back("barrier");
  }
  uint32_t printf(const Inst&, unsigned lane, uint64_t fmt, uint64_t args) override {
    log.push_back("printf " + std::to_string(lane) + " " + std::to_string(fmt) + " " +
                  std::to_string(args));
    return 2;  // "two arguments consumed": the call's return variable must receive it
  }
  void nanosleep(const Inst&) override { log.push_back("nanosleep"); }
  uint64_t special(Special, unsigned) override { return 0; }
  [[noreturn]] void unsupported(const Inst&, const char* w) override {
    throw HarnessFault(std::string("not supported yet: ") + w);
  }
  [[noreturn]] void warpSyncFault(const Inst&, LaneMask, LaneMask) override {
    throw HarnessFault("warp sync");
  }
};

std::vector<std::string> splitOpcode(const std::string& opcode) {
  std::vector<std::string> words;
  std::stringstream ss(opcode);
  for (std::string w; std::getline(ss, w, '.');) words.push_back(w);
  return words;
}

// Binds `opcode` through the instruction table and runs it against a RecordingMachine.
struct Rig {
  std::vector<uint64_t> regs = std::vector<uint64_t>(64 * 32, 0);
  std::vector<uint32_t> preds = std::vector<uint32_t>(8, 0);
  RecordingMachine m;
  Inst in;
  static std::string tryBind(Inst& in, const std::string& opcode, std::vector<Opnd> ops) {
    const auto words = splitOpcode(opcode);
    in.text = opcode;
    in.mods = decodeMods(std::vector<std::string>(words.begin() + 1, words.end()));
    in.ops = std::move(ops);
    const OpcodeSpec* spec = findSpec(words[0], in.mods);
    if (!spec) return "no spec for " + opcode;
    in.cls = spec->cls;
    return spec->bind(in);
  }
  Rig(const std::string& opcode, std::vector<Opnd> ops) {
    if (std::string e = tryBind(in, opcode, std::move(ops)); !e.empty())
      throw std::invalid_argument(e);
  }
  uint64_t& r(uint32_t reg, unsigned lane) { return regs[reg * 32 + lane]; }
  void setAll(uint32_t reg, uint64_t v) {
    for (unsigned l = 0; l < 32; ++l) r(reg, l) = v;
  }
  void run(LaneMask mask, LaneMask active = 0) {
    Exec x;
    x.regs = regs.data();
    x.preds = preds.data();
    x.mask = mask;
    x.active = active ? active : mask;
    x.machine = &m;
    in.run(x, in);
  }
};

std::string bindError(const std::string& opcode, std::vector<Opnd> ops) {
  Inst in;
  return Rig::tryBind(in, opcode, std::move(ops));
}

bool validates(const std::string& opcode) {
  const auto words = splitOpcode(opcode);
  ir::Instruction ins;
  ins.opcode = words[0];
  ins.mods.assign(words.begin() + 1, words.end());
  return validateInstruction(ins).empty();
}

Opnd label() {
  Opnd o;
  o.kind = OpndKind::Label;
  return o;
}
Opnd func() {
  Opnd o;
  o.kind = OpndKind::Func;
  return o;
}
Opnd paramAddr(int64_t offset) {
  Opnd o;
  o.kind = OpndKind::Addr;
  o.offset = offset;
  o.symbolSpace = Space::Param;
  return o;
}
Opnd list(std::vector<Opnd> elems) {
  Opnd o;
  o.kind = OpndKind::List;
  o.elems = std::move(elems);
  return o;
}

// ---- bra ----------------------------------------------------------------------------------

TEST(Control, BraTellsTheMachineWhichLanesTakeIt) {
  for (const char* op : {"bra", "bra.uni"}) {
    Rig r(op, {label()});
    EXPECT_EQ(r.in.cls, InsnClass::Control);
    r.run(0x0000000Au, 0x0000000Fu);
    // A branch whose guard is false everywhere still reaches the machine (which moves the pc).
    r.run(0, 0xFFFFFFFFu);
    EXPECT_EQ(r.m.log, (std::vector<std::string>{"branch 10", "branch 0"})) << op;
  }
  const std::string why = "'bra' takes one label operand (an indirect branch is brx.idx)";
  EXPECT_EQ(bindError("bra", {}), why);
  EXPECT_EQ(bindError("bra", {H::reg(1)}), why);
  EXPECT_EQ(bindError("bra", {label(), label()}), why);
  EXPECT_EQ(bindError("bra.uni", {func()}), why);
}

// ---- call -----------------------------------------------------------------------------------

TEST(Control, CallOperandsAreNormalizedToReturnsFunctionArguments) {
  const Opnd rets = list({paramAddr(int64_t(kLaneParamBase) + 16)});
  const Opnd args =
      list({paramAddr(int64_t(kLaneParamBase)), paramAddr(int64_t(kLaneParamBase) + 8)});
  struct Case {
    std::vector<Opnd> ops;
    size_t nRets, nArgs;
  };
  const Case cases[] = {{{func()}, 0, 0},
                        {{rets, func()}, 1, 0},
                        {{func(), args}, 0, 2},
                        {{rets, func(), args}, 1, 2}};
  for (const Case& c : cases) {
    Rig r("call.uni", c.ops);
    ASSERT_EQ(r.in.ops.size(), 3u);
    EXPECT_EQ(r.in.ops[0].kind, OpndKind::List);
    EXPECT_EQ(r.in.ops[1].kind, OpndKind::Func);
    EXPECT_EQ(r.in.ops[2].kind, OpndKind::List);
    EXPECT_EQ(r.in.ops[0].elems.size(), c.nRets);
    EXPECT_EQ(r.in.ops[2].elems.size(), c.nArgs);
    r.run(0x3);
    r.run(0);  // no lane calls: nothing happens
    EXPECT_EQ(r.m.log, std::vector<std::string>{"call 3"});
  }
  Rig plain("call", {func()});
  EXPECT_EQ(plain.in.cls, InsnClass::Control);
  const std::string why = "'call' needs a function name or a register holding a function's address";
  EXPECT_EQ(bindError("call", {}), why);
  EXPECT_EQ(bindError("call", {rets}), why);
  // Through a register: only with a prototype or target list (lowering sets Inst::table).
  EXPECT_EQ(bindError("call", {H::reg(3), args}),
            "an indirect call needs a .callprototype or .calltargets list after its arguments");
}

TEST(Control, AnIndirectCallAndBrxIdxHandTheLanesValuesToTheMachine) {
  const Opnd args = list({paramAddr(int64_t(kLaneParamBase))});
  Rig r("call", {func()});  // rebound below with a table, as lowering sets it
  r.in = Inst{};
  r.in.table = 0;
  ASSERT_EQ(Rig::tryBind(r.in, "call.uni", {list({}), H::reg(3), args, Opnd{}}), "");
  ASSERT_EQ(r.in.ops.size(), 3u);
  EXPECT_EQ(r.in.ops[1].kind, OpndKind::Reg);
  r.setAll(3, 0x7D0000000020ull);
  r.run(0x6);
  r.run(0);  // no lane calls: nothing happens
  EXPECT_EQ(r.m.log,
            std::vector<std::string>{"call indirect 6 " + std::to_string(0x7D0000000020ull)});
  Inst direct;
  direct.table = 0;
  EXPECT_EQ(Rig::tryBind(direct, "call", {func(), Opnd{}}),
            "a direct call takes no .callprototype or .calltargets");

  Rig b("bra", {label()});
  b.in = Inst{};
  b.in.table = 0;
  ASSERT_EQ(Rig::tryBind(b.in, "brx.idx", {H::reg(3), Opnd{}}), "");
  EXPECT_EQ(b.in.cls, InsnClass::Control);
  EXPECT_EQ(b.in.ops.size(), 1u);
  b.setAll(3, 2);
  b.run(0x3);
  b.run(0, 0x3);  // the guard false everywhere: the machine still moves the pc
  EXPECT_EQ(b.m.log, (std::vector<std::string>{"brx 3 2", "brx 0 2"}));
  Inst noList;
  EXPECT_EQ(Rig::tryBind(noList, "brx.idx", {H::reg(3), Opnd{}}),
            "'brx.idx' takes an index register and a .branchtargets list");
}

TEST(Control, VprintfIsABuiltInThatReadsItsTwoParamArguments) {
  const int64_t base = int64_t(kLaneParamBase);
  Rig r("call.uni",
        {list({paramAddr(base + 16)}), func(), list({paramAddr(base), paramAddr(base + 8)})});
  ASSERT_EQ(insns::bindExternalCall(r.in, "vprintf"), "");
  EXPECT_EQ(r.in.cls, InsnClass::Misc);
  r.m.params[uint64_t(base)] = 0x5000;      // the format string's generic address
  r.m.params[uint64_t(base) + 8] = 0x6000;  // the argument buffer's
  r.run(0x5);
  EXPECT_EQ(r.m.log, (std::vector<std::string>{"load param 5 8x1", "load param 5 8x1",
                                               "printf 0 20480 24576", "printf 2 20480 24576",
                                               "store param 5 4x1"}));
  EXPECT_EQ(r.m.params[uint64_t(base) + 16], 1002u);  // the return value written: 2 arguments
  r.m.log.clear();
  r.run(0);
  EXPECT_TRUE(r.m.log.empty());

  // Without a return variable nothing is stored.
  Rig q("call.uni", {func(), list({paramAddr(base), paramAddr(base + 8)})});
  ASSERT_EQ(insns::bindExternalCall(q.in, "vprintf"), "");
  q.run(0x1);
  EXPECT_EQ(q.m.log.back(), "printf 0 0 0");

  Rig bad("call.uni", {func(), list({paramAddr(base)})});
  EXPECT_EQ(insns::bindExternalCall(bad.in, "vprintf"), "vprintf takes 2 arguments");
  Rig badAssert("call.uni", {func(), list({paramAddr(base), paramAddr(base + 8)})});
  EXPECT_EQ(insns::bindExternalCall(badAssert.in, "__assertfail"),
            "__assertfail takes 5 arguments");
}

TEST(Control, OtherExternalFunctionsAreReportedWhenCalled) {
  Rig r("call.uni", {list({paramAddr(int64_t(kLaneParamBase) + 8)}), func(),
                     list({paramAddr(int64_t(kLaneParamBase))})});
  ASSERT_EQ(insns::bindExternalCall(r.in, "cudaStreamCreateWithFlags"), "");
  EXPECT_EQ(r.in.text, "call.uni cudaStreamCreateWithFlags");
  r.run(0);  // not reached by any lane: no fault
  try {
    r.run(1);
    FAIL() << "expected a fault";
  } catch (const HarnessFault& f) {
    EXPECT_STREQ(f.what(),
                 "not supported yet: call to external function cudaStreamCreateWithFlags");
  }
}

// ---- ret, exit, trap, brkpt, nanosleep --------------------------------------------------------

TEST(Control, RetAndExitReportTheirLanes) {
  Rig ret("ret", {});
  ret.run(0xF0);
  ret.run(0);
  Rig retUni("ret.uni", {});
  retUni.run(0x1);
  Rig ex("exit", {});
  ex.run(0xFFFFFFFFu);
  ex.run(0);
  EXPECT_EQ(ret.m.log, (std::vector<std::string>{"ret 240", "ret 0"}));
  EXPECT_EQ(retUni.m.log, std::vector<std::string>{"ret 1"});
  EXPECT_EQ(ex.m.log, (std::vector<std::string>{"exit 4294967295", "exit 0"}));
  EXPECT_EQ(ret.in.cls, InsnClass::Control);
  EXPECT_EQ(ex.in.cls, InsnClass::Control);
  EXPECT_EQ(bindError("ret", {H::reg(1)}), "'ret' takes no operands");
  EXPECT_EQ(bindError("exit", {label()}), "'exit' takes no operands");
}

TEST(Control, TrapAndBrkptFaultOnlyWhenALaneExecutesThem) {
  for (const char* op : {"trap", "brkpt"}) {
    Rig r(op, {});
    EXPECT_EQ(r.in.cls, InsnClass::Control);
    EXPECT_NO_THROW(r.run(0, 0xFF));
    try {
      r.run(0x30);
      FAIL() << op << " did not fault";
    } catch (const HarnessFault& f) {
      EXPECT_EQ(std::string(f.what()), std::string("the kernel executed ") + op + " 48");
    }
    EXPECT_EQ(bindError(op, {H::reg(1)}), std::string("'") + op + "' takes no operands");
  }
}

TEST(Control, NanosleepSleepsOncePerWarpInstruction) {
  Rig r("nanosleep.u32", {H::reg(1)});
  EXPECT_EQ(r.in.cls, InsnClass::Misc);
  r.setAll(1, 100);
  r.run(0xFFFF);
  r.run(0);
  EXPECT_EQ(r.m.log, std::vector<std::string>{"nanosleep"});
  EXPECT_EQ(bindError("nanosleep.u32", {}), "'nanosleep.u32' takes 1 operands, 0 given");
  EXPECT_EQ(bindError("nanosleep.u32", {H::reg(1), H::reg(2)}),
            "'nanosleep.u32' takes 1 operands, 2 given");
  EXPECT_EQ(bindError("nanosleep.u64", {H::reg(1)}), "no spec for nanosleep.u64");
}

// Every spec of the family with every word it accepts binds or is refused, without crashing.
TEST(Control, EveryAcceptedWordBindsOrIsRefused) {
  size_t bound = 0, refused = 0;
  for (const OpcodeSpec& s : instructionTable()) {
    if (s.family != "control") continue;
    std::vector<std::string> opcodes = {std::string(s.opcode)};
    for (std::string_view w : s.mods)
      opcodes.push_back(std::string(s.opcode) + "." + std::string(w));
    for (Type t : s.types) opcodes.push_back(std::string(s.opcode) + "." + typeName(t));
    for (const std::string& op : opcodes) {
      if (!s.types.empty() && op.find('.') == std::string::npos) continue;  // needs its type
      EXPECT_TRUE(validates(op)) << op;
      for (const auto& ops : std::vector<std::vector<Opnd>>{{}, {label()}, {func()}, {H::reg(1)}}) {
        Inst in;
        const std::string e = Rig::tryBind(in, op, ops);
        EXPECT_TRUE(!e.empty() || in.run != nullptr) << op << " bound without a handler";
        ++(e.empty() ? bound : refused);
      }
    }
  }
  EXPECT_GT(bound, 8u);
  EXPECT_GT(refused, 8u);
}

// ---- bar / barrier ------------------------------------------------------------------------------

TEST(Sync, BarSyncDecodesTheBarrierIdAndThreadCount) {
  struct Case {
    const char* op;
    std::vector<uint64_t> operands;  // immediates
    uint32_t id, count;
  };
  const Case cases[] = {
      {"bar.sync", {0}, 0, 0},
      {"bar.sync", {3, 64}, 3, 64},
      {"bar.cta.sync", {15}, 15, 0},
      {"barrier.sync", {1}, 1, 0},
      {"barrier.sync.aligned", {2, 96}, 2, 96},
      {"barrier.cta.sync.aligned", {4, 1024}, 4, 1024},
      {"barrier.cta.sync", {7}, 7, 0},
  };
  for (const Case& c : cases) {
    std::vector<Opnd> ops;
    for (size_t i = 0; i < c.operands.size(); ++i) ops.push_back(H::reg(1 + uint32_t(i)));
    Rig r(c.op, ops);
    EXPECT_EQ(r.in.cls, InsnClass::Barrier) << c.op;
    for (size_t i = 0; i < c.operands.size(); ++i) r.setAll(1 + uint32_t(i), c.operands[i]);
    r.run(0xFFFF0000u);
    ASSERT_EQ(r.m.log.size(), 1u) << c.op;
    EXPECT_EQ(r.m.bar.kind, BarrierKind::Sync) << c.op;
    EXPECT_EQ(r.m.bar.mask, 0xFFFF0000u) << c.op;
    EXPECT_EQ(r.m.bar.id, c.id) << c.op;
    EXPECT_EQ(r.m.bar.count, c.count) << c.op;
    EXPECT_EQ(r.m.bar.resultSlot, kNoSlot) << c.op;
    r.run(0, 0xFFFFFFFFu);  // no lane executes: no arrival
    EXPECT_EQ(r.m.log.size(), 1u) << c.op;
  }
}

TEST(Sync, RegisterOperandsAreReadFromTheFirstExecutingLane) {
  Rig r("bar.sync", {H::reg(1), H::reg(2)});
  for (unsigned l = 0; l < 32; ++l) {
    r.r(1, l) = 100 + l;  // warp-uniform in a correct kernel; the first executing lane decides
    r.r(2, l) = 32 * (l + 1);
  }
  r.run(0xFFFFFFF0u);
  EXPECT_EQ(r.m.bar.id, 104u);
  EXPECT_EQ(r.m.bar.count, 160u);
}

TEST(Sync, BarArriveNeedsAThreadCount) {
  for (const char* op :
       {"bar.arrive", "barrier.arrive", "barrier.arrive.aligned", "bar.cta.arrive"}) {
    Rig r(op, {H::reg(1), H::reg(2)});
    r.setAll(1, 1);
    r.setAll(2, 64);
    r.run(0xFFFFFFFFu);
    EXPECT_EQ(r.m.bar.kind, BarrierKind::Arrive) << op;
    EXPECT_EQ(r.m.bar.id, 1u) << op;
    EXPECT_EQ(r.m.bar.count, 64u) << op;
    EXPECT_EQ(bindError(op, {H::reg(1)}), "'" + std::string(op) + "' needs a thread count");
  }
}

TEST(Sync, BarRedDecodesTheResultThePredicateAndItsNegation) {
  struct Case {
    const char* op;
    std::vector<Opnd> ops;
    BarrierKind kind;
    uint32_t id, count, resultSlot;
    bool negated;
  };
  const Case cases[] = {
      {"bar.red.popc.u32",
       {H::reg(5), H::reg(1), H::pred(3)},
       BarrierKind::RedPopc,
       2,
       0,
       5,
       false},
      {"bar.red.popc.u32",
       {H::reg(5), H::reg(1), H::reg(2), H::pred(3, true)},
       BarrierKind::RedPopc,
       2,
       64,
       5,
       true},
      {"barrier.red.popc.u32",
       {H::reg(6), H::reg(1), H::pred(3)},
       BarrierKind::RedPopc,
       2,
       0,
       6,
       false},
      {"bar.red.and.pred",
       {H::pred(4), H::reg(1), H::pred(3)},
       BarrierKind::RedAnd,
       2,
       0,
       4,
       false},
      {"bar.red.and.pred",
       {H::pred(4), H::reg(1), H::reg(2), H::pred(3, true)},
       BarrierKind::RedAnd,
       2,
       64,
       4,
       true},
      {"bar.red.or.pred",
       {H::pred(2), H::reg(1), H::pred(3, true)},
       BarrierKind::RedOr,
       2,
       0,
       2,
       true},
      {"barrier.red.or.pred",
       {H::pred(2), H::reg(1), H::reg(2), H::pred(3)},
       BarrierKind::RedOr,
       2,
       64,
       2,
       false},
      {"barrier.cta.red.and.pred",
       {H::pred(2), H::reg(1), H::pred(3)},
       BarrierKind::RedAnd,
       2,
       0,
       2,
       false},
  };
  for (const Case& c : cases) {
    Rig r(c.op, c.ops);
    EXPECT_EQ(r.in.cls, InsnClass::Barrier) << c.op;
    r.setAll(1, 2);
    r.setAll(2, 64);
    r.preds[3] = 0x0F0F0F0Fu;
    r.run(0x00FFFF00u);
    ASSERT_EQ(r.m.log.size(), 1u) << c.op;
    EXPECT_EQ(r.m.bar.kind, c.kind) << c.op;
    EXPECT_EQ(r.m.bar.id, c.id) << c.op;
    EXPECT_EQ(r.m.bar.count, c.count) << c.op;
    EXPECT_EQ(r.m.bar.resultSlot, c.resultSlot) << c.op;
    EXPECT_EQ(r.m.bar.value, (c.negated ? ~0x0F0F0F0Fu : 0x0F0F0F0Fu) & 0x00FFFF00u) << c.op;
  }
}

TEST(Sync, BarWarpSyncPassesTheMemberMask) {
  Rig r("bar.warp.sync", {H::reg(1)});
  EXPECT_EQ(r.in.cls, InsnClass::Warp);
  r.setAll(1, 0xFFFFFFFFu);
  r.run(0xFFFFFFFFu);
  EXPECT_EQ(r.m.bar.kind, BarrierKind::Warp);
  EXPECT_EQ(r.m.bar.mask, 0xFFFFFFFFu);
  for (unsigned l = 0; l < 32; ++l) r.r(1, l) = 0x0000FFFFu;
  r.run(0x0000FFFFu);
  EXPECT_EQ(r.m.bar.mask, 0x0000FFFFu);
  EXPECT_EQ(r.m.log.size(), 2u);
  r.run(0);
  EXPECT_EQ(r.m.log.size(), 2u);
  EXPECT_EQ(bindError("bar.warp.sync", {}), "'bar.warp.sync' takes 1 operands, 0 given");
}

TEST(Sync, BadBarrierFormsAreRejectedWithAMessage) {
  struct Case {
    std::string op;
    std::vector<Opnd> ops;
    std::string msg;
  };
  const std::vector<Case> cases = {
      {"bar.sync", {}, "'bar.sync' takes 1 to 2 operands"},
      {"bar.sync", {H::reg(1), H::reg(2), H::reg(3)}, "'bar.sync' takes 1 to 2 operands"},
      {"barrier.sync", {}, "'barrier.sync' takes 1 to 2 operands"},
      {"bar.red.popc.u32", {H::reg(1), H::pred(1)}, "'bar.red.popc.u32' takes 3 to 4 operands"},
      {"bar.red.popc.u32",
       {H::reg(1), H::reg(2), H::reg(3), H::reg(4), H::pred(1)},
       "'bar.red.popc.u32' takes 3 to 4 operands"},
      {"bar.red.popc.u32",
       {H::reg(1), H::reg(2), H::reg(3)},
       "the last operand of bar.red is a predicate"},
      {"bar.red.popc.u32", {H::pred(1), H::reg(2), H::pred(3)}, "bar.red.popc writes a register"},
      {"bar.red.and.pred", {H::reg(1), H::reg(2), H::pred(3)}, "bar.red.and/.or write a predicate"},
      {"bar.red.or.pred", {H::reg(1), H::reg(2), H::pred(3)}, "bar.red.and/.or write a predicate"},
      {"bar.red.u32", {H::reg(1), H::reg(2), H::pred(3)}, "bar.red needs .popc, .and or .or"},
      {"bar.warp.sync", {H::reg(1), H::reg(2)}, "'bar.warp.sync' takes 1 operands, 2 given"},
  };
  for (const Case& c : cases) EXPECT_EQ(bindError(c.op, c.ops), c.msg) << c.op;
}

// ---- membar / fence -------------------------------------------------------------------------

TEST(Sync, MembarAndFenceAreAcceptedWithTheirWordsAndChangeNothing) {
  const char* forms[] = {
      "membar.cta",
      "membar.gl",
      "membar.sys",
      "membar.proxy.alias",
      "membar.proxy.async",
      "fence.cta",
      "fence.sc.cta",
      "fence.sc.gpu",
      "fence.sc.sys",
      "fence.sc.cluster",
      "fence.acq_rel.cta",
      "fence.acq_rel.gpu",
      "fence.acq_rel.sys",
      "fence.acq_rel.cluster",
      "fence.acquire.gpu",
      "fence.release.cta",
      "fence.acquire.sync_restrict::shared::cluster.cluster",
      "fence.release.sync_restrict::shared::cta.cluster",
      "fence.mbarrier_init.release.cluster",
      "fence.proxy.alias",
      "fence.proxy.async",
      "fence.proxy.async.global",
      "fence.proxy.async.shared::cta",
      "fence.proxy.async.shared::cluster",
      "fence.proxy.tensormap::generic.release.gpu",
      "fence.proxy.tensormap::generic.release.cta",
      "fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster",
      "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster",
  };
  for (const char* op : forms) {
    EXPECT_TRUE(validates(op)) << op;
    Rig r(op, {});
    EXPECT_EQ(r.in.cls, InsnClass::Misc) << op;
    const auto before = r.regs;
    r.run(0xFFFFFFFFu);
    EXPECT_TRUE(r.m.log.empty()) << op;
    EXPECT_EQ(r.regs, before) << op;
    EXPECT_EQ(bindError(op, {H::reg(1)}), "'" + std::string(op) + "' takes no operands");
  }
  // The acquire half of a tensormap proxy fence names the tensormap: [addr], size (128).
  Rig acq("fence.proxy.tensormap::generic.acquire.gpu", {H::addr(1), H::reg(2)});
  EXPECT_TRUE(validates("fence.proxy.tensormap::generic.acquire.gpu"));
  acq.run(0xFFFFFFFFu);
  EXPECT_TRUE(acq.m.log.empty());
  EXPECT_EQ(bindError("fence.proxy.tensormap::generic.acquire.gpu", {}),
            "'fence.proxy.tensormap::generic.acquire.gpu' takes an address and a size");
  EXPECT_EQ(bindError("fence.proxy.tensormap::generic.acquire.gpu", {H::reg(1), H::reg(2)}),
            "'fence.proxy.tensormap::generic.acquire.gpu' takes an address and a size");
  // Words that are not PTX are refused by the validator.
  EXPECT_FALSE(validates("fence.proxy.to_proxy::generic.release.gpu"));
  EXPECT_FALSE(validates("membar.bogus"));
}

// Every spec of the family with every word it accepts binds or is refused, without crashing.
TEST(Sync, EveryAcceptedWordBindsOrIsRefused) {
  size_t bound = 0, refused = 0;
  for (const OpcodeSpec& s : instructionTable()) {
    if (s.family != "sync") continue;
    std::vector<std::string> opcodes = {std::string(s.opcode)};
    for (std::string_view w : s.mods)
      opcodes.push_back(std::string(s.opcode) + "." + std::string(w));
    for (Type t : s.types)
      for (std::string_view w : s.mods)
        opcodes.push_back(std::string(s.opcode) + "." + std::string(w) + "." + typeName(t));
    const std::vector<std::vector<Opnd>> shapes = {{},
                                                   {H::reg(1)},
                                                   {H::reg(1), H::reg(2)},
                                                   {H::reg(1), H::reg(2), H::pred(1)},
                                                   {H::pred(1), H::reg(2), H::pred(1)},
                                                   {H::reg(1), H::reg(2), H::reg(3), H::pred(1)}};
    for (const std::string& op : opcodes) {
      EXPECT_TRUE(validates(op)) << op;
      for (const auto& ops : shapes) {
        Inst in;
        const std::string e = Rig::tryBind(in, op, ops);
        EXPECT_TRUE(!e.empty() || in.run != nullptr) << op << " bound without a handler";
        ++(e.empty() ? bound : refused);
      }
    }
  }
  EXPECT_GT(bound, 50u);
  EXPECT_GT(refused, 50u);
}

}  // namespace
}  // namespace warpsim::isa
