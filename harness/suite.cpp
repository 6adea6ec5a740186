#include "harness/suite.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "kernels/ptx_registry.h"

namespace warpsim::harness {

void loadCard(Backend& backend, const kernels::Card& card) {
  backend.loadModule(std::string(kernels::ptxFor(card.source)),
                     "kernels/" + card.family + "/" + card.source + ".ptx");
}

CardResult runCard(Backend& backend, const kernels::Card& card, uint64_t size, uint64_t seed) {
  loadCard(backend, card);
  return runLoadedCard(backend, card, size, seed);
}

CardResult runLoadedCard(Backend& backend, const kernels::Card& card, uint64_t size,
                         uint64_t seed) {
  CardResult r;
  r.card = &card;
  r.size = size ? size : card.defaultSize;
  r.seed = seed;
  kernels::Problem problem = card.make(r.size, seed);
  for (const auto& l : problem.launches) r.threads += l.grid.count() * l.block.count();
  r.run = runProblem(backend, problem);
  card.reference(problem);  // the expected contents
  r.comparison = compareOutputs(problem.buffers, r.run.buffers, card.tolerance.maxUlp);
  return r;
}

CardResult runCardOnSim(const kernels::Card& card, uint64_t size, uint64_t seed,
                        const sim::LaunchOptions& options, const sim::timing::TimingConfig* timing,
                        const std::function<void()>& whileLoaded) {
  auto backend = timing ? makeTimedSimBackend(*timing, options) : makeSimBackend(options);
  CardResult r = runCard(*backend, card, size, seed);
  if (whileLoaded) whileLoaded();
  return r;
}

std::string cardSizeError(const kernels::Card& card, uint64_t size, uint64_t memoryLimit) {
  const std::string what = "size " + std::to_string(size) + " of '" + card.name + "'";
  if (size == 0) return {};
  if (size < card.minSize) return what + " takes sizes from " + std::to_string(card.minSize);
  if (!card.handles(size))
    return what + " is more than its kernel handles (sizes up to " +
           std::to_string(card.largestSize) + ")";
  const uint64_t big = card.defaultSize;
  if (size <= big) return {};
  auto bytesAt = [&](uint64_t s) {
    double bytes = 0;
    for (const kernels::HostBuffer& b : card.make(s, 1).buffers) bytes += double(b.bytes.size());
    return bytes;
  };
  const uint64_t small = std::max<uint64_t>(card.minSize, big / 2);
  const double b2 = bytesAt(big), b1 = small < big ? bytesAt(small) : b2;
  double power = 1;
  if (small < big && b1 > 0 && b2 > b1)
    power = std::max(1.0, std::round(std::log(b2 / b1) / std::log(double(big) / double(small))));
  const double estimate = b2 * std::pow(double(size) / double(big), power);
  if (estimate <= double(memoryLimit)) return {};
  char text[64];
  std::snprintf(text, sizeof text, "%.3g", estimate);
  return what + " would need about " + text + " bytes of buffers (they grow as size" +
         (power > 1 ? "^" + std::to_string(int(power)) : std::string()) + "), more than the " +
         std::to_string(memoryLimit) + " bytes of device memory";
}

bool cardMatches(const std::string& name, const std::string& pattern) {
  if (pattern.empty()) return true;
  for (size_t from = 0;;) {
    const size_t comma = pattern.find(',', from);
    const std::string part = pattern.substr(from, comma - from);
    if (!part.empty() && name.find(part) != std::string::npos) return true;
    if (comma == std::string::npos) return false;
    from = comma + 1;
  }
}

std::vector<const kernels::Card*> selectCards(const std::string& pattern) {
  std::vector<const kernels::Card*> out;
  for (const kernels::Card& c : kernels::allCards())
    if (cardMatches(c.name, pattern)) out.push_back(&c);
  return out;
}

}  // namespace warpsim::harness
