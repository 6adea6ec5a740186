// Launch-invariant instructions: those whose value in a lane is the same in every CTA of a
// launch, so that a frame that keeps its registers from the previous CTA on its host thread
// (sim/func/warp.h) already holds it. They are: ld.param of a kernel parameter, mov of an
// immediate or of a special that only the thread's place in its block gives (%tid, %ntid, ...),
// and cvta to or from .global or .const of such a value, in a kernel (not a device function);
// each writes a register that no other instruction of the kernel writes and that the frame never
// zeroes at its entry (FunctionCode::zeroAtEntry). The CTA keeps, per warp, the lanes that have
// written each one's value since the kernel, its parameters and the block shape were last what
// they are (Warp::invariantLanes), and does not run one again whose executing lanes all have; it
// still counts it, and a warp that an observer watches runs every one.
#pragma once

#include "isa/program.h"

namespace warpsim::isa {

// Numbers `fn`'s launch-invariant instructions in program order (Inst::invariant, at most
// kNoInvariant of them) and sets FunctionCode::numInvariants.
void markLaunchInvariants(FunctionCode& fn);

}  // namespace warpsim::isa
