#include "sim/check/cta_view.h"

namespace warpsim::check {

const char* cudaSpaceName(isa::Space s) {
  switch (s) {
    case isa::Space::Shared:
    case isa::Space::SharedCluster:
      return "__shared__";
    case isa::Space::Local:
      return "__local__";
    case isa::Space::Const:
      return "__constant__";
    case isa::Space::Param:
      return "__param__";
    default:
      return "__global__";
  }
}

std::string CtaView::kernel() const {
  return info_.program && info_.entry ? info_.entry->name : std::string();
}

}  // namespace warpsim::check
