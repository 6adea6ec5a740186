#include <initializer_list>

#include "kernels/card.h"
#include "kernels/families.h"

namespace warpsim::kernels {

const std::vector<Card>& allCards() {
  // Built once, on first use, and never changed: the order is the families' order below.
  static const std::vector<Card> all = [] {
    std::vector<Card> cards;
    for (auto family :
         {elementwiseCards, reductionCards, scanCards,    transposeCards, gemmCards, normCards,
          histogramCards,   sortCards,      stencilCards, attentionCards, lowpCards, fp64Cards,
          callsCards,       printfCards,    warpCards,    tensorCards,    tmaCards,  microCards,
          textureCards,     solverCards,    heapCards,    cdpCards}) {
      auto part = family();
      cards.insert(cards.end(), part.begin(), part.end());
    }
    // kernels/cluster (a statement of its own, so that families added beside it merge cleanly).
    const auto cluster = clusterCards();
    cards.insert(cards.end(), cluster.begin(), cluster.end());
    const auto fastmath = fastmathCards();
    cards.insert(cards.end(), fastmath.begin(), fastmath.end());
    return cards;
  }();
  return all;
}

const Card* findCard(const std::string& name) {
  for (const auto& c : allCards())
    if (c.name == name) return &c;
  return nullptr;
}

}  // namespace warpsim::kernels
