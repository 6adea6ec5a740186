// Control-flow graph of one function and its immediate post-dominators: the points where a
// divergent branch's paths meet again (the SIMT reconvergence points).
#pragma once

#include <cstdint>
#include <vector>

#include "isa/program.h"

namespace warpsim::isa {

struct BasicBlock {
  uint32_t first = 0, last = 0;  // pcs, inclusive
  std::vector<uint32_t> succs;   // block indices; exitBlock() for function exit
};

struct Cfg {
  std::vector<BasicBlock> blocks;
  std::vector<uint32_t> blockOf;                                  // pc -> block index
  uint32_t exitBlock() const { return uint32_t(blocks.size()); }  // the virtual exit node
  // ipdom[b]: b's immediate post-dominator; exitBlock() when it is the function's exit, or
  // kNoPc when b cannot reach the exit (an infinite loop).
  std::vector<uint32_t> ipdom;
};

// Builds the CFG of a function's code (targets already resolved; brx.idx's in `tables`) and its
// post-dominator tree.
Cfg buildCfg(const std::vector<Inst>& code, const std::vector<TargetTable>& tables);
inline Cfg buildCfg(const FunctionCode& fn) { return buildCfg(fn.code, fn.tables); }

// Sets Inst::reconverge of every conditional branch and brx.idx: the first pc of its block's
// immediate post-dominator, or kNoPc when the paths only meet at the function's exit.
void setReconvergencePoints(FunctionCode& fn);

}  // namespace warpsim::isa
