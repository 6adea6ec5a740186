// generateProgram: the launch geometry, then the random body: operations drawn by weight from
// the enabled families, some under guard predicates, some inside divergent if/else regions
// (lane- or data-dependent branch conditions, nested up to two deep, reconverging before any
// warp primitive or barrier, which only the converged top level draws).
#include <algorithm>

#include "harness/ptxgen/ops.h"

namespace warpsim::ptxgen {

const std::vector<Op>& allOps() {
  static const std::vector<Op> ops = [] {
    std::vector<Op> all;
    for (auto part : {intOps, logicOps, compareOps, floatOps, halfOps, convertOps, moveOps, warpOps,
                      memoryOps, videoOps}) {
      const std::vector<Op> p = part();
      all.insert(all.end(), p.begin(), p.end());
    }
    return all;
  }();
  return ops;
}

namespace {

bool enabled(const Op& op, const GenOptions& o) {
  if ((op.flags & kApprox) && !o.approx) return false;
  if ((op.flags & kWarp) && !o.warp) return false;
  if ((op.flags & kShared) && !o.shared) return false;
  if ((op.flags & kFp8) && !o.fp8) return false;
  if ((op.flags & kVideo) && !o.video) return false;
  if ((op.flags & kContract) && !o.contract) return false;
  return true;
}

class BodyGenerator {
 public:
  BodyGenerator(Builder& b, const GenOptions& o) : b_(b), o_(o) {
    for (const Op& op : allOps())
      if (enabled(op, o)) ops_.push_back(&op);
  }

  // `n` operations at the current nesting depth.
  void body(unsigned n) {
    for (unsigned i = 0; i < n;) {
      const unsigned left = n - i;
      if (o_.branches && b_.depth() < 2 && left >= 3 && b_.percent(b_.depth() ? 6 : 9)) {
        i += region(std::min(left, 12u));
        continue;
      }
      operation();
      ++i;
    }
  }

 private:
  void operation() {
    const bool converged = b_.converged();
    unsigned total = 0;
    for (const Op* op : ops_)
      if (converged || !(op->flags & kConverged)) total += op->weight;
    uint32_t r = b_.below(total);
    for (const Op* op : ops_) {
      if (!converged && (op->flags & kConverged)) continue;
      if (r >= op->weight) {
        r -= op->weight;
        continue;
      }
      if ((op->flags & kGuardable) && b_.percent(o_.guardPercent)) {
        b_.guardNext();
        b_.noteFamily("struct.guard");
      }
      op->gen(b_);
      b_.noteFamily(op->family);
      return;
    }
  }

  // The branch condition: a pool predicate, or one computed from the lane or thread index so
  // that warps split in every shape (halves, parity, a single warp of the CTA, ...).
  std::string condition() {
    switch (b_.below(5)) {
      case 0:
        b_.emitRaw("setp.lt.u32 %q,%ln," + std::to_string(1 + b_.below(31)) + ";");
        return "%q";
      case 1:
        b_.emitRaw("and.b32 %t0,%ln," + std::to_string(1u << b_.below(5)) + ";");
        b_.emitRaw("setp.ne.b32 %q,%t0,0;");
        return "%q";
      case 2:
        b_.emitRaw("setp.ge.u32 %q,%tx," + std::to_string(1 + b_.below(b_.blockSize - 1)) + ";");
        return "%q";
      default:
        return b_.predSrc(40);
    }
  }

  // if/else over at most `budget` operations; returns how many it used.
  unsigned region(unsigned budget) {
    b_.noteFamily("struct.divergent");
    const std::string cond = condition(), elseLabel = b_.newLabel(), endLabel = b_.newLabel();
    b_.emitRaw("@" + cond + " bra " + elseLabel + ";");
    b_.enterDivergent();
    const unsigned thenOps = 1 + b_.below(std::max(1u, budget / 2));
    body(thenOps);
    unsigned used = thenOps;
    if (budget > thenOps && b_.percent(60)) {
      const unsigned elseOps = 1 + b_.below(budget - thenOps);
      b_.emitRaw("bra " + endLabel + ";");
      b_.label(elseLabel);
      body(elseOps);
      b_.label(endLabel);
      used += elseOps;
    } else {
      b_.label(elseLabel);
    }
    b_.leaveDivergent();
    return used;
  }

  Builder& b_;
  const GenOptions& o_;
  std::vector<const Op*> ops_;
};

}  // namespace

GeneratedProgram generateProgram(uint64_t seed, const GenOptions& options) {
  if (options.mma) return generateMmaProgram(seed);
  if (options.wgmma) return generateWgmmaProgram(seed);
  Builder b(seed, options);
  b.blockSize = b.pick({32u, 64u, 64u, 128u, 128u});
  b.gridSize = 1 + b.below(2);
  const unsigned span = options.maxInstructions > options.minInstructions
                            ? options.maxInstructions - options.minInstructions + 1
                            : 1;
  const unsigned n = options.minInstructions + b.below(span);
  BodyGenerator(b, options).body(n);
  return b.finish();
}

std::vector<std::string> allFamilies(const GenOptions& options) {
  std::vector<std::string> f;
  for (const Op& op : allOps())
    if (enabled(op, options)) f.push_back(op.family);
  if (options.branches) f.push_back("struct.divergent");
  if (options.guardPercent) f.push_back("struct.guard");
  std::sort(f.begin(), f.end());
  return f;
}

}  // namespace warpsim::ptxgen
