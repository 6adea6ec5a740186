#include "sim/func/grid_executor.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <deque>
#include <map>

#include "sim/func/cta.h"

namespace warpsim::sim {

namespace {

// A kept CTA may hold its threads' .local memory (up to 512 KiB a thread); past this it is freed
// when the launch ends rather than held until the next one.
constexpr uint64_t kKeptLocalBytes = uint64_t(4) << 20;

// Each host thread's CTA on cache lines of its own: the two threads write their CTAs' fields
// all the time.
struct alignas(64) Slot {
  std::optional<Cta> cta;
};

}  // namespace

struct GridExecutor::State {
  std::map<unsigned, std::unique_ptr<tbb::task_arena>> arenas;  // by thread count
  std::deque<Slot> slots;  // a deque: growing it moves no CTA (a CTA points into itself)
};

GridExecutor::GridExecutor() : state_(std::make_unique<State>()) { state_->slots.resize(1); }
GridExecutor::~GridExecutor() = default;

std::optional<Cta>& GridExecutor::cta(unsigned slot) { return state_->slots[slot].cta; }

void GridExecutor::parallelFor(unsigned threads, uint64_t count,
                               const std::function<void(uint64_t, unsigned)>& body) {
  if (state_->slots.size() < std::max(threads, 1u)) state_->slots.resize(std::max(threads, 1u));
  // One CTA, or one thread: the calling thread runs them, and no worker is woken for nothing.
  if (threads <= 1 || count <= 1) {
    for (uint64_t i = 0; i < count; ++i) body(i, 0);
    return;
  }
  // Each host thread takes the next index not taken yet, one at a time, until none is left. A
  // worker that wakes late (or cold: a CTA object to build) takes what is left when it comes,
  // and the calling thread never waits for one that has not started an index: a launch of
  // little work ends when the calling thread has done it, as on one thread. (parallel_for over
  // halves of the range handed the second half to the worker when it came, and the calling
  // thread then waited for it.)
  std::atomic<uint64_t> next{0};
  const auto run = [&] {
    tbb::parallel_for(
        tbb::blocked_range<unsigned>(0, threads, 1),
        [&](const tbb::blocked_range<unsigned>&) {
          const auto slot = unsigned(tbb::this_task_arena::current_thread_index());
          for (uint64_t i = next.fetch_add(1, std::memory_order_relaxed); i < count;
               i = next.fetch_add(1, std::memory_order_relaxed)) {
            try {
              body(i, slot);
            } catch (...) {
              next.store(count);  // the others take no more: the launch ends with the throw
              throw;
            }
          }
        },
        tbb::simple_partitioner());
  };
  // As many threads as the calling thread's own arena has (every core, the usual case): that
  // arena, which TBB keeps for the thread, so that even the first launch of a Gpu starts none.
  if (int(threads) == tbb::this_task_arena::max_concurrency()) return run();
  std::unique_ptr<tbb::task_arena>& arena = state_->arenas[threads];
  if (!arena) arena = std::make_unique<tbb::task_arena>(int(threads));
  arena->execute(run);
}

void GridExecutor::trim() {
  for (Slot& s : state_->slots)
    if (s.cta) s.cta->trim(kKeptLocalBytes);
}

}  // namespace warpsim::sim
