// The instruction families: one function per file of isa/insns/, each returning its specs.
// instructionTable() concatenates them; nothing else lists opcodes.
#pragma once

#include <vector>

#include "isa/exec.h"
#include "isa/insn_table.h"

namespace warpsim::isa::insns {

std::vector<OpcodeSpec> intArithmetic();    // int_arith.cpp
std::vector<OpcodeSpec> intLogic();         // int_logic.cpp: and or xor not lop3 shifts bits
std::vector<OpcodeSpec> compare();          // compare.cpp: setp selp set slct
std::vector<OpcodeSpec> floatArithmetic();  // float_arith.cpp: f32/f64 IEEE ops
std::vector<OpcodeSpec> floatSpecial();     // float_sfu.cpp: ex2 lg2 sin cos tanh rsqrt approx
std::vector<OpcodeSpec> halfArithmetic();   // half_arith.cpp: f16 f16x2 bf16 bf16x2
std::vector<OpcodeSpec> conversion();       // convert.cpp: cvt cvt.pack
std::vector<OpcodeSpec> movement();         // move.cpp: mov
std::vector<OpcodeSpec> memory();           // memory.cpp: ld st ldu prefetch cvta isspacep
std::vector<OpcodeSpec> atomics();          // atomic.cpp: atom red
std::vector<OpcodeSpec> control();          // control.cpp: bra call ret exit trap nanosleep
std::vector<OpcodeSpec> synchronization();  // sync.cpp: bar barrier membar fence
std::vector<OpcodeSpec> warpLevel();        // warp.cpp: shfl vote match redux activemask
std::vector<OpcodeSpec> video();      // video.cpp: vadd vsub vabsdiff vmin vmax vshl vshr vmad vset
std::vector<OpcodeSpec> videoSimd();  // video_simd.cpp: vadd2/4 ... vset2/4
std::vector<OpcodeSpec> asyncCopy();  // async_copy.cpp: cp.async, commit/wait groups
std::vector<OpcodeSpec> mbarrierFamily();   // mbarrier.cpp: mbarrier.*
std::vector<OpcodeSpec> tensorMapFamily();  // tensor_map_replace.cpp: tensormap.replace
std::vector<OpcodeSpec> matrixMove();       // matrix_move.cpp: ldmatrix stmatrix movmatrix
std::vector<OpcodeSpec> matrixMultiply();   // mma.cpp: mma.sync
std::vector<OpcodeSpec> launchControl();    // launch_control.cpp: griddepcontrol setmaxnreg
std::vector<OpcodeSpec> texture();          // texture.cpp: tex tld4 txq suld sust suq
std::vector<OpcodeSpec> wmmaFamily();       // wmma.cpp: wmma.load wmma.store wmma.mma
std::vector<OpcodeSpec> wgmmaFamily();      // wgmma.cpp: wgmma.mma_async fence commit/wait
std::vector<OpcodeSpec> unsupported();      // unsupported.cpp: parsed, not executed yet
std::vector<OpcodeSpec> clusterFamily();    // cluster.cpp: mapa getctarank

// Binds a call whose callee has no body (control.cpp): vprintf is a built-in; any other
// external function faults with "not supported yet" when executed.
std::string bindExternalCall(Inst& in, const std::string& callee);
// The handler of a mul fused into an add/sub by the contraction pass (float_contract.cpp):
// d = (+-a) * b + (+-c) rounded once, for .f32 (with the pair's .ftz and the add's .sat) and
// .f64, and (half_arith.cpp) .f16 .f16x2 (.ftz, .sat) .bf16 .bf16x2; nullptr for other types
// or modifiers.
Handler fusedMultiplyAdd(Type type, bool ftz, bool sat, bool negProduct, bool negAddend);
Handler fusedMultiplyAddHalf(Type type, bool ftz, bool sat, bool negProduct, bool negAddend);
// div.approx.f32 / div.full.f32 fused with the add/sub of its quotient: operands d, a, b, c.
Handler fusedDivideAdd(bool full, bool ftz, bool sat, bool negProduct, bool negAddend);
// barrier.cluster.arrive / .wait (cluster.cpp), reached through bar/barrier's binder.
std::string bindClusterBarrier(Inst& in);
// Binds the bulk forms of `cp` (cp.async.bulk{.tensor}, their commit/wait, prefetch:
// bulk_copy.cpp); async_copy.cpp's binder hands them over.
std::string bindBulkCopy(Inst& in);
// The handler of instructions that are parsed but not executed yet (unsupported.cpp).
void notSupportedHandler(Exec& x, const Inst& in);
// Whether a bound handler faults "not supported yet" whenever it runs: notSupportedHandler, a
// call to an external function warpsim does not provide (control.cpp), a 16-byte atomic
// (atomic.cpp). What `warpsim support` finds without running a kernel (isa/support.h).
bool reportsNotSupported(Handler h);
bool isExternalCallStub(Handler h);  // control.cpp
bool isAtom128Stub(Handler h);       // atomic.cpp

// One element of atom/red's read-modify-write (atomic.cpp's table, the only one): the function
// for global memory and the one for shared memory (they differ where the H200's two atomic units
// round differently: f32 and f64 add), and the element's size in bytes. Null functions where
// atom/red has no such pair. cp.reduce.async.bulk (bulk_reduce.cpp) reduces with these.
struct AtomElement {
  AtomFn global = nullptr, shared = nullptr;
  unsigned bytes = 0;
};
AtomElement atomElement(AtomOp op, Type t);
// Binds cp.reduce.async.bulk{.tensor} (bulk_reduce.cpp); async_copy.cpp's binder hands it over.
std::string bindBulkReduce(Inst& in);

}  // namespace warpsim::isa::insns
