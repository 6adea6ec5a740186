// One function per kernel family, each returning that family's cards; registry.cpp joins them.
#pragma once

#include <vector>

#include "kernels/card.h"

namespace warpsim::kernels {

std::vector<Card> elementwiseCards();
std::vector<Card> reductionCards();
std::vector<Card> scanCards();
std::vector<Card> transposeCards();
std::vector<Card> gemmCards();
std::vector<Card> normCards();
std::vector<Card> histogramCards();
std::vector<Card> sortCards();
std::vector<Card> stencilCards();
std::vector<Card> attentionCards();
std::vector<Card> lowpCards();
std::vector<Card> fp64Cards();
std::vector<Card> callsCards();
std::vector<Card> printfCards();
std::vector<Card> warpCards();
std::vector<Card> tensorCards();  // kernels/tensor: cp.async, ldmatrix, mma.sync
std::vector<Card> tmaCards();     // kernels/tensor: TMA (cp.async.bulk.tensor, mbarrier)
std::vector<Card> microCards();
std::vector<Card> textureCards();   // kernels/texture: texture objects (bilinear resize)
std::vector<Card> solverCards();    // kernels/solver: Gaussian elimination (fma contraction)
std::vector<Card> heapCards();      // kernels/heap: device-side malloc and free
std::vector<Card> cdpCards();       // kernels/cdp: dynamic parallelism (nvcc -rdc=true)
std::vector<Card> clusterCards();   // kernels/cluster: clusters (DSMEM), cooperative grid sync
std::vector<Card> fastmathCards();  // kernels/fastmath: --use_fast_math, rsqrtf (bit-exact SFU)

}  // namespace warpsim::kernels
