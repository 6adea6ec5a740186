#include "sim/func/grid.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <chrono>
#include <mutex>
#include <thread>

namespace warpsim::sim {

namespace {

struct CtaOutcome {
  Stats stats;
  std::string printf;
  std::optional<FaultInfo> fault;
  std::vector<WriteRecord> writes;
};

void runOne(const LaunchContext& ctx, uint64_t index, CtaOutcome& out) {
  try {
    Cta cta(ctx, index);
    try {
      cta.run();
    } catch (const KernelFault& f) {
      out.fault = f.info();
    }
    out.stats = cta.stats();
    out.printf = cta.printfOutput();
    out.writes = cta.writes();
  } catch (const KernelFault& f) {
    out.fault = f.info();
  }
  if (out.fault) ctx.stop->store(true, std::memory_order_relaxed);
}

}  // namespace

LaunchResult runGrid(LaunchContext& ctx) {
  const auto start = std::chrono::steady_clock::now();
  const uint64_t n = ctx.grid.count();
  LaunchResult result;
  // Outcomes are kept per CTA in batches so that printf text and faults come out in CTA order
  // whatever order the CTAs ran in, without holding one record per CTA of a huge grid.
  constexpr uint64_t kBatch = 4096;
  std::vector<CtaOutcome> batch;
  const unsigned threads =
      ctx.options.serial
          ? 1
          : (ctx.options.threads ? ctx.options.threads
                                 : std::max(1u, std::thread::hardware_concurrency()));
  tbb::task_arena arena{int(threads)};
  for (uint64_t first = 0; first < n && !result.fault; first += kBatch) {
    const uint64_t count = std::min(kBatch, n - first);
    batch.assign(count, CtaOutcome{});
    if (threads == 1) {
      for (uint64_t i = 0; i < count && !ctx.stop->load(); ++i) runOne(ctx, first + i, batch[i]);
    } else {
      arena.execute([&] {
        tbb::parallel_for(tbb::blocked_range<uint64_t>(0, count, 1),
                          [&](const tbb::blocked_range<uint64_t>& r) {
                            for (uint64_t i = r.begin(); i != r.end(); ++i)
                              if (!ctx.stop->load(std::memory_order_relaxed))
                                runOne(ctx, first + i, batch[i]);
                          });
      });
    }
    for (CtaOutcome& o : batch) {
      result.stats.merge(o.stats);
      result.printfOutput += o.printf;
      result.writes.insert(result.writes.end(), o.writes.begin(), o.writes.end());
      if (o.fault && !result.fault) result.fault = std::move(o.fault);
    }
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace warpsim::sim
