// Launch-invariant instructions: those whose value in a lane is the same in every CTA of a
// launch, so that a frame that keeps its registers from the previous CTA on its host thread
// (sim/func/warp.h) already holds it. They are: ld.param of a kernel parameter, mov of an
// immediate or of a special that only the thread's place in its block gives (%tid, %ntid, ...),
// and cvta to or from .global or .const of such a value; each writes a register that no other
// instruction of the function writes and that the frame never zeroes at its entry
// (FunctionCode::zeroAtEntry). The machine keeps, per frame, the lanes that have written each
// one's value since the launch's parameters and block shape were last what they are
// (Exec::invariantLanes); an instruction all of whose executing lanes have is not run again.
// Its count, its statistics and its observers are the same: an observed warp runs every one.
#pragma once

#include "isa/exec.h"
#include "isa/program.h"

namespace warpsim::isa {

// Numbers `fn`'s launch-invariant instructions (Inst::invariant, FunctionCode::numInvariants)
// and binds each to launchInvariantH, its own handler kept in Inst::invariantRun.
void markLaunchInvariants(FunctionCode& fn);

// The handler of a launch-invariant instruction: its own handler for the lanes in x.mask unless
// every one of them has written its value in this frame (x.invariantLanes; null: run it).
void launchInvariantH(Exec& x, const Inst& in);

}  // namespace warpsim::isa
