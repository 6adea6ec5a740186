// The functional driver over the steppable CTA: within a CTA, warps round-robin, each for a
// slice of instructions or until it blocks; CTAs in parallel on the host's cores through TBB
// (the Gpu's GridExecutor: its arena and its host threads' CTA objects are kept between
// launches), each with its own observers, merged in CTA order.
#include "sim/func/grid.h"

#include "sim/func/grid_executor.h"
#include "sim/func/group.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <thread>

namespace warpsim::sim {

namespace {

struct CtaOutcome {
  std::string printf;
  std::optional<FaultInfo> fault;
  std::vector<std::unique_ptr<Observer>> observers;  // one per factory, in factory order
  bool abandoned = false;  // stopped part-way because an earlier CTA was stopped
};

// Thrown out of a CTA that stops because an earlier CTA was stopped: it reports nothing.
struct Abandoned {};

// Between rounds of warp slices: the launch's time limit, an interrupt, an earlier CTA's stop.
void checkStop(Cta& cta, const LaunchContext& ctx) {
  cta.failIfStopped(ctx);
  if (ctx.stopAt && ctx.stopAt->load(std::memory_order_relaxed) < cta.info().linear)
    throw Abandoned{};
}

// Under a schedule (schedule.h): each round takes the ready warps in a drawn order, each for a
// drawn number of instructions.
void runWarpsScheduled(Cta& cta, const LaunchContext& ctx, CtaSchedule& schedule) {
  const uint64_t budget = watchdogBudget(ctx.options, cta.warpCount());
  uint64_t used = 0;
  checkStop(cta, ctx);
  std::vector<unsigned> order(cta.warpCount());
  for (unsigned w = 0; w < order.size(); ++w) order[w] = w;
  for (;;) {
    bool progressed = false;
    schedule.shuffle(order);
    for (unsigned w : order) {
      if (cta.warp(w).state != WarpState::Ready) continue;
      const StepResult r = cta.step(w, schedule.slice());
      progressed = true;
      used += r.issued;
      if (used > budget) cta.failBudget(used, budget);
    }
    if (cta.finished()) return;
    if (!progressed) cta.failDeadlock();
    checkStop(cta, ctx);
  }
}

void runWarpsRoundRobin(Cta& cta, const LaunchContext& ctx) {
  if (CtaSchedule* schedule = cta.schedule()) return runWarpsScheduled(cta, ctx, *schedule);
  const uint64_t budget = watchdogBudget(ctx.options, cta.warpCount());
  uint64_t used = 0;
  // Before the first round too: a CTA that ends within one round never reaches the check below,
  // and a grid of 2^31-1 such CTAs ran for hours past its time limit (found by CliFuzz).
  checkStop(cta, ctx);
  for (;;) {
    bool progressed = false;
    for (unsigned w = 0; w < cta.warpCount(); ++w) {
      if (cta.warp(w).state != WarpState::Ready) continue;
      const StepResult r = cta.step(w, ctx.options.warpSlice);
      progressed = true;
      used += r.issued;
      if (used > budget) cta.failBudget(used, budget);
    }
    if (cta.finished()) return;
    if (!progressed) cta.failDeadlock();
    checkStop(cta, ctx);
  }
}

bool stopsTheLaunch(FaultKind k) { return k == FaultKind::Watchdog || k == FaultKind::Interrupted; }

// `cta` is the host thread's CTA object, reused from one CTA (and launch) to the next.
void runOne(const LaunchContext& ctx, const std::vector<ObserverFactory*>& factories,
            uint64_t index, CtaOutcome& out, std::optional<Cta>& cta) {
  if (ctx.stopAt && ctx.stopAt->load(std::memory_order_relaxed) < index) {
    out.abandoned = true;
    return;
  }
  std::vector<Observer*> raw;
  if (!factories.empty()) {
    const CtaInfo info = ctaInfoOf(ctx, index);
    for (ObserverFactory* f : factories) {
      out.observers.push_back(f->create(info));
      raw.push_back(out.observers.back().get());
    }
  }
  ObserverList list(raw);
  Observer* observer = raw.empty() ? nullptr : raw.size() == 1 ? raw[0] : &list;
  try {
    try {
      if (cta)
        cta->restart(ctx, index, observer);
      else
        cta.emplace(ctx, index, observer);
    } catch (...) {
      cta.reset();  // a throw while starting leaves it half-made, and it is kept past the launch
      throw;
    }
    try {
      runWarpsRoundRobin(*cta, ctx);
    } catch (const KernelFault& f) {
      out.fault = f.info();
      // A CTA that does not end stops the CTAs after it, so a stuck grid ends soon.
      if (stopsTheLaunch(f.info().kind) && ctx.stopAt) {
        uint64_t seen = ctx.stopAt->load();
        while (index < seen && !ctx.stopAt->compare_exchange_weak(seen, index)) {
        }
      }
    } catch (const Abandoned&) {
      out.abandoned = true;
    }
    out.printf = cta->printfOutput();
  } catch (const KernelFault& f) {
    out.fault = f.info();
  }
  if (observer) observer->ctaFinished(out.fault ? &*out.fault : nullptr);
}

}  // namespace

void Cta::failIfStopped(const LaunchContext& ctx) {
  if (ctx.options.interrupt && ctx.options.interrupt->load(std::memory_order_relaxed))
    failStuck(FaultKind::Interrupted, "interrupted (Ctrl-C) while the kernel ran");
  if (std::chrono::steady_clock::now() > ctx.deadline) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", ctx.options.timeLimit);
    failStuck(FaultKind::Watchdog, std::string("the launch ran past its time limit of ") + limit +
                                       " s of wall time (raise it with --time-limit; 0 = none)");
  }
}

unsigned launchHostThreads(const LaunchContext& ctx, uint64_t ctasTogether) {
  if (ctx.options.serial || ctx.heap || ctx.launches) return 1;
  const unsigned threads =
      ctx.options.threads ? ctx.options.threads : std::max(1u, std::thread::hardware_concurrency());
  const uint64_t localTogether =
      uint64_t(ctx.program->localBytesPerThread) * ctx.block.count() * ctasTogether;
  if (!localTogether || !ctx.memory) return threads;
  return unsigned(std::clamp<uint64_t>(ctx.memory->capacity() / localTogether, 1, threads));
}

LaunchResult runGrid(LaunchContext& ctx, const std::vector<ObserverFactory*>& factories) {
  // Clusters and cooperative launches: CTAs that wait for one another run together (group.h).
  if (needsGroups(ctx)) return runGroups(ctx, factories);
  const auto start = std::chrono::steady_clock::now();
  const uint64_t n = ctx.grid.count();
  LaunchResult result;
  // Outcomes are kept per CTA in batches so that printf text, faults and observers come out in
  // CTA order whatever order the CTAs ran in, without holding one record per CTA of a huge grid.
  constexpr uint64_t kBatch = 4096;
  std::vector<CtaOutcome> batch;
  const unsigned threads = launchHostThreads(ctx, 1);
  // The host threads and their CTA objects: the Gpu's, kept across its launches, else this
  // launch's own.
  std::optional<GridExecutor> own;
  GridExecutor& executor = ctx.executor ? *ctx.executor : own.emplace();
  for (uint64_t first = 0; first < n && !result.fault; first += kBatch) {
    const uint64_t count = std::min(kBatch, n - first);
    batch.clear();
    batch.resize(count);
    // Every CTA of a batch runs, even after one of them faults, and no later batch starts: the
    // CTAs that ran, and so the memory, printf text and statistics after a fault, are the same
    // on any number of host threads.
    if (ctx.options.schedule) {  // one at a time, in the schedule's order
      for (uint64_t index : ctaOrder(*ctx.options.schedule, first, count))
        runOne(ctx, factories, index, batch[index - first], executor.cta(0));
    } else {
      executor.parallelFor(threads, count, [&](uint64_t i, unsigned slot) {
        runOne(ctx, factories, first + i, batch[i], executor.cta(slot));
      });
    }
    result.ctasRun = first + count;
    for (uint64_t i = 0; i < count; ++i) {
      CtaOutcome& o = batch[i];
      // After a stop, the CTAs after the stopped one ran in part (or not at all): their
      // observers and printf text would depend on timing, so they are left out.
      if (o.abandoned || (result.fault && stopsTheLaunch(result.fault->kind))) {
        result.ctasRun = std::min(result.ctasRun, first + i);
        continue;
      }
      for (size_t f = 0; f < o.observers.size(); ++f) factories[f]->merge(*o.observers[f]);
      result.printfOutput += o.printf;
      if (o.fault && !result.fault) {
        result.fault = std::move(o.fault);
        if (stopsTheLaunch(result.fault->kind)) result.ctasRun = first + i + 1;
      }
    }
  }
  executor.trim();
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace warpsim::sim
