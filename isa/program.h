// The executable form of a module: ir lowered to instructions with registers resolved to slots,
// handlers bound, branch targets and reconvergence points resolved (isa/lower.h builds it).
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "isa/diagnostic.h"
#include "isa/ir.h"
#include "isa/mods.h"

namespace warpsim::isa {

inline constexpr unsigned kWarpSize = 32;
// Shared memory the system reserves in every CTA on sm_90 (cudaDevAttrReservedSharedMemoryPerBlock;
// %reserved_smem_offset_cap).
inline constexpr uint32_t kReservedSmemBytes = 1024;
using LaneMask = uint32_t;
inline constexpr uint32_t kNoPc = std::numeric_limits<uint32_t>::max();

struct Exec;
struct Inst;
struct OpcodeSpec;
// An instruction's semantics for one warp: the lanes in Exec::mask execute it.
using Handler = void (*)(Exec& x, const Inst& in);

// What kind of work an instruction is: the unit that executes it, as the statistics and the
// timing model count and schedule it (load/store by state space; bind refines generic forms).
enum class InsnClass : uint8_t {
  Int,
  Fp32,
  Fp64,
  Half,
  Sfu,
  Convert,
  Move,
  Predicate,
  LoadGlobal,
  StoreGlobal,
  LoadShared,
  StoreShared,
  LoadLocal,
  StoreLocal,
  LoadParam,
  StoreParam,
  LoadConst,
  AtomicGlobal,
  AtomicShared,
  Control,
  Barrier,
  Warp,
  Tensor,
  Misc,
  Count_
};
const char* insnClassName(InsnClass c);

// How an instruction moves control (isa/facts.cpp derives it from the spec's Role).
enum class Flow : uint8_t { Next, Branch, Call, Return, Exit, Trap, Barrier };
const char* flowName(Flow f);

// What an instruction does for synchronization beyond its memory accesses, as its family's
// binder decides: what a checker follows without reading opcode text.
enum class SyncRole : uint8_t {
  None,
  WarpSync,        // bar.warp.sync (__syncwarp)
  WarpExchange,    // shfl.sync: a lane reads a member's register (0 from a lane not executing)
  WarpCollective,  // vote/match/redux/elect.sync: the lanes of the member mask meet
  ClusterArrive,   // barrier.cluster.arrive
  ClusterWait,     // barrier.cluster.wait
  MbarrierInit,    // mbarrier.init (sets the object; reads nothing)
  MbarrierArrive,  // mbarrier.arrive/arrive_drop/expect_tx/complete_tx, cp.async.mbarrier.arrive
  MbarrierWait,    // mbarrier.test_wait / try_wait
  BulkCopy,        // cp.async.bulk(.tensor): the asynchronous proxy's copy and its complete_tx
  // cp.reduce.async.bulk(.tensor): the asynchronous proxy's element-wise read-modify-writes
  // (atomics) and, into shared::cluster, its complete_tx (an atomic on an mbarrier)
  BulkReduce,
  BulkCommit,    // cp.async.bulk.commit_group: the thread's bulk copies so far become a group
  BulkWait,      // cp.async.bulk.wait_group N (not .read): all but the N newest groups complete
  AsyncCommit,   // cp.async.commit_group: the thread's cp.async copies so far become a group
  AsyncWait,     // cp.async.wait_group N: all but the N newest groups complete
  AsyncWaitAll,  // cp.async.wait_all: commit_group, then wait_group 0
  TensorCommit,  // wgmma.commit_group: the warp's wgmma.mma_async so far become a group
  TensorWait,    // wgmma.wait_group N: all but the N newest groups complete
};

// What a fence (membar, fence) orders, as its binder decodes the modifiers once: what the timing
// model and the race checker read for every fence they see, instead of the modifier words.
// membar.{cta,gl,sys} is fence.sc at .cta, .gpu and .sys scope (PTX ISA, "membar / fence").
enum class FenceKind : uint8_t {
  None,          // not a fence
  Proxy,         // fence.proxy.*, membar.proxy: orders one thread's accesses across proxies only
  MbarrierInit,  // fence.mbarrier_init.release.cluster: releases the thread's mbarrier.inits
  AcqRel,        // fence.acq_rel (fence's default), and the .acquire/.release sync_restrict forms
  Sc,            // fence.sc, membar
};
struct Fence {
  FenceKind kind = FenceKind::None;
  MemScope scope = MemScope::None;  // membar.gl's is .gpu
};

// A register an instruction reads or writes: a slot of the frame's registers (the carry flag,
// kCarrySlot, among them) or a predicate. Immediates and special registers are not registers.
struct RegRef {
  uint32_t slot = 0;
  bool pred = false;
  bool operator==(const RegRef&) const = default;
};

enum class OpndKind : uint8_t {
  None,
  Reg,    // a register slot (immediates and special registers live in slots too)
  Pred,   // a predicate register: `slot` indexes the frame's predicate masks
  Vec,    // {a, b, ...}: elems
  Addr,   // [base + offset]: baseSlot (kNoSlot = absolute), offset (symbols folded in)
  Sink,   // `_`
  Label,  // a branch target: Inst::target holds the pc
  Func,   // a function name: Inst::callee holds its index
  List,   // call argument / return lists: elems (each an Addr into the param area)
};

inline constexpr uint32_t kNoSlot = std::numeric_limits<uint32_t>::max();
inline constexpr uint16_t kNoInvariant = std::numeric_limits<uint16_t>::max();
// Slot 0 of every frame holds the carry flag (add.cc / addc) of each lane.
inline constexpr uint32_t kCarrySlot = 0;
// .param addresses: the kernel's parameter buffer from 0, a frame's per-lane area from here.
inline constexpr uint64_t kLaneParamBase = 1ull << 24;

struct Opnd {
  OpndKind kind = OpndKind::None;
  bool negated = false;         // !%p
  Type regType = Type::None;    // the declared type of a Reg operand (B32 for %r, F32 for %f...)
  uint32_t slot = kNoSlot;      // Reg / Pred
  bool declared = false;        // Reg / Pred: a declared register (not an immediate or special)
  uint32_t baseSlot = kNoSlot;  // Addr
  Type baseType = Type::None;   // Addr: the base register's declared type (32- or 64-bit)
  int64_t offset = 0;           // Addr
  Space symbolSpace = Space::None;  // Addr/Reg from a symbol: the space its address is in
  bool minus = false;               // `-%r` (vmad)
  // A video instruction's selector (`.b0`, `.h1`, `.h10`, `.b7654`): its letter ('b' bytes, 'h'
  // halves, 0 = none) and digits; digit i (the i-th from the right, element i's source or mask
  // bit) is (selDigits >> 4i) & 0xF.
  char selKind = 0;
  uint8_t selCount = 0;
  uint32_t selDigits = 0;
  std::vector<Opnd> elems;  // Vec / List
};

// Special registers a slot can hold. Static ones are filled when a frame starts; dynamic ones
// (clocks, timers) are refreshed before an instruction that reads them (Inst::readsDynamic).
enum class Special : uint8_t {
  TidX,
  TidY,
  TidZ,
  NtidX,
  NtidY,
  NtidZ,
  CtaidX,
  CtaidY,
  CtaidZ,
  NctaidX,
  NctaidY,
  NctaidZ,
  LaneId,
  WarpId,
  NWarpId,
  SmId,
  NSmId,
  GridId,
  LanemaskEq,
  LanemaskLe,
  LanemaskLt,
  LanemaskGe,
  LanemaskGt,
  Clock,
  Clock64,
  GlobalTimer,
  GlobalTimerLo,
  GlobalTimerHi,
  ClockHi,
  DynamicSmemSize,
  TotalSmemSize,
  AggrSmemSize,
  ClusterCtaRank,
  ClusterNctaRank,
  EnvReg,
  // Clusters (sim/func/cluster.h): position in the cluster, cluster size, the cluster's position
  // in the grid and the grid's size in clusters; 1 when the launch named a cluster shape.
  ClusterCtaidX,
  ClusterCtaidY,
  ClusterCtaidZ,
  ClusterNctaidX,
  ClusterNctaidY,
  ClusterNctaidZ,
  ClusterIdX,
  ClusterIdY,
  ClusterIdZ,
  NClusterIdX,
  NClusterIdY,
  NClusterIdZ,
  IsExplicitCluster,
  // %envreg1 / %envreg2: the high and low halves of a cooperative launch's grid-sync workspace
  // (what cg::this_grid().sync() reads; 0 outside a cooperative launch).
  EnvReg1,
  EnvReg2,
  Count_
};
bool isDynamic(Special s);
// The specials whose value only the thread's place in its block and the block's shape give
// (%tid, %ntid, %laneid, %warpid, %lanemask_*): the same in every CTA of a launch.
bool isPlaceSpecial(Special s);

struct Inst {
  Handler run = nullptr;
  InsnClass cls = InsnClass::Misc;
  Flow flow = Flow::Next;
  Mods mods;
  std::vector<Opnd> ops;
  uint32_t guard = kNoSlot;  // predicate index, kNoSlot = unguarded
  bool guardNegated = false;
  bool readsDynamic = false;  // reads %clock & co: refresh their slots first
  // A launch-invariant instruction's index among its function's (isa/invariants.h), or
  // kNoInvariant. (16 bits: it fills a gap, and the Inst stays four cache lines.)
  uint16_t invariant = kNoInvariant;
  uint32_t target = kNoPc;      // bra: the target pc
  uint32_t reconverge = kNoPc;  // bra: the immediate post-dominator's pc (kNoPc: none)
  int32_t callee = -1;          // call: index into Program::functions
  int32_t table = -1;           // brx.idx, an indirect call: index into FunctionCode::tables
  // bra: it jumps back to the start of a short straight-line loop whose instructions only
  // compute registers from registers and memory reads (markPureLoops, isa/facts.h), so that a
  // warp whose registers repeat at this branch repeats while nothing else runs (sim/func/spin.h).
  bool closesPureLoop = false;
  uint32_t flags = 0;  // what a family's binder decoded from the modifiers, for its handler
  SyncRole sync = SyncRole::None;
  // A global access with the .cg cache operator ("cache at global level": ld.global.cg,
  // cp.async.cg, st.global.cg): the L2 serves it and the L1 keeps no copy (the timing model's L1).
  bool skipsL1 = false;
  Fence fence;  // membar, fence: what it orders (FenceKind::None for every other instruction)
  uint32_t pc = 0;
  uint32_t ptxLine = 0, ptxCol = 0;
  ir::CudaLoc cuda;
  std::string text;  // full opcode, for messages ("ld.global.v4.f32")
  // The table's spec that bound it (isa/insn_table.h: its opcode, family, class and role), for
  // passes that ask what an instruction is instead of reading its text; null only for
  // instructions made outside lowering.
  const OpcodeSpec* spec = nullptr;
  // The registers it writes and reads (the guard among the reads), from isa/facts.cpp: what a
  // scoreboard waits on and a checker follows.
  std::vector<RegRef> defs, uses;
};

// A .param variable's place: in the kernel's parameter buffer (entries) or in a frame's
// per-lane parameter area (device functions and their call sites).
struct ParamSlot {
  std::string name;
  uint32_t offset = 0;
  uint32_t bytes = 0;
  uint32_t align = 1;
};

// What brx.idx or an indirect call may go to (isa/indirect.h builds and reads it).
struct TargetTable {
  enum class Kind : uint8_t { Branches, CallTargets, Prototype } kind = Kind::Branches;
  std::string name;           // the label of its .branchtargets / .calltargets / .callprototype
  std::vector<uint32_t> pcs;  // Branches: the targets, in index order
  // Calls: every function the call may enter (CallTargets: the list; Prototype: the module's
  // functions whose address is taken and whose parameters match), for the call graph.
  std::vector<int32_t> callees;
  // Prototype: the bytes of each parameter and return value a target must declare.
  std::vector<uint32_t> paramBytes, returnBytes;
};

struct FunctionCode {
  std::string name;
  bool isEntry = false;
  bool isExtern = false;  // declaration only (vprintf, ...): calls are bound to built-ins
  const ir::Function* src = nullptr;
  std::vector<Inst> code;
  uint32_t numSlots = 0;  // registers + immediates + specials
  uint32_t numPreds = 0;
  std::vector<std::pair<uint32_t, uint64_t>> constants;  // slot <- value, at frame start
  std::vector<std::pair<uint32_t, Special>> specials;    // slot <- special register
  // Registers a frame must start with zeroed (isa/liveness.h); the rest are written before read.
  std::vector<uint32_t> zeroAtEntry;
  std::vector<uint32_t> predsZeroAtEntry;  // the same for predicates (isa/liveness.h)
  // The per-lane .param bytes a frame must start with zeroed (isa/param_zeroing.h): the ranges
  // {offset, bytes} when known, else the whole area.
  bool paramZeroKnown = false;
  std::vector<std::pair<uint32_t, uint32_t>> paramZeroRanges;
  uint32_t numInvariants = 0;      // its launch-invariant instructions (isa/invariants.h)
  std::vector<ParamSlot> params;   // entry: kernel param buffer layout; func: in the param area
  std::vector<ParamSlot> returns;  // func only: in the param area
  uint32_t paramBytes = 0;         // entry: the kernel parameter buffer
  uint32_t laneParamBytes = 0;     // the per-lane .param area: a func's params and returns, and
                                   // every function's call-site .param variables
  uint32_t localBase = 0;          // where this function's .local frame starts in a thread's local
  uint32_t localBytes = 0;         // memory (frames side by side: recursion with .local is refused)
  uint32_t sharedBytes = 0;     // entry: static shared memory (module + own), extern shared after
  uint32_t sharedAlign = 1;     // entry: the alignment extern shared starts at
  uint32_t ownSharedBytes = 0;  // entry: the end of its own static shared (module + own)
  std::vector<TargetTable> tables;  // of its brx.idx and indirect calls (Inst::table)
  std::vector<std::pair<std::string, RegRef>> regNames;  // declared name -> register (debugging)
  // Why this function cannot run, when its lowering failed (an instruction or declaration
  // warpsim does not support, or refuses): the module still loads, as the driver loads it, and
  // only a launch whose kernel reaches this function reports the error (Program::buildError).
  std::shared_ptr<const PtxError> error;
};

struct Program {
  const ir::Module* module = nullptr;
  std::vector<FunctionCode> functions;
  uint32_t localBytesPerThread = 0;  // all functions' .local frames
  uint32_t externSharedOffset = 0;   // where extern (dynamic) shared memory starts
  // Index of the entry named `name`, -1 when absent.
  int findEntry(const std::string& name) const;
  int findFunction(const std::string& name) const;
  // Whether the entry `entry` (an index into functions) can run: nullptr when it and every
  // function it calls, directly or not, were lowered; otherwise the error of the first one that
  // was not, reworded to name the kernel (and the function, when another): "kernel 'k' cannot
  // run: ...", at the offending PTX line.
  std::unique_ptr<PtxError> buildError(int entry) const;
};

// The functions a call instruction of `fn` may enter: its callee, or every function its target
// table allows (an indirect call); none for other instructions. The call graph, for every
// analysis that follows calls (buildError, support, recursion).
std::vector<int32_t> calleesOf(const FunctionCode& fn, const Inst& in);

}  // namespace warpsim::isa
