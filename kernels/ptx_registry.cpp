#include "kernels/ptx_registry.h"

#include <stdexcept>
#include <string>

namespace warpsim::kernels {

std::string_view ptxFor(std::string_view stem) {
  for (const auto& p : embeddedPtx())
    if (p.stem == stem) return p.text;
  throw std::out_of_range("no suite PTX for '" + std::string(stem) + "'");
}

}  // namespace warpsim::kernels
