// Runs suite kernels (by card) through a backend and checks them against their CPU
// references with the card's tolerance.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/backend.h"
#include "harness/compare.h"
#include "harness/run_problem.h"
#include "kernels/card.h"

namespace warpsim::harness {

struct CardResult {
  const kernels::Card* card = nullptr;
  uint64_t size = 0, seed = 0;
  uint64_t threads = 0;  // threads launched (all launches)
  ProblemRun run;
  Comparison comparison;
  bool passed() const { return !run.fault && comparison.ok(); }
};

// Runs `card` at `size` (0 = its default) with inputs from `seed` on the simulator.
// With `timing`, on the timing model (CardResult::run.timings: one prediction per launch).
// `whileLoaded` runs after the last launch, while the card's module is still loaded: what
// observers must finish there (the checkers judge cross-CTA races against its instructions).
CardResult runCardOnSim(const kernels::Card& card, uint64_t size, uint64_t seed,
                        const sim::LaunchOptions& options = {},
                        const sim::timing::TimingConfig* timing = nullptr,
                        const std::function<void()>& whileLoaded = {});
// Runs `card` on any backend (the backend gets the card's module loaded first).
CardResult runCard(Backend& backend, const kernels::Card& card, uint64_t size, uint64_t seed);
// runCard in two steps, for a card run many times on one backend as a program's repeated
// launches run in one context (bench's repeats): load its module once, then run it.
void loadCard(Backend& backend, const kernels::Card& card);
CardResult runLoadedCard(Backend& backend, const kernels::Card& card, uint64_t size, uint64_t seed);

// Why `size` does not suit `card` ("" when it does; 0 is the card's default): below the card's
// smallest size, or buffers that would not fit `memoryLimit` bytes of device memory. The bytes
// are extrapolated from the card made at its default size and at half of it (buffers grow as a
// power of the size: n for vectors, n^2 for matrices), so nothing of the asked size is made to
// find out: a size that does not fit is refused before any host memory is taken.
std::string cardSizeError(const kernels::Card& card, uint64_t size,
                          uint64_t memoryLimit = sim::kDefaultDeviceMemoryBytes);

// Whether a card's `name` matches `pattern`: a comma-separated list of substrings, any of
// which the name contains (every name matches an empty pattern).
bool cardMatches(const std::string& name, const std::string& pattern);
// Cards whose name matches `pattern` (cardMatches), in suite order.
std::vector<const kernels::Card*> selectCards(const std::string& pattern);

}  // namespace warpsim::harness
