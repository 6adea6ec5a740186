// Which bytes of a function's per-lane .param area (its parameters, return values and call-site
// .param variables) a frame must start with zeroed: those that some path may read before it
// writes them. A .param variable reads as zero until written, and a frame's storage is recycled
// from earlier calls (sim/func/warp.h), so every other byte may hold anything at entry.
//
// A forward must-be-written analysis over the CFG, per thread (a lane's .param bytes are its
// own): the parameters count as written at entry (the call copies them; a call with fewer
// arguments zeroes the rest itself, Cta::enterCall); st.param at a fixed address and a call's
// return values write (unguarded only: lanes whose guard is false keep the old bytes); ld.param
// at a fixed address, a call's arguments and ret's return values read. A function whose .param
// bytes anything else may reach (a .param address taken into a register, a .param or generic
// access through a register, an indirect or external call, which reads the caller's .param area
// through the machine) is left to zero everything, as before.
#pragma once

#include "isa/program.h"

namespace warpsim::isa {

// Sets FunctionCode::paramZeroKnown and paramZeroRanges of every function of `p` (after all of
// them are lowered: a call's copies are its callee's parameter and return sizes).
void setParamZeroing(Program& p);

}  // namespace warpsim::isa
