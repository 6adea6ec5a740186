#include "isa/lower.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <unordered_map>

#include "isa/cfg.h"
#include "isa/contract.h"
#include "isa/contract_labels.h"
#include "isa/facts.h"
#include "isa/fp.h"
#include "isa/indirect.h"
#include "isa/insn_table.h"
#include "isa/insns/families.h"
#include "isa/invariants.h"
#include "isa/liveness.h"
#include "isa/param_zeroing.h"

namespace warpsim::isa {
namespace {

constexpr std::pair<std::string_view, Special> kSpecialNames[] = {
    {"%tid.x", Special::TidX},
    {"%tid.y", Special::TidY},
    {"%tid.z", Special::TidZ},
    {"%ntid.x", Special::NtidX},
    {"%ntid.y", Special::NtidY},
    {"%ntid.z", Special::NtidZ},
    {"%ctaid.x", Special::CtaidX},
    {"%ctaid.y", Special::CtaidY},
    {"%ctaid.z", Special::CtaidZ},
    {"%nctaid.x", Special::NctaidX},
    {"%nctaid.y", Special::NctaidY},
    {"%nctaid.z", Special::NctaidZ},
    {"%laneid", Special::LaneId},
    {"%warpid", Special::WarpId},
    {"%nwarpid", Special::NWarpId},
    {"%smid", Special::SmId},
    {"%nsmid", Special::NSmId},
    {"%gridid", Special::GridId},
    {"%lanemask_eq", Special::LanemaskEq},
    {"%lanemask_le", Special::LanemaskLe},
    {"%lanemask_lt", Special::LanemaskLt},
    {"%lanemask_ge", Special::LanemaskGe},
    {"%lanemask_gt", Special::LanemaskGt},
    {"%clock", Special::Clock},
    {"%clock64", Special::Clock64},
    {"%globaltimer", Special::GlobalTimer},
    {"%globaltimer_lo", Special::GlobalTimerLo},
    {"%globaltimer_hi", Special::GlobalTimerHi},
    {"%clock_hi", Special::ClockHi},
    {"%dynamic_smem_size", Special::DynamicSmemSize},
    {"%total_smem_size", Special::TotalSmemSize},
    {"%aggr_smem_size", Special::AggrSmemSize},
    {"%cluster_ctarank", Special::ClusterCtaRank},
    {"%cluster_nctarank", Special::ClusterNctaRank},
    {"%clusterid.x", Special::ClusterIdX},
    {"%clusterid.y", Special::ClusterIdY},
    {"%clusterid.z", Special::ClusterIdZ},
    {"%nclusterid.x", Special::NClusterIdX},
    {"%nclusterid.y", Special::NClusterIdY},
    {"%nclusterid.z", Special::NClusterIdZ},
    {"%cluster_ctaid.x", Special::ClusterCtaidX},
    {"%cluster_ctaid.y", Special::ClusterCtaidY},
    {"%cluster_ctaid.z", Special::ClusterCtaidZ},
    {"%cluster_nctaid.x", Special::ClusterNctaidX},
    {"%cluster_nctaid.y", Special::ClusterNctaidY},
    {"%cluster_nctaid.z", Special::ClusterNctaidZ},
    {"%is_explicit_cluster", Special::IsExplicitCluster},
    {"%envreg1", Special::EnvReg1},
    {"%envreg2", Special::EnvReg2},
};

// Predefined identifiers whose value is the same for every thread of every launch: PTX ISA 9.0
// section 10 (special registers) and 4.5 (WARP_SZ). ptxas 13 compiles %reserved_smem_offset_begin,
// _cap and _0 for sm_90 to the constants 0, 0x400 and 0 (SASS `MOV R, 0x400`); _end and _1 it
// reads from the driver's constant bank (c[0x0][0x68], c[0x0][0x6c]); the H200 (driver 580)
// gives 288 and 0 (scripts/capture_triton.py's probe, tests/recorded/triton/cases.txt).
struct ConstantName {
  std::string_view name;
  uint64_t value;
  Type type;
};
constexpr ConstantName kConstantNames[] = {
    {"WARP_SZ", kWarpSize, Type::U32},
    {"%current_graph_exec", 0, Type::U64},  // 0: not launched from a CUDA graph
    {"%reserved_smem_offset_begin", 0, Type::U32},
    {"%reserved_smem_offset_end", 288, Type::U32},  // measured on the H200 (below)
    {"%reserved_smem_offset_cap", kReservedSmemBytes, Type::U32},
    {"%reserved_smem_offset_0", 0, Type::U32},
    {"%reserved_smem_offset_1", 0, Type::U32},
};

// The performance monitor counters %pm0..%pm7 and %pm0_64..%pm7_64 read 0 unless a profiler
// programs them; %envreg0..31 are driver-defined (Special::EnvReg).
bool isPerfCounter(const std::string& name, bool* wide) {
  if (name.size() < 4 || name.compare(0, 3, "%pm") != 0 || name[3] < '0' || name[3] > '7')
    return false;
  *wide = name.size() == 7 && name.compare(4, 3, "_64") == 0;
  return name.size() == 4 || *wide;
}

std::optional<ConstantName> constantFromName(const std::string& name) {
  for (const ConstantName& c : kConstantNames)
    if (c.name == name) return c;
  bool wide = false;
  if (isPerfCounter(name, &wide)) return ConstantName{"", 0, wide ? Type::U64 : Type::U32};
  return std::nullopt;
}

std::optional<Special> specialFromName(const std::string& name) {
  for (const auto& [n, s] : kSpecialNames)
    if (n == name) return s;
  if (name.size() > 7 && name.size() <= 9 && name.rfind("%envreg", 0) == 0) {
    int n = 0;
    const auto [end, ec] = std::from_chars(name.data() + 7, name.data() + name.size(), n);
    if (ec == std::errc() && end == name.data() + name.size() && n < 32) return Special::EnvReg;
  }
  return std::nullopt;
}

uint32_t alignUp(uint32_t v, uint32_t a) { return a <= 1 ? v : (v + a - 1) / a * a; }

uint32_t naturalAlign(const ir::VarDecl& v) {
  if (v.align) return v.align;
  return std::max<uint32_t>(1, v.elementBytes());
}

// Byte limits of the spaces a Program lays out with 32-bit offsets. Shared: 2 GiB, so that
// offsets and their alignment never wrap (the launch checks the chip's 227 KiB per block). Per
// thread (.local frames, and the .param areas of device functions, which live in the thread's stack
// on the chip): the chip's 512 KiB of local memory per thread (CUDA C++ Programming Guide,
// "Technical Specifications per Compute Capability"), which also bounds what one warp's 32 lanes
// take on the host.
constexpr uint64_t kMaxSharedOffset = uint64_t{1} << 31;
constexpr uint64_t kMaxBytesPerThread = 512 * 1024;

// Places `d` at `cursor` (aligned to its alignment) and advances `cursor` past it; a PtxError
// at the declaration when the space's `limit` would be passed: a huge array must not wrap a
// 32-bit offset into a small one.
uint32_t place(const ir::Module& m, const ir::VarDecl& d, uint32_t& cursor, uint64_t limit,
               const char* space) {
  const uint64_t a = naturalAlign(d);
  const uint64_t start = (uint64_t(cursor) + a - 1) / a * a;
  const uint64_t bytes = d.totalBytes();
  if (bytes > limit || start + bytes > limit)
    throw PtxError(m.path, d.loc.line, std::max<uint32_t>(1, d.loc.col),
                   "'" + d.name + "' (" + std::to_string(bytes) + " bytes) does not fit in " +
                       space + ": the limit is " + std::to_string(limit) + " bytes",
                   lineOf(m.text, d.loc.line));
  cursor = uint32_t(start + bytes);
  return uint32_t(start);
}

struct Symbol {
  Space space = Space::None;
  uint64_t address = 0;
};

struct RegInfo {
  bool isPred = false;
  uint32_t slot = 0;
  Type type = Type::None;
};

// Module-wide facts every function's lowering needs.
struct ModuleContext {
  const ir::Module& module;
  std::unordered_map<std::string, Symbol> globals;  // .global/.const/.shared at module scope
  std::unordered_map<std::string, int> functionIndex;
  std::vector<bool> addressTaken;  // by function index (isa/indirect.h)
  LowerOptions options;
};

class FunctionLowering {
 public:
  FunctionLowering(const ModuleContext& ctx, const ir::Function& fn, FunctionCode& out)
      : ctx_(ctx), fn_(fn), out_(out) {}

  void run(uint32_t& sharedCursor, uint32_t& localCursor);

 private:
  [[noreturn]] void fail(ir::SourceLoc loc, const std::string& msg,
                         Refusal refusal = Refusal::None) const {
    throw PtxError(ctx_.module.path, loc.line, std::max<uint32_t>(1, loc.col), msg,
                   lineOf(ctx_.module.text, loc.line), refusal);
  }
  void declareRegisters(const ir::VarDecl& d);
  void layOutParams();
  void layOutBodyVariables(uint32_t& sharedCursor, uint32_t& localCursor);
  void assignLabels();
  uint32_t constantSlot(uint64_t value);
  uint32_t specialSlot(Special s);
  Opnd lowerOperand(const ir::Operand& o, const ir::Instruction& ir, Inst& in, Type immType);
  const Symbol* findSymbol(const std::string& name) const;
  Opnd constantOperand(const ConstantName& c) {
    Opnd r;
    r.kind = OpndKind::Reg;
    r.slot = constantSlot(c.value);
    r.regType = c.type == Type::Pred ? Type::U32 : c.type;
    return r;
  }
  int32_t lowerTable(const ir::TargetList& list, Role role, ir::SourceLoc at);
  void lowerInstruction(const ir::Instruction& ir, uint32_t pc);
  void lowerInstructionAt(const ir::Instruction& ir, uint32_t pc);

  const ModuleContext& ctx_;
  const ir::Function& fn_;
  FunctionCode& out_;
  std::unordered_map<std::string, RegInfo> regs_;
  std::unordered_map<uint64_t, uint32_t> constants_;
  std::unordered_map<int, uint32_t> specials_;
  std::unordered_map<std::string, Symbol> locals_;  // params, body .param/.shared/.local
  std::unordered_map<std::string, uint32_t> labels_;
  std::vector<Fusion> fusion_;      // per pc: what the contraction pass may do with it
  uint32_t declaredRegisters_ = 0;  // .reg registers so far, predicates included
  bool functionsAsValues_ = false;  // a function's name is its address (not a call's target)
};

void FunctionLowering::declareRegisters(const ir::VarDecl& d) {
  const auto type = typeFromName(d.type);
  if (!type) fail(d.loc, "unknown register type '." + d.type + "'");
  auto add = [&](const std::string& name) {
    RegInfo r;
    r.type = *type;
    r.isPred = *type == Type::Pred;
    r.slot = r.isPred ? out_.numPreds++ : out_.numSlots++;
    if (d.vecWidth > 1) fail(d.loc, "vector registers (.v2/.v4 .reg) are not supported yet");
    regs_[name] = r;
    out_.regNames.emplace_back(name, RegRef{r.slot, r.isPred});
  };
  // Checked before any register is made: many declarations, each under the parser's limit,
  // must not add up to millions of slots either.
  const uint64_t declared = uint64_t(declaredRegisters_) + uint64_t(std::max(d.rangeCount, 1));
  if (declared > ir::kMaxRegistersPerFunction)
    fail(d.loc, "'" + fn_.name + "' declares more than " +
                    std::to_string(ir::kMaxRegistersPerFunction) + " registers (the limit per " +
                    "function); this declaration brings it to " + std::to_string(declared));
  declaredRegisters_ = uint32_t(declared);
  if (d.rangeCount >= 0) {
    for (int32_t i = 0; i < d.rangeCount; ++i) add(d.name + std::to_string(i));
  } else {
    add(d.name);
  }
}

void FunctionLowering::layOutParams() {
  // Entries: the kernel parameter buffer. Functions: the per-lane area, params then returns.
  uint32_t cursor = 0;
  auto placeParam = [&](const ir::VarDecl& p, std::vector<ParamSlot>& into, bool laneArea) {
    const uint32_t start =
        laneArea ? place(ctx_.module, p, cursor, kMaxBytesPerThread, "a thread's stack")
                 : place(ctx_.module, p, cursor, UINT32_MAX, "the parameter buffer");
    into.push_back({p.name, start, cursor - start, naturalAlign(p)});
    locals_[p.name] = {Space::Param, (laneArea ? kLaneParamBase : 0) + start};
  };
  if (fn_.isEntry) {
    for (const auto& p : fn_.params) placeParam(p, out_.params, false);
    out_.paramBytes = cursor;
    cursor = 0;
  } else {
    for (const auto& p : fn_.params) placeParam(p, out_.params, true);
    for (const auto& r : fn_.returns) placeParam(r, out_.returns, true);
  }
  out_.laneParamBytes = cursor;
}

void FunctionLowering::layOutBodyVariables(uint32_t& sharedCursor, uint32_t& localCursor) {
  uint32_t localStart = localCursor;
  for (const ir::VarDecl& d : fn_.locals) {
    switch (d.space) {
      case ir::StateSpace::Reg:
        declareRegisters(d);
        break;
      case ir::StateSpace::Param: {
        const uint32_t start =
            place(ctx_.module, d, out_.laneParamBytes, kMaxBytesPerThread, "a thread's stack");
        locals_[d.name] = {Space::Param, kLaneParamBase + start};
        break;
      }
      case ir::StateSpace::Shared: {
        if (d.isExtern) fail(d.loc, "extern .shared inside a function body is not supported");
        locals_[d.name] = {Space::Shared,
                           place(ctx_.module, d, sharedCursor, kMaxSharedOffset, ".shared")};
        break;
      }
      case ir::StateSpace::Local: {
        // The cursor spans every function's frame: the limit is per thread, not per function.
        locals_[d.name] = {Space::Local, place(ctx_.module, d, localCursor, kMaxBytesPerThread,
                                               "a thread's .local memory")};
        break;
      }
      default:
        fail(d.loc, "a function-scope declaration in this state space is not supported yet");
    }
  }
  out_.localBase = localStart;
  out_.localBytes = localCursor - localStart;
}

void FunctionLowering::assignLabels() {
  uint32_t pc = 0;
  for (const ir::Statement& s : fn_.body) {
    if (s.kind == ir::Statement::Kind::Label)
      labels_[s.label] = pc;
    else
      ++pc;
  }
}

uint32_t FunctionLowering::constantSlot(uint64_t value) {
  auto it = constants_.find(value);
  if (it != constants_.end()) return it->second;
  const uint32_t slot = out_.numSlots++;
  constants_[value] = slot;
  out_.constants.emplace_back(slot, value);
  return slot;
}

uint32_t FunctionLowering::specialSlot(Special s) {
  auto it = specials_.find(int(s));
  if (it != specials_.end()) return it->second;
  const uint32_t slot = out_.numSlots++;
  specials_[int(s)] = slot;
  out_.specials.emplace_back(slot, s);
  return slot;
}

const Symbol* FunctionLowering::findSymbol(const std::string& name) const {
  if (auto it = locals_.find(name); it != locals_.end()) return &it->second;
  if (auto it = ctx_.globals.find(name); it != ctx_.globals.end()) return &it->second;
  return nullptr;
}

// Immediates take the instruction's type: a decimal float literal is an f64 and becomes an
// f32 / f16 value when the instruction works in those.
uint64_t immediateBits(const ir::Operand& o, Type t) {
  if (o.kind != ir::OperandKind::FloatImm) return o.bits;
  if (!o.isDouble) {
    if (t == Type::F64) return fp::bits(double(fp::f32(uint32_t(o.bits))));
    return o.bits;
  }
  const double d = fp::f64(o.bits);
  switch (t) {
    case Type::F32:
      return fp::bits(fp::f64ToF32(d, fp::Round::RN));
    case Type::F16:
      return fp::f64ToF16(d, fp::Round::RN);
    case Type::BF16:
      return fp::f64ToBF16(d, fp::Round::RN);
    default:
      return o.bits;
  }
}

// `.b0`, `.h10`, `.b7654` -> letter and digits (element 0's digit lowest); false if malformed.
bool decodeSelector(const std::string& s, Opnd& r) {
  if (s.size() < 2 || s.size() > 5 || (s[0] != 'b' && s[0] != 'h')) return false;
  r.selKind = s[0];
  r.selCount = uint8_t(s.size() - 1);
  r.selDigits = 0;
  for (size_t i = 1; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '7') return false;
    r.selDigits |= uint32_t(s[i] - '0') << (4 * (s.size() - 1 - i));
  }
  return true;
}

Opnd FunctionLowering::lowerOperand(const ir::Operand& o, const ir::Instruction& ir, Inst& in,
                                    Type immType) {
  Opnd r;
  r.negated = o.negated;
  r.minus = o.minus;
  if (!o.selector.empty() && !decodeSelector(o.selector, r))
    fail(o.loc, "'." + o.selector + "' is not a byte or half-word selector");
  switch (o.kind) {
    case ir::OperandKind::Reg: {
      if (auto it = regs_.find(o.name); it != regs_.end()) {
        r.kind = it->second.isPred ? OpndKind::Pred : OpndKind::Reg;
        r.slot = it->second.slot;
        r.declared = true;
        r.regType = it->second.type;
        return r;
      }
      if (auto s = specialFromName(o.name)) {
        r.kind = OpndKind::Reg;
        r.slot = specialSlot(*s);
        r.regType = Type::U32;
        if (*s == Special::Clock64 || *s == Special::GlobalTimer || *s == Special::GridId)
          r.regType = Type::U64;
        if (isDynamic(*s)) in.readsDynamic = true;
        return r;
      }
      if (auto c = constantFromName(o.name)) return constantOperand(*c);
      fail(o.loc, "unknown register '" + o.name + "'");
    }
    case ir::OperandKind::IntImm:
    case ir::OperandKind::FloatImm:
      r.kind = OpndKind::Reg;
      r.slot = constantSlot(immediateBits(o, immType));
      r.regType = immType;
      return r;
    case ir::OperandKind::Symbol: {
      if (auto it = labels_.find(o.name); it != labels_.end()) {
        r.kind = OpndKind::Label;
        in.target = it->second;
        return r;
      }
      if (auto it = ctx_.functionIndex.find(o.name); it != ctx_.functionIndex.end()) {
        if (functionsAsValues_) {  // the function's address (lower.h), as an immediate
          r.kind = OpndKind::Reg;
          r.slot = constantSlot(functionAddress(size_t(it->second)));
          r.regType = Type::U64;
          return r;
        }
        r.kind = OpndKind::Func;
        in.callee = it->second;
        return r;
      }
      if (const Symbol* s = findSymbol(o.name)) {
        r.kind = OpndKind::Reg;
        r.slot = constantSlot(s->address);
        r.regType = Type::U64;
        r.symbolSpace = s->space;
        return r;
      }
      if (auto c = constantFromName(o.name)) {
        // WARP_SZ stands for an immediate: it takes the instruction's type like one.
        Opnd k = constantOperand(*c);
        k.regType = immType;
        return k;
      }
      fail(o.loc, "unknown symbol '" + o.name + "'");
    }
    case ir::OperandKind::Address: {
      r.kind = OpndKind::Addr;
      r.offset = o.offset;
      if (o.baseKind == ir::OperandKind::Reg) {
        auto it = regs_.find(o.name);
        if (it == regs_.end() || it->second.isPred)
          fail(o.loc, "unknown address register '" + o.name + "'");
        r.baseSlot = it->second.slot;
        r.baseType = it->second.type;
        r.declared = true;
      } else if (o.baseKind == ir::OperandKind::Symbol) {
        const Symbol* s = findSymbol(o.name);
        if (!s) fail(o.loc, "unknown symbol '" + o.name + "' in address");
        r.offset += int64_t(s->address);
        r.symbolSpace = s->space;
      }
      // A texture or surface address's coordinates: [h, {x, y}].
      for (const ir::Operand& e : o.elems) r.elems.push_back(lowerOperand(e, ir, in, immType));
      return r;
    }
    case ir::OperandKind::Vector:
    case ir::OperandKind::PredPair:
    case ir::OperandKind::List: {
      r.kind = o.kind == ir::OperandKind::List ? OpndKind::List : OpndKind::Vec;
      for (const ir::Operand& e : o.elems) {
        if (o.kind == ir::OperandKind::List && e.kind == ir::OperandKind::Symbol) {
          // A call's parameter or return variable: its place in the .param area.
          const Symbol* s = findSymbol(e.name);
          if (!s || s->space != Space::Param)
            fail(e.loc, "call argument '" + e.name + "' is not a .param variable");
          Opnd a;
          a.kind = OpndKind::Addr;
          a.offset = int64_t(s->address);
          a.symbolSpace = Space::Param;
          r.elems.push_back(a);
        } else {
          r.elems.push_back(lowerOperand(e, ir, in, immType));
        }
      }
      return r;
    }
    case ir::OperandKind::Sink:
      r.kind = OpndKind::Sink;
      return r;
  }
  fail(o.loc, "unsupported operand");
}

int32_t FunctionLowering::lowerTable(const ir::TargetList& list, Role role, ir::SourceLoc at) {
  TargetTable t;
  t.name = list.name;
  if (list.kind == ir::TargetList::Kind::BranchTargets) {
    if (role != Role::Branch)
      fail(at, "'" + list.name + "' is a .branchtargets list, which only brx.idx takes");
    t.kind = TargetTable::Kind::Branches;
    for (const std::string& name : list.names) {
      auto it = labels_.find(name);
      if (it == labels_.end())
        fail(list.loc, "'" + name + "' in .branchtargets '" + list.name + "' is not a label of '" +
                           fn_.name + "'");
      t.pcs.push_back(it->second);
    }
  } else {
    if (role != Role::Call)
      fail(at, "'" + list.name + "' lists call targets, which only an indirect call takes");
    if (std::string err = callTable(ctx_.module, list, ctx_.functionIndex, ctx_.addressTaken, t);
        !err.empty())
      fail(list.loc, err);
  }
  out_.tables.push_back(std::move(t));
  return int32_t(out_.tables.size() - 1);
}

void FunctionLowering::lowerInstruction(const ir::Instruction& ir, uint32_t pc) {
  try {
    lowerInstructionAt(ir, pc);
  } catch (const PtxError& e) {
    // Name the user's CUDA line once, here, for every error an instruction can raise.
    const std::string where = ctx_.module.cudaPlace(ir.userLoc());
    if (where.empty()) throw;
    throw PtxError(e.file(), e.line(), e.col(), e.message() + " at " + where, e.sourceLine(),
                   e.refusal());
  }
}

void FunctionLowering::lowerInstructionAt(const ir::Instruction& ir, uint32_t pc) {
  Inst in;
  in.pc = pc;
  in.ptxLine = ir.loc.line;
  in.ptxCol = ir.loc.col;
  // Faults name the line of the function being compiled: an inlined header function's own
  // line (k.cu's caller, not cuda_fp16.hpp) is what the user wrote.
  in.cuda = ir.userLoc();
  in.text = ir.fullOpcode();
  in.mods = decodeMods(ir.mods);
  if (!ir.guard.empty()) {
    auto it = regs_.find(ir.guard);
    if (it == regs_.end() || !it->second.isPred)
      fail(ir.loc, "guard '" + ir.guard + "' is not a declared predicate");
    in.guard = it->second.slot;
    in.guardNegated = ir.guardNegated;
  }
  const OpcodeSpec* spec = findSpec(ir.opcode, in.mods);
  if (!spec) {
    std::string t = in.mods.types.empty() ? "no type" : std::string(".") + typeName(in.mods.type());
    fail(ir.loc, "'" + in.text + "': '" + ir.opcode + "' is not defined for " + t);
  }
  in.spec = spec;
  functionsAsValues_ = spec->role != Role::Call;
  // Immediates are typed by the instruction's last-named type (a cvt's or set's source type),
  // except the operands the spec types by the first (slct.dtype.ctype: a and b are dtype).
  const Type lastType = in.mods.types.empty() ? Type::B64 : in.mods.types.back();
  for (size_t i = 0; i < ir.operands.size(); ++i) {
    const bool byFirst = i >= 1 && i <= spec->firstTypedOperands && !in.mods.types.empty();
    // A one-element vector on an instruction without .v2/.v4 is the element itself: Triton
    // writes every load and store in braces (`ld.global.b32 { %r1 }, [ %rd1 + 0 ];`).
    const ir::Operand& o = ir.operands[i];
    // brx.idx's `.branchtargets` and an indirect call's `.calltargets` or `.callprototype`:
    // the table's index goes to Inst::table, the operand stays as a placeholder.
    if (o.kind == ir::OperandKind::Symbol)
      if (const ir::TargetList* list = ir::findList(fn_, o.name)) {
        if (in.table >= 0) fail(o.loc, "'" + in.text + "' names more than one target list");
        in.table = lowerTable(*list, spec->role, o.loc);
        in.ops.emplace_back();  // OpndKind::None
        continue;
      }
    const bool single = o.kind == ir::OperandKind::Vector && o.elems.size() == 1 &&
                        in.mods.vec <= 1 && !spec->forms.oneElementVectors;
    in.ops.push_back(
        lowerOperand(single ? o.elems[0] : o, ir, in, byFirst ? in.mods.types.front() : lastType));
  }
  // Selectors and `-%r` belong to the specs that declare them; their binders check them.
  for (const ir::Operand& o : ir.operands) {
    if (!o.selector.empty() && !spec->forms.selectors)
      fail(o.loc, "'" + in.text + "' takes no operand selector ('." + o.selector + "')");
    if (o.minus && !spec->forms.negatedRegisters)
      fail(o.loc, "'" + in.text + "' cannot negate a register operand");
  }
  in.cls = spec->cls;
  std::string err;
  try {
    err = spec->bind(in);
  } catch (const Refused& r) {
    fail(ir.loc, r.message, r.refusal);
  }
  if (!err.empty()) {
    // Name the instruction once: most binders' messages already quote it.
    if (err.find("'" + in.text + "'") == std::string::npos) err += " ('" + in.text + "')";
    fail(ir.loc, err);
  }
  deriveFacts(in, spec->role);
  fusion_.push_back(fusionOf(*spec));
  if (in.callee >= 0 && in.cls == InsnClass::Control &&
      !ctx_.module.functions[size_t(in.callee)].hasBody)
    if (std::string err =
            insns::bindExternalCall(in, ctx_.module.functions[size_t(in.callee)].name);
        !err.empty())
      fail(ir.loc, err);
  out_.code.push_back(std::move(in));
}

void FunctionLowering::run(uint32_t& sharedCursor, uint32_t& localCursor) {
  out_.name = fn_.name;
  out_.isEntry = fn_.isEntry;
  out_.src = &fn_;
  out_.numSlots = kCarrySlot + 1;
  layOutParams();
  layOutBodyVariables(sharedCursor, localCursor);
  assignLabels();
  uint32_t pc = 0;
  for (const ir::Statement& s : fn_.body)
    if (s.kind == ir::Statement::Kind::Instr) lowerInstruction(s.instr, pc++);
  if (ctx_.options.contract) {
    std::vector<bool> labelled(out_.code.size(), false);
    for (const auto& [name, at] : labels_)
      if (at < labelled.size()) labelled[at] = true;
    contractMultiplyAdds(out_, fusion_, labelled);
  }
  setReconvergencePoints(out_);
  markPureLoops(out_);
  out_.zeroAtEntry = registersToZeroAtEntry(out_);
  out_.predsZeroAtEntry = predicatesToZeroAtEntry(out_);
  markLaunchInvariants(out_);
}

// Refuses recursion through functions that own .local frames: frames are laid out statically.
// The function is marked unbuildable; kernels that do not reach it still run.
void checkLocalRecursion(Program& p) {
  const size_t n = p.functions.size();
  std::vector<std::vector<int>> calls(n);
  for (size_t f = 0; f < n; ++f)
    for (const Inst& in : p.functions[f].code)
      for (int32_t c : calleesOf(p.functions[f], in)) calls[f].push_back(c);
  for (size_t start = 0; start < n; ++start) {
    if (p.functions[start].localBytes == 0) continue;
    std::vector<int> stack(calls[start].begin(), calls[start].end());
    std::vector<bool> seen(n, false);
    while (!stack.empty()) {
      const int f = stack.back();
      stack.pop_back();
      if (f == int(start)) {
        auto& fn = p.functions[start];
        const uint32_t line = fn.src ? fn.src->loc.line : 0;
        // The user's line is the function's first line with a .loc, named once as an
        // instruction's error names it (lowerInstruction).
        std::string where;
        for (const Inst& in : fn.code)
          if (in.cuda.known()) {
            where = " at " + p.module->cudaPlace(in.cuda);
            break;
          }
        fn.error = std::make_shared<PtxError>(p.module->path, line, 1,
                                              "not supported yet: recursion through '" + fn.name +
                                                  "', which has .local memory" + where,
                                              lineOf(p.module->text, line));
        break;
      }
      if (seen[f]) continue;
      seen[f] = true;
      stack.insert(stack.end(), calls[f].begin(), calls[f].end());
    }
  }
}

}  // namespace

Program lower(const ir::Module& module, const GlobalAddressFn& globalAddress,
              const LowerOptions& options) {
  Program p;
  p.module = &module;
  ModuleContext ctx{module, {}, {}, {}, options};
  uint32_t sharedCursor = 0;
  uint32_t externAlign = 1;
  std::vector<const ir::VarDecl*> externShared;
  for (const ir::VarDecl& g : module.globals) {
    switch (g.space) {
      case ir::StateSpace::Global:
      case ir::StateSpace::Const:
        ctx.globals[g.name] = {g.space == ir::StateSpace::Const ? Space::Const : Space::Global,
                               globalAddress(g)};
        break;
      case ir::StateSpace::Shared:
        if (g.isExtern || (!g.dims.empty() && g.dims[0] == 0)) {
          externShared.push_back(&g);
          externAlign = std::max(externAlign, naturalAlign(g));
        } else {
          ctx.globals[g.name] = {Space::Shared,
                                 place(module, g, sharedCursor, kMaxSharedOffset, ".shared")};
        }
        break;
      default:
        throw PtxError(module.path, g.loc.line, std::max<uint32_t>(1, g.loc.col),
                       "module-scope variables in this state space are not supported yet",
                       lineOf(module.text, g.loc.line));
    }
  }
  // A name is its definition, before or after its declarations, else its first declaration
  // (ir::Module::findFunction's rule, by which sim/gpu.cpp numbers function-pointer
  // initializers too).
  for (size_t i = 0; i < module.functions.size(); ++i) {
    const auto [it, fresh] = ctx.functionIndex.try_emplace(module.functions[i].name, int(i));
    if (!fresh && module.functions[i].hasBody && !module.functions[size_t(it->second)].hasBody)
      it->second = int(i);
  }
  ctx.addressTaken = addressTakenFunctions(module, ctx.functionIndex);

  // Entries' own (demoted) shared variables overlap one another after the module's: only one
  // entry runs per launch. Extern shared starts after the largest, the same for every function,
  // so the layout is measured before any function is lowered.
  const uint32_t moduleShared = sharedCursor;
  uint32_t largestShared = moduleShared;
  for (const ir::Function& fn : module.functions) {
    uint32_t cursor = moduleShared;
    for (const ir::VarDecl& d : fn.locals)
      if (d.space == ir::StateSpace::Shared) place(module, d, cursor, kMaxSharedOffset, ".shared");
    largestShared = std::max(largestShared, cursor);
  }
  const uint32_t sharedAlign = std::max<uint32_t>(externAlign, 16);
  const uint64_t externOffset =
      (uint64_t(largestShared) + sharedAlign - 1) / sharedAlign * sharedAlign;
  if (externOffset > kMaxSharedOffset && !externShared.empty()) {
    const ir::VarDecl& v = *externShared.front();
    throw PtxError(module.path, v.loc.line, std::max<uint32_t>(1, v.loc.col),
                   "extern .shared '" + v.name + "' aligned to " + std::to_string(sharedAlign) +
                       " does not fit in .shared: the limit is " +
                       std::to_string(kMaxSharedOffset) + " bytes",
                   lineOf(module.text, v.loc.line));
  }
  p.externSharedOffset = uint32_t(externOffset);
  for (const ir::VarDecl* v : externShared)
    ctx.globals[v->name] = {Space::Shared, p.externSharedOffset};

  uint32_t localCursor = 0;
  p.functions.resize(module.functions.size());
  for (size_t i = 0; i < module.functions.size(); ++i) {
    const ir::Function& fn = module.functions[i];
    FunctionCode& out = p.functions[i];
    out.name = fn.name;
    out.src = &fn;
    out.isEntry = fn.isEntry;
    out.isExtern = !fn.hasBody;
    if (!fn.hasBody) continue;
    uint32_t cursor = moduleShared;
    try {
      FunctionLowering(ctx, fn, out).run(cursor, localCursor);
    } catch (const PtxError& e) {
      // Per-kernel loading: the driver loads a module whatever a kernel that is never launched
      // holds, so one function warpsim cannot build does not lose the others; except a form
      // the driver refuses the whole module for.
      if (refusesModule(e.refusal())) throw;
      out.code.clear();
      out.error = std::make_shared<PtxError>(e);
    }
    out.sharedBytes = externShared.empty() ? cursor : p.externSharedOffset;
    out.ownSharedBytes = cursor;
    out.sharedAlign = sharedAlign;
  }
  p.localBytesPerThread = alignUp(localCursor, 16);
  checkLocalRecursion(p);
  setParamZeroing(p);
  return p;
}

int Program::findEntry(const std::string& name) const {
  for (size_t i = 0; i < functions.size(); ++i)
    if (functions[i].isEntry && functions[i].name == name) return int(i);
  return -1;
}

std::unique_ptr<PtxError> Program::buildError(int entry) const {
  // Breadth first from the entry, so the error named is the one nearest the kernel.
  std::vector<int> queue{entry};
  std::vector<bool> seen(functions.size(), false);
  seen[size_t(entry)] = true;
  for (size_t i = 0; i < queue.size(); ++i) {
    const FunctionCode& f = functions[size_t(queue[i])];
    if (f.error) {
      std::string what = "kernel '" + functions[size_t(entry)].name + "' cannot run";
      if (queue[i] != entry) what += ": it calls '" + f.name + "'";
      return std::make_unique<PtxError>(f.error->file(), f.error->line(), f.error->col(),
                                        what + ": " + f.error->message(), f.error->sourceLine(),
                                        f.error->refusal());
    }
    for (const Inst& in : f.code)
      for (int32_t c : calleesOf(f, in))
        if (!seen[size_t(c)]) {
          seen[size_t(c)] = true;
          queue.push_back(c);
        }
  }
  return nullptr;
}

std::vector<int32_t> calleesOf(const FunctionCode& fn, const Inst& in) {
  if (in.callee >= 0) return {in.callee};
  if (in.flow != Flow::Call || in.table < 0) return {};
  return fn.tables[size_t(in.table)].callees;
}

int Program::findFunction(const std::string& name) const {
  for (size_t i = 0; i < functions.size(); ++i)
    if (functions[i].name == name) return int(i);
  return -1;
}

bool isDynamic(Special s) {
  return s == Special::Clock || s == Special::Clock64 || s == Special::GlobalTimer ||
         s == Special::GlobalTimerLo || s == Special::GlobalTimerHi || s == Special::ClockHi;
}

bool isPlaceSpecial(Special s) {
  switch (s) {
    case Special::TidX:
    case Special::TidY:
    case Special::TidZ:
    case Special::NtidX:
    case Special::NtidY:
    case Special::NtidZ:
    case Special::LaneId:
    case Special::WarpId:
    case Special::LanemaskEq:
    case Special::LanemaskLe:
    case Special::LanemaskLt:
    case Special::LanemaskGe:
    case Special::LanemaskGt:
      return true;
    default:
      return false;
  }
}

}  // namespace warpsim::isa
