// The contraction pass with the function's labels (isa/contract.h): `labelled[pc]` says whether
// a label precedes instruction pc. ptxas ends a block at every label, a branch target or not,
// while the CFG splits only at targets; lowering, which knows the labels, calls this form.
#pragma once

#include <vector>

#include "isa/contract.h"

namespace warpsim::isa {

size_t contractMultiplyAdds(FunctionCode& fn, const std::vector<Fusion>& fusion,
                            const std::vector<bool>& labelled);

}  // namespace warpsim::isa
