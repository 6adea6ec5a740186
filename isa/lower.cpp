#include "isa/lower.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <unordered_map>

#include "isa/cfg.h"
#include "isa/fp.h"
#include "isa/insn_table.h"
#include "isa/insns/families.h"

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
    {"%dynamic_smem_size", Special::DynamicSmemSize},
    {"%total_smem_size", Special::TotalSmemSize},
    {"%cluster_ctarank", Special::ClusterCtaRank},
    {"%cluster_nctarank", Special::ClusterNctaRank},
};

std::optional<Special> specialFromName(const std::string& name) {
  for (const auto& [n, s] : kSpecialNames)
    if (n == name) return s;
  if (name.rfind("%envreg", 0) == 0) return Special::EnvReg;
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
};

class FunctionLowering {
 public:
  FunctionLowering(const ModuleContext& ctx, const ir::Function& fn, FunctionCode& out)
      : ctx_(ctx), fn_(fn), out_(out) {}

  void run(uint32_t& sharedCursor, uint32_t& localCursor);

 private:
  [[noreturn]] void fail(ir::SourceLoc loc, const std::string& msg) const {
    throw PtxError(ctx_.module.path, loc.line, std::max<uint32_t>(1, loc.col), msg,
                   lineOf(ctx_.module.text, loc.line));
  }
  void declareRegisters(const ir::VarDecl& d);
  void layOutParams();
  void layOutBodyVariables(uint32_t& sharedCursor, uint32_t& localCursor);
  void assignLabels();
  uint32_t constantSlot(uint64_t value);
  uint32_t specialSlot(Special s);
  Opnd lowerOperand(const ir::Operand& o, const ir::Instruction& ir, Inst& in, Type immType);
  const Symbol* findSymbol(const std::string& name) const;
  void lowerInstruction(const ir::Instruction& ir, uint32_t pc);

  const ModuleContext& ctx_;
  const ir::Function& fn_;
  FunctionCode& out_;
  std::unordered_map<std::string, RegInfo> regs_;
  std::unordered_map<uint64_t, uint32_t> constants_;
  std::unordered_map<int, uint32_t> specials_;
  std::unordered_map<std::string, Symbol> locals_;  // params, body .param/.shared/.local
  std::unordered_map<std::string, uint32_t> labels_;
  uint32_t declaredRegisters_ = 0;  // .reg registers so far, predicates included
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
    if (!r.isPred) out_.regNames.emplace_back(name, r.slot);
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

Opnd FunctionLowering::lowerOperand(const ir::Operand& o, const ir::Instruction& ir, Inst& in,
                                    Type immType) {
  Opnd r;
  r.negated = o.negated;
  switch (o.kind) {
    case ir::OperandKind::Reg: {
      if (auto it = regs_.find(o.name); it != regs_.end()) {
        r.kind = it->second.isPred ? OpndKind::Pred : OpndKind::Reg;
        r.slot = it->second.slot;
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
      } else if (o.baseKind == ir::OperandKind::Symbol) {
        const Symbol* s = findSymbol(o.name);
        if (!s) fail(o.loc, "unknown symbol '" + o.name + "' in address");
        r.offset += int64_t(s->address);
        r.symbolSpace = s->space;
      }
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

void FunctionLowering::lowerInstruction(const ir::Instruction& ir, uint32_t pc) {
  Inst in;
  in.pc = pc;
  in.ptxLine = ir.loc.line;
  in.ptxCol = ir.loc.col;
  in.cuda = ir.cuda;
  in.text = ir.fullOpcode();
  in.mods = decodeMods(ir.mods);
  if (!ir.guard.empty()) {
    auto it = regs_.find(ir.guard);
    if (it == regs_.end() || !it->second.isPred)
      fail(ir.loc, "guard '" + ir.guard + "' is not a declared predicate");
    in.guard = it->second.slot;
    in.guardNegated = ir.guardNegated;
  }
  // Immediates are typed by the instruction's last-named type (a cvt's or set's source type),
  // except slct.dtype.ctype, whose selected operands a and b are of dtype (the first).
  const Type lastType = in.mods.types.empty() ? Type::B64 : in.mods.types.back();
  for (size_t i = 0; i < ir.operands.size(); ++i) {
    const bool selected = ir.opcode == "slct" && (i == 1 || i == 2) && !in.mods.types.empty();
    in.ops.push_back(
        lowerOperand(ir.operands[i], ir, in, selected ? in.mods.types.front() : lastType));
  }
  const OpcodeSpec* spec = findSpec(ir.opcode, in.mods);
  if (!spec) {
    std::string t = in.mods.types.empty() ? "no type" : std::string(".") + typeName(in.mods.type());
    fail(ir.loc, "'" + in.text + "': '" + ir.opcode + "' is not defined for " + t);
  }
  in.cls = spec->cls;
  if (std::string err = spec->bind(in); !err.empty()) fail(ir.loc, err + " ('" + in.text + "')");
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
  setReconvergencePoints(out_.code);
}

// Refuses recursion through functions that own .local frames: frames are laid out statically.
void checkLocalRecursion(const Program& p) {
  const size_t n = p.functions.size();
  std::vector<std::vector<int>> calls(n);
  for (size_t f = 0; f < n; ++f)
    for (const Inst& in : p.functions[f].code)
      if (in.callee >= 0) calls[f].push_back(in.callee);
  for (size_t start = 0; start < n; ++start) {
    if (p.functions[start].localBytes == 0) continue;
    std::vector<int> stack(calls[start].begin(), calls[start].end());
    std::vector<bool> seen(n, false);
    while (!stack.empty()) {
      const int f = stack.back();
      stack.pop_back();
      if (f == int(start)) {
        const auto& fn = p.functions[start];
        throw PtxError(
            p.module->path, fn.src ? fn.src->loc.line : 0, 1,
            "not supported yet: recursion through '" + fn.name + "', which has .local memory", "");
      }
      if (seen[f]) continue;
      seen[f] = true;
      stack.insert(stack.end(), calls[f].begin(), calls[f].end());
    }
  }
}

}  // namespace

Program lower(const ir::Module& module, const GlobalAddressFn& globalAddress) {
  Program p;
  p.module = &module;
  ModuleContext ctx{module, {}, {}};
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
  for (size_t i = 0; i < module.functions.size(); ++i)
    ctx.functionIndex[module.functions[i].name] = int(i);

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
    FunctionLowering(ctx, fn, out).run(cursor, localCursor);
    out.sharedBytes = externShared.empty() ? cursor : p.externSharedOffset;
    out.sharedAlign = sharedAlign;
  }
  p.localBytesPerThread = alignUp(localCursor, 16);
  checkLocalRecursion(p);
  return p;
}

int Program::findEntry(const std::string& name) const {
  for (size_t i = 0; i < functions.size(); ++i)
    if (functions[i].isEntry && functions[i].name == name) return int(i);
  return -1;
}

int Program::findFunction(const std::string& name) const {
  for (size_t i = 0; i < functions.size(); ++i)
    if (functions[i].name == name) return int(i);
  return -1;
}

bool isDynamic(Special s) {
  return s == Special::Clock || s == Special::Clock64 || s == Special::GlobalTimer ||
         s == Special::GlobalTimerLo || s == Special::GlobalTimerHi;
}

const char* insnClassName(InsnClass c) {
  static constexpr std::array<const char*, size_t(InsnClass::Count_)> kNames = {
      "int",         "fp32",      "fp64",      "half",      "sfu",       "convert",
      "move",        "predicate", "ld.global", "st.global", "ld.shared", "st.shared",
      "ld.local",    "st.local",  "ld.param",  "st.param",  "ld.const",  "atom.global",
      "atom.shared", "control",   "barrier",   "warp",      "misc"};
  return kNames[size_t(c)];
}

}  // namespace warpsim::isa
