// A warp spinning in a pure loop while nothing else runs. While one warp steps, no other warp
// of its group runs on this host thread, so the memory its loop reads changes only if the loop
// writes it, and a loop marked isa::Inst::closesPureLoop (straight-line, registers computed from
// registers and memory reads) writes none. If such a loop's registers are the same after two
// passes in a row, every later pass starts from the same registers and memory, does the same
// and branches back again: the step may count the passes left in its slice without running
// them (cooperative_groups' grid sync: thread 0 of each CTA that arrived spins on the
// grid-sync workspace until the last CTA arrives, one thread, four instructions a pass). The
// instructions are counted as executed (Warp::instructions, which %clock reads, and the
// step's count, which the watchdog reads), so nothing the kernel or the counts show changes.
// Only an unobserved step without a schedule policy skips (an observer sees every instruction;
// a schedule's slices are its own).
#pragma once

#include <array>
#include <cstdint>
#include <cstring>

#include "isa/facts.h"
#include "sim/func/warp.h"

namespace warpsim::sim {

class SpinWatch {
 public:
  // Called after `branch` (closesPureLoop) was taken by every active lane of `w`, whose
  // step has issued `issued` instructions and may issue `left` more. Returns how many of those
  // the step may count without running them (whole passes of the loop): 0 until a pass left the
  // loop's registers as the one before. One comparison per step: a loop whose registers change
  // (a counter) is not looked at again until the warp's next step.
  uint32_t passed(const isa::Inst& branch, const Warp& w, uint32_t issued, uint32_t left) {
    if (done_) return 0;
    const Frame& f = w.frames.back();
    if (branch_ != &branch) {
      branch_ = &branch;
      issuedAt_ = issued;
      stackSize_ = w.stack.size();
      frames_ = w.frames.size();
      top_ = w.stack.back();
      save(f);
      return 0;
    }
    done_ = true;
    const uint32_t length = branch.pc - branch.target + 1;
    const SimtEntry& top = w.stack.back();
    // One pass exactly, on the same path of the same frame, to the same registers.
    if (issued - issuedAt_ != length || w.stack.size() != stackSize_ ||
        w.frames.size() != frames_ || top.pc != top_.pc || top.rpc != top_.rpc ||
        top.mask != top_.mask || !same(f))
      return 0;
    return left / length * length;
  }

 private:
  // The registers and predicates the loop's instructions write (at most kPureLoopMaxDefs).
  template <class Visit>
  void forDefs(const Frame& f, Visit&& visit) const {
    unsigned n = 0;
    for (uint32_t pc = branch_->target; pc < branch_->pc; ++pc)
      for (const isa::RegRef& d : f.fn->code[pc].defs) {
        if (d.pred)
          visit(n++, &f.preds[d.slot], sizeof(uint32_t));
        else
          visit(n++, &f.regs[size_t(d.slot) * isa::kWarpSize], sizeof(uint64_t) * isa::kWarpSize);
      }
  }
  void save(const Frame& f) {
    forDefs(f, [&](unsigned i, const void* p, size_t bytes) {
      std::memcpy(&saved_[i * isa::kWarpSize], p, bytes);
    });
  }
  bool same(const Frame& f) const {
    bool equal = true;
    forDefs(f, [&](unsigned i, const void* p, size_t bytes) {
      equal = equal && std::memcmp(&saved_[i * isa::kWarpSize], p, bytes) == 0;
    });
    return equal;
  }

  const isa::Inst* branch_ = nullptr;
  uint32_t issuedAt_ = 0;
  size_t stackSize_ = 0, frames_ = 0;
  SimtEntry top_;
  bool done_ = false;
  std::array<uint64_t, isa::kPureLoopMaxDefs * isa::kWarpSize> saved_;
};

}  // namespace warpsim::sim
