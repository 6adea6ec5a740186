// The co-scheduled group driver (group.h): a group's CTAs started together and stepped
// round-robin on one host thread; groups in parallel through TBB.
#include "sim/func/group.h"

#include "sim/func/grid.h"
#include "sim/func/grid_executor.h"

#include <algorithm>
#include <memory>
#include <optional>

namespace warpsim::sim {

namespace {

struct Outcome {
  std::string printf;
  std::optional<FaultInfo> fault;
  std::vector<std::unique_ptr<Observer>> observers;  // one per factory, in factory order
  std::unique_ptr<ObserverList> list;
  bool abandoned = false;  // stopped part-way because an earlier group was stopped
};

struct Abandoned {};

// A host thread's CTA objects and clusters, reused from one group to the next.
struct GroupSlot {
  std::vector<std::unique_ptr<Cta>> ctas;
  std::vector<Cluster> clusters;
};

bool stopsTheLaunch(FaultKind k) { return k == FaultKind::Watchdog || k == FaultKind::Interrupted; }

// The shape of the launch's groups: CTAs per cluster, clusters per group, how many groups.
struct Layout {
  Dim3 clusters;  // the grid in clusters
  uint64_t clusterSize = 1, clustersPerGroup = 1, groups = 0;
  uint64_t groupSize() const { return clusterSize * clustersPerGroup; }
};

Layout layoutOf(const LaunchContext& ctx) {
  Layout l;
  l.clusters = {ctx.grid.x / ctx.cluster.x, ctx.grid.y / ctx.cluster.y, ctx.grid.z / ctx.cluster.z};
  l.clusterSize = ctx.cluster.count();
  l.clustersPerGroup = ctx.cooperative ? l.clusters.count() : 1;
  l.groups = l.clusters.count() / l.clustersPerGroup;
  return l;
}

// The linear index of the CTA at position `p` (cluster order, then rank) of the launch.
uint64_t ctaAt(const LaunchContext& ctx, const Layout& l, uint64_t p) {
  return ctaOfCluster(ctx, p / l.clusterSize, p % l.clusterSize);
}

std::string place(const CtaInfo& i) {
  return "(" + std::to_string(i.id.x) + "," + std::to_string(i.id.y) + "," +
         std::to_string(i.id.z) + ")";
}

// Runs group `g`: its outcomes go to out[0 .. groupSize).
void runGroup(const LaunchContext& ctx, const std::vector<ObserverFactory*>& factories,
              const Layout& l, uint64_t g, Outcome* out, GroupSlot& slot) {
  const size_t n = size_t(l.groupSize());
  const uint64_t first = g * n;  // the group's first position
  if (ctx.stopAt && ctx.stopAt->load(std::memory_order_relaxed) < first) {
    for (size_t i = 0; i < n; ++i) out[i].abandoned = true;
    return;
  }
  if (slot.ctas.size() < n) slot.ctas.resize(n);
  std::vector<Observer*> observers(n, nullptr);
  std::vector<bool> started(n, false);
  bool startFailed = false;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t index = ctaAt(ctx, l, first + i);
    if (!factories.empty()) {
      std::vector<Observer*> raw;
      const CtaInfo info = ctaInfoOf(ctx, index);
      for (ObserverFactory* f : factories) {
        out[i].observers.push_back(f->create(info));
        raw.push_back(out[i].observers.back().get());
      }
      if (raw.size() == 1) {
        observers[i] = raw[0];
      } else {
        out[i].list = std::make_unique<ObserverList>(raw);
        observers[i] = out[i].list.get();
      }
    }
    try {
      if (slot.ctas[i])
        slot.ctas[i]->restart(index, observers[i]);
      else
        slot.ctas[i] = std::make_unique<Cta>(ctx, index, observers[i]);
      started[i] = true;
    } catch (const KernelFault& f) {
      out[i].fault = f.info();
      slot.ctas[i].reset();  // a fault while starting leaves it half-made
      startFailed = true;
      break;
    }
  }
  std::vector<Cta*> ctas(n);
  for (size_t i = 0; i < n; ++i) ctas[i] = slot.ctas[i].get();
  if (!startFailed) {
    slot.clusters.resize(l.clustersPerGroup);
    for (uint64_t c = 0; c < l.clustersPerGroup; ++c) {
      std::vector<Cta*> members(ctas.begin() + c * l.clusterSize,
                                ctas.begin() + (c + 1) * l.clusterSize);
      slot.clusters[c].reset(members);
      for (Cta* m : members) m->joinCluster(slot.clusters[c]);
    }
    size_t current = 0;
    auto checkStop = [&](size_t i) {
      current = i;
      ctas[i]->failIfStopped(ctx);
      if (ctx.stopAt && ctx.stopAt->load(std::memory_order_relaxed) < first + i) throw Abandoned{};
    };
    try {
      const uint64_t budget = watchdogBudget(ctx.options, ctas[0]->warpCount());
      std::vector<uint64_t> used(n, 0);
      for (size_t i = 0; i < n; ++i) checkStop(i);
      for (;;) {
        bool progressed = false;
        for (size_t i = 0; i < n; ++i) {
          Cta& c = *ctas[i];
          current = i;
          for (unsigned w = 0; w < c.warpCount(); ++w) {
            if (c.warp(w).state != WarpState::Ready) continue;
            const StepResult r = c.step(w, ctx.options.warpSlice);
            progressed = true;
            used[i] += r.issued;
            if (used[i] > budget) c.failBudget(used[i], budget);
          }
        }
        size_t live = n;
        for (size_t i = 0; i < n && live == n; ++i)
          if (!ctas[i]->finished()) live = i;
        if (live == n) break;
        if (!progressed) {
          current = live;
          failGroupDeadlock(ctas, ctx.cooperative);
        }
        for (size_t i = 0; i < n; ++i)
          if (!ctas[i]->finished()) checkStop(i);
      }
    } catch (const KernelFault& f) {
      // On the chip a fault ends the whole grid: the group's other CTAs stop where they are.
      out[current].fault = f.info();
      if (stopsTheLaunch(f.info().kind) && ctx.stopAt) {
        uint64_t seen = ctx.stopAt->load();
        while (first + current < seen &&
               !ctx.stopAt->compare_exchange_weak(seen, first + current)) {
        }
      }
    } catch (const Abandoned&) {
      for (size_t i = 0; i < n; ++i) out[i].abandoned = true;
    }
  }
  for (size_t i = 0; i < n; ++i) {
    if (started[i]) out[i].printf = ctas[i]->printfOutput();
    if (observers[i] && (started[i] || out[i].fault))
      observers[i]->ctaFinished(out[i].fault ? &*out[i].fault : nullptr);
  }
}

}  // namespace

uint64_t ctaOfCluster(const LaunchContext& ctx, uint64_t cluster, uint64_t rank) {
  const Dim3 clusters{ctx.grid.x / ctx.cluster.x, ctx.grid.y / ctx.cluster.y,
                      ctx.grid.z / ctx.cluster.z};
  const ThreadPos c = positionIn(clusters, cluster);
  const ThreadPos r = positionIn(ctx.cluster, rank);
  const uint64_t x = uint64_t(c.x) * ctx.cluster.x + r.x, y = uint64_t(c.y) * ctx.cluster.y + r.y,
                 z = uint64_t(c.z) * ctx.cluster.z + r.z;
  return x + ctx.grid.x * (y + uint64_t(ctx.grid.y) * z);
}

void failGroupDeadlock(const std::vector<Cta*>& members, bool cooperative) {
  std::string details;
  Cta* first = nullptr;
  for (Cta* c : members) {
    if (c->finished()) continue;
    details += "CTA " + place(c->info()) + " (cluster rank " + std::to_string(c->clusterRank()) +
               "):\n" + c->waitReport() + "\n";
    if (!first) first = c;
  }
  details.pop_back();
  first->failGroupDeadlock(std::string("every warp of the ") +
                               (cooperative ? "cooperative grid's " : "cluster's ") +
                               std::to_string(members.size()) +
                               " CTAs waits at a barrier that cannot complete (some threads "
                               "never arrive)",
                           details);
}

bool needsGroups(const LaunchContext& ctx) { return ctx.cooperative || ctx.cluster.count() > 1; }

LaunchResult runGroups(LaunchContext& ctx, const std::vector<ObserverFactory*>& factories) {
  const auto start = std::chrono::steady_clock::now();
  const Layout l = layoutOf(ctx);
  const uint64_t n = l.groupSize();
  LaunchResult result;
  // Outcomes are kept per batch of groups, as runGrid keeps them per batch of CTAs.
  const uint64_t perBatch = std::max<uint64_t>(1, 4096 / n);
  std::vector<Outcome> batch;
  const unsigned threads = launchHostThreads(ctx, n);
  // The host threads: the Gpu's (runGrid's), else this launch's own.
  std::optional<GridExecutor> own;
  GridExecutor& executor = ctx.executor ? *ctx.executor : own.emplace();
  std::vector<GroupSlot> slots(threads);  // by the executor's slot: one per host thread
  for (uint64_t firstGroup = 0; firstGroup < l.groups && !result.fault; firstGroup += perBatch) {
    const uint64_t count = std::min(perBatch, l.groups - firstGroup);
    batch.clear();
    batch.resize(count * n);
    executor.parallelFor(threads, count, [&](uint64_t k, unsigned slot) {
      runGroup(ctx, factories, l, firstGroup + k, &batch[k * n], slots[slot]);
    });
    const uint64_t first = firstGroup * n;
    result.ctasRun = first + count * n;
    for (uint64_t i = 0; i < count * n; ++i) {
      Outcome& o = batch[i];
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
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace warpsim::sim
