// The suite's PTX, compiled by the build from kernels/**/*.cu and embedded in the binary, so
// that a binary carried to another machine needs no nvcc and no source tree.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace warpsim::kernels {

struct EmbeddedPtx {
  std::string_view stem;  // the .cu file's stem
  std::string_view text;  // nvcc -ptx -lineinfo -arch=sm_90 output
};

const std::vector<EmbeddedPtx>& embeddedPtx();  // generated at build time
// The PTX of kernels/**/<stem>.cu; throws std::out_of_range naming the stem when absent.
std::string_view ptxFor(std::string_view stem);

}  // namespace warpsim::kernels
