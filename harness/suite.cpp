#include "harness/suite.h"

#include "kernels/ptx_registry.h"

namespace warpsim::harness {

CardResult runCard(Backend& backend, const kernels::Card& card, uint64_t size, uint64_t seed) {
  CardResult r;
  r.card = &card;
  r.size = size ? size : card.defaultSize;
  r.seed = seed;
  backend.loadModule(std::string(kernels::ptxFor(card.source)),
                     "kernels/" + card.family + "/" + card.source + ".ptx");
  kernels::Problem problem = card.make(r.size, seed);
  for (const auto& l : problem.launches) r.threads += l.grid.count() * l.block.count();
  r.run = runProblem(backend, problem);
  card.reference(problem);  // the expected contents
  r.comparison = compareOutputs(problem.buffers, r.run.buffers, card.tolerance.maxUlp);
  return r;
}

CardResult runCardOnSim(const kernels::Card& card, uint64_t size, uint64_t seed,
                        const sim::LaunchOptions& options,
                        const sim::timing::TimingConfig* timing) {
  auto backend = timing ? makeTimedSimBackend(*timing, options) : makeSimBackend(options);
  return runCard(*backend, card, size, seed);
}

std::vector<const kernels::Card*> selectCards(const std::string& pattern) {
  std::vector<const kernels::Card*> out;
  for (const kernels::Card& c : kernels::allCards())
    if (pattern.empty() || c.name.find(pattern) != std::string::npos) out.push_back(&c);
  return out;
}

}  // namespace warpsim::harness
