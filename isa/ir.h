// The PTX module as parsed: a faithful, machine-independent tree of what the text says.
// The parser fills it; isa/lower turns it into an executable Program. Nothing here knows
// about warps, memory or timing.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warpsim::ir {

// A position in the PTX text (1-based; 0 = unknown).
struct SourceLoc {
  uint32_t line = 0;
  uint32_t col = 0;
};

// A position in the CUDA source, from `.loc file line col` (file = index into Module::files).
struct CudaLoc {
  int file = -1;
  uint32_t line = 0;
  uint32_t col = 0;
  bool known() const { return file >= 0 && line > 0; }
};

enum class StateSpace { Reg, Sreg, Const, Global, Local, Param, Shared, Tex, Generic };

enum class OperandKind {
  Reg,       // %r1, %tid.x, %SP, or any declared register name; `name` holds it
  IntImm,    // 42, -1, 0xFF, 0777, 1U: `bits` holds the two's complement value
  FloatImm,  // 0f3F800000 (f32, isDouble=false), 0d3FF0000000000000 or 1.5 (f64): `bits` raw
  Symbol,    // a variable, function or label name used as a value (mov.u64 %rd, sym; bra L)
  Address,   // [base+offset]: `base` is a Reg, Symbol or absent (absolute), `offset` bytes
  Vector,    // {a, b, c, d}: `elems`
  PredPair,  // setp's `%p|%q`: elems[0] and elems[1]
  List,      // a parenthesised list in call: (retval0), (param0, param1): `elems`
  Sink,      // `_`: the result is discarded
};

struct Operand {
  OperandKind kind = OperandKind::IntImm;
  std::string name;            // Reg / Symbol name
  bool negated = false;        // `!%p` used as an operand (e.g. setp's c, selp's predicate)
  bool minus = false;          // `-%r`: a register negated (vmad's operands)
  std::string selector;        // `%r1.b0`, `%r2.h10`: a video instruction's byte/half selector
  uint64_t bits = 0;           // IntImm / FloatImm value
  bool isDouble = false;       // FloatImm: true for 0d... and decimal literals
  std::vector<Operand> elems;  // Vector / PredPair / List
  // Address: base (empty name = absolute address), offset in bytes. A texture/surface address
  // `[tex, {%r1, %r2}]` keeps its further components (here one Vector) in `elems`.
  std::optional<OperandKind> baseKind;  // Reg or Symbol when there is a base
  int64_t offset = 0;
  SourceLoc loc;
};

struct Instruction {
  std::string opcode;             // "ld", "setp", "bar", "cp"
  std::vector<std::string> mods;  // in source order, without dots: {"global", "v4", "f32"}
  std::string guard;              // guard predicate register name, empty = unguarded
  bool guardNegated = false;      // @!%p
  std::vector<Operand> operands;  // in source order, destinations first as PTX writes them
  SourceLoc loc;                  // of the opcode (or of the guard when there is one)
  CudaLoc cuda;                   // innermost .loc in effect
  // The call site in the function being compiled that `cuda` was inlined into, when .loc said
  // so: the chain of inlined_at (a helper inlined into a helper inlined into the kernel) is
  // followed through the earlier .loc lines to its outermost frame.
  CudaLoc inlinedAt;
  std::string fullOpcode() const;  // "ld.global.v4.f32"
  // The user's line: the outermost frame (inlinedAt when known, else cuda).
  const CudaLoc& userLoc() const { return inlinedAt.known() ? inlinedAt : cuda; }
};

// One initializer element of a variable: a number, or the address of a symbol (+offset).
struct InitValue {
  enum class Kind { Int, Float, SymbolAddr } kind = Kind::Int;
  uint64_t bits = 0;      // Int (two's complement) or Float (raw bits, isDouble says width)
  bool isDouble = false;  // Float
  std::string symbol;     // SymbolAddr: the variable or function whose address is stored
  bool generic = false;   // SymbolAddr written as generic(sym)
  int64_t offset = 0;     // SymbolAddr: added to the address
};

// The most virtual registers (.reg declarations, predicates included) one function may declare.
// ptxas allocates at most 255 hardware registers per thread, but PTX registers are virtual and
// nvcc declares many more than it uses; the largest kernel of this suite declares 443
// (sgemm_regblock_f32). Every declared register is a slot of 32 lanes x 8 bytes per warp, so
// 65,536 of them are 16 MiB per warp and 512 MiB per 1024-thread CTA: far beyond any real
// kernel, small enough that a hostile `%r<2147483647>` is refused instead of materialized.
inline constexpr uint32_t kMaxRegistersPerFunction = 65536;

struct VarDecl {
  StateSpace space = StateSpace::Reg;
  std::string type;             // "b32", "u64", "f32", "pred", "b8", ...
  uint32_t vecWidth = 1;        // .v2 / .v4
  std::string name;             // for a range decl (%r<42>) the prefix "%r"
  int32_t rangeCount = -1;      // %r<42> -> 42 registers %r0 .. %r41; -1 = a single name
  uint32_t align = 0;           // .align N; 0 = natural alignment of the type
  std::vector<uint64_t> dims;   // array dimensions; a 0 entry = unsized ([]), e.g. extern shared
  std::vector<InitValue> init;  // flattened initializer, in element order
  bool isExtern = false;        // .extern
  bool isVisible = false;       // .visible
  bool isWeak = false;          // .weak / .common
  bool ptrAttr = false;         // .ptr (kernel parameter attribute)
  std::string ptrSpace;         // .ptr.global etc.: the space named
  uint32_t ptrAlign = 0;        // .ptr ... .align N
  SourceLoc loc;
  // Bytes of one element (type size x vecWidth); for "pred" 1.
  uint32_t elementBytes() const;
  // Total bytes (elementBytes x product of dims; unsized dims count as 0).
  uint64_t totalBytes() const;
};

struct Statement {
  enum class Kind { Label, Instr } kind = Kind::Instr;
  std::string label;  // Kind::Label
  Instruction instr;  // Kind::Instr
};

// A label that names a list, not a place in the code (PTX ISA 9.0, 10.2 "Branch targets and call
// targets"): `t: .branchtargets L1, L2;` (brx.idx's targets, in index order), `t: .calltargets f,
// g;` and `t: .callprototype (.param .b32 _) _ (.param .b32 _);` (what an indirect call may enter).
struct TargetList {
  enum class Kind { BranchTargets, CallTargets, CallPrototype } kind = Kind::BranchTargets;
  std::string name;
  std::vector<std::string> names;        // BranchTargets: labels; CallTargets: functions
  std::vector<VarDecl> returns, params;  // CallPrototype
  bool noreturn = false;                 // CallPrototype: .noreturn
  SourceLoc loc;                         // of the label
};

struct Function {
  bool isEntry = false;  // .entry (a kernel) vs .func
  bool isVisible = false;
  bool isExtern = false;  // .extern .func: declaration only (vprintf, ...)
  bool isWeak = false;
  bool hasBody = false;  // false for prototypes/declarations
  std::string name;
  std::vector<VarDecl> params;   // in order
  std::vector<VarDecl> returns;  // .func (.param .b32 func_retval0) name ...
  std::vector<VarDecl> locals;   // every declaration in the body; nested-scope names made
                                 // unique by the parser (see parser.h) and used so in `body`
  std::vector<Statement> body;
  std::vector<TargetList> lists;  // the body's .branchtargets / .calltargets / .callprototype
  // Performance directives (0 = absent)
  uint32_t maxntid[3] = {0, 0, 0};
  uint32_t reqntid[3] = {0, 0, 0};
  uint32_t minnctapersm = 0;
  uint32_t maxnreg = 0;
  uint32_t reqnctapercluster[3] = {0, 0, 0};  // cluster shape (__cluster_dims__)
  bool explicitCluster = false;               // .explicitcluster
  uint32_t maxclusterrank = 0;
  bool noreturn = false;
  std::vector<std::string> pragmas;  // .pragma strings, as written
  // PTX lines of the body's `.pragma "nounroll"`: in a loop's header block it keeps ptxas from
  // unrolling that loop (PTX ISA, "Pragma strings: nounroll"); 0 stands for one in the function's
  // header, which keeps every loop of the function as written. The timing model asks.
  std::vector<uint32_t> nounrollLines;
  SourceLoc loc;
};

struct Module {
  std::string path;                        // the file it came from (for diagnostics)
  std::string text;                        // the PTX text itself (diagnostics quote its lines)
  std::string version;                     // "9.0"
  std::string target;                      // "sm_90"
  std::vector<std::string> targetOptions;  // e.g. "texmode_independent", "debug"
  uint32_t addressSize = 64;
  std::map<int, std::string> files;  // .file index -> path
  std::vector<VarDecl> globals;      // module-scope .global/.const/.shared/.local variables
  std::vector<Function> functions;   // in source order (declarations included)
  // Module-scope `.pragma` strings. "nounroll" there keeps every loop of the module rolled,
  // those before it too (PTX ISA, .pragma "nounroll"): each function's nounrollLines gets 0.
  std::vector<std::string> pragmas;

  const Function* findFunction(const std::string& name) const;
  const VarDecl* findGlobal(const std::string& name) const;
  // "k.cu:12": the user's CUDA line as errors name it ("" when unknown).
  std::string cudaPlace(const CudaLoc& loc) const;
};

// The list named `name` in `fn`, or nullptr.
const TargetList* findList(const Function& fn, const std::string& name);

// Size in bytes of a PTX fundamental type name ("b32" -> 4, "f16x2" -> 4, "pred" -> 1); 0 if
// unknown.
uint32_t typeBytes(const std::string& type);

}  // namespace warpsim::ir
