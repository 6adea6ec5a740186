#include "isa/contract.h"
#include "isa/contract_labels.h"

#include <algorithm>
#include <map>

#include "isa/cfg.h"
#include "isa/facts.h"
#include "isa/insns/families.h"
#include "isa/liveness.h"

namespace warpsim::isa {
namespace {

// A product that may be fused: the value a mul (or a neg of such a value) writes.
struct Product {
  uint32_t pc = 0;       // the mul or neg that writes it
  uint32_t mul = 0;      // the mul it comes from
  bool negated = false;  // an odd number of negs lie between the mul and this value
  int parent = -1;       // a neg's product: the product it negates
  bool usable = true;    // every live use consumes it as a product
  std::vector<std::pair<uint32_t, uint8_t>> sums{};  // the add/sub (pc, operand 1 or 2) using it
  std::vector<int> negs{};                           // the products of the negs that read it
};

bool fusibleType(Type t) {
  return t == Type::F32 || t == Type::F64 || t == Type::F16 || t == Type::F16x2 ||
         t == Type::BF16 || t == Type::BF16x2;
}
bool ftz(const Inst& in) { return in.mods.has("ftz"); }
bool reads(const Inst& in, uint32_t slot) {
  return std::find(in.uses.begin(), in.uses.end(), RegRef{slot, false}) != in.uses.end();
}
bool writes(const Inst& in, uint32_t slot) {
  return std::find(in.defs.begin(), in.defs.end(), RegRef{slot, false}) != in.defs.end();
}

bool fusibleMul(const Inst& in) {
  return in.guard == kNoSlot && !in.mods.rounding.present && !in.mods.has("sat") &&
         fusibleType(in.mods.type()) && in.ops.size() == 3 && in.ops[0].kind == OpndKind::Reg &&
         in.ops[0].declared;
}
// div.approx.f32 / div.full.f32 {.ftz} end in an FMUL of the reciprocal and the scaled
// dividend, which ptxas fuses as it fuses a mul (nvdisasm of ptxas 13, sm_90: FFMA, FFMA.FTZ,
// FFMA.SAT; confirmed on the H200 by isa-record --contract's random programs); div.rn is a
// division, not a product.
bool fusibleQuotient(const Inst& in) {
  return in.mods.type() == Type::F32 && (in.mods.has("approx") || in.mods.has("full")) &&
         fusibleMul(in);
}
bool fusibleProduct(Fusion f, const Inst& in) {
  return f == Fusion::Multiply ? fusibleMul(in) : f == Fusion::Divide && fusibleQuotient(in);
}

class Contraction {
 public:
  Contraction(FunctionCode& fn, const std::vector<Fusion>& fusion,
              const std::vector<bool>& labelled)
      : code_(fn.code),
        tables_(fn.tables),
        fusion_(fusion),
        labelled_(labelled),
        cfg_(buildCfg(fn)),
        live_(liveRegisters(fn, cfg_)) {}

  size_t run() {
    for (uint32_t pc = 0; pc < code_.size(); ++pc)
      if (!live_.dead[pc] && fusibleProduct(fusion_[pc], code_[pc])) {
        products_.push_back({.pc = pc, .mul = pc});
        for (size_t i = products_.size() - 1; i < products_.size(); ++i) findUses(int(i));
      }
    if (products_.empty()) return 0;
    const std::map<uint32_t, int> chosen = choose();
    if (chosen.empty()) return 0;
    for (const auto& [pc, id] : chosen) fuse(pc, products_[size_t(id)]);
    std::vector<bool> removed(code_.size(), false);
    for (const Product& p : products_)
      if (p.usable) removed[p.pc] = true;
    removeInstructions(removed);
    return chosen.size();
  }

 private:
  // Whether `in` can absorb a product of `mul` as one of its two operands.
  bool fusibleSum(uint32_t pc, const Inst& mul) const {
    const Inst& in = code_[pc];
    return (fusion_[pc] == Fusion::Add || fusion_[pc] == Fusion::Subtract) &&
           in.mods.type() == mul.mods.type() && !in.mods.rounding.present && ftz(in) == ftz(mul) &&
           in.ops.size() == 3;
  }
  // A plain neg folds into any mul; a neg.ftz only into a mul.ftz (ptxas 13's SASS, the 16
  // combinations of .ftz on mul, neg and add/sub: docs/FIDELITY.md).
  bool foldableNeg(uint32_t pc, const Inst& mul) const {
    const Inst& in = code_[pc];
    return fusion_[pc] == Fusion::Negate && in.guard == kNoSlot &&
           in.mods.type() == mul.mods.type() && (!ftz(in) || ftz(mul)) && in.ops.size() == 2 &&
           in.ops[0].kind == OpndKind::Reg && in.ops[0].declared;
  }

  // Follows product `id` through its block: every instruction that reads it before it is
  // overwritten, and whether it is live beyond the block.
  void findUses(int id) {
    const uint32_t defPc = products_[size_t(id)].pc;
    const Inst& mul = code_[products_[size_t(id)].mul];
    const uint32_t slot = code_[defPc].ops[0].slot;
    const uint32_t block = cfg_.blockOf[defPc];
    const uint32_t last = cfg_.blocks[block].last;
    // The first instruction after the mul that overwrites one of its sources: the fused
    // instruction, which reads them later, would see the new value.
    uint32_t clobber = kNoPc;
    for (uint32_t pc = products_[size_t(id)].mul + 1; pc <= last && clobber == kNoPc; ++pc)
      for (size_t k = 1; k <= 2; ++k)
        if (mul.ops[k].declared && writes(code_[pc], mul.ops[k].slot)) clobber = pc;
    bool usable = true, overwritten = false, pastLabel = false;
    for (uint32_t pc = defPc + 1; pc <= last && usable; ++pc) {
      const Inst& in = code_[pc];
      // A label the CFG does not split at (no branch names it) still ends ptxas's block.
      pastLabel = pastLabel || (pc < labelled_.size() && labelled_[pc]);
      if (!live_.dead[pc] && reads(in, slot)) {
        const int n =
            (in.ops.size() > 1 && in.ops[1].kind == OpndKind::Reg && in.ops[1].slot == slot) +
            (in.ops.size() > 2 && in.ops[2].kind == OpndKind::Reg && in.ops[2].slot == slot);
        if (clobber < pc || pastLabel) {
          usable = false;
        } else if (fusibleSum(pc, mul) && n == 1) {
          const uint8_t operand =
              uint8_t(in.ops[1].kind == OpndKind::Reg && in.ops[1].slot == slot ? 1 : 2);
          // `c - neg.ftz(a*b)` stays apart (FFMA.FTZ(-a, b, -RZ) then FADD.FTZ), where
          // `neg.ftz(a*b) - c` and `c + neg.ftz(a*b)` fuse: measured on the H200 as well.
          if (operand == 2 && fusion_[pc] == Fusion::Subtract && fusion_[defPc] == Fusion::Negate &&
              ftz(code_[defPc]))
            usable = false;
          else
            products_[size_t(id)].sums.push_back({pc, operand});
        } else if (foldableNeg(pc, mul)) {
          Product child{.pc = pc,
                        .mul = products_[size_t(id)].mul,
                        .negated = !products_[size_t(id)].negated,
                        .parent = id};
          products_[size_t(id)].negs.push_back(int(products_.size()));
          products_.push_back(child);  // its uses are found after this one's
        } else {
          usable = false;
        }
      }
      if (writes(in, slot)) {
        // A guarded write leaves the product in the lanes it skips: a use further on would
        // read a mixture, which no fused instruction can give.
        if (in.guard != kNoSlot) usable = false;
        overwritten = true;
        break;
      }
    }
    if (!overwritten && live_.liveAtEnd(block, {slot, false})) usable = false;
    products_[size_t(id)].usable = usable;
  }

  // Each add/sub takes the first of its operands that is a usable product; a product that some
  // use does not take (or whose neg, or whose negated product, is not fused) stays as written.
  // Repeated until nothing changes: the sums' choices depend on which products remain.
  std::map<uint32_t, int> choose() {
    std::map<uint32_t, std::vector<std::pair<uint8_t, int>>> operandsOf;  // sum pc -> products
    for (size_t id = 0; id < products_.size(); ++id)
      for (const auto& [pc, k] : products_[id].sums) operandsOf[pc].push_back({k, int(id)});
    std::map<uint32_t, int> chosen;
    for (bool dropped = true; dropped;) {
      chosen.clear();
      for (auto& [pc, ops] : operandsOf) {
        std::sort(ops.begin(), ops.end());
        for (const auto& [k, id] : ops)
          if (products_[size_t(id)].usable) {
            chosen[pc] = id;
            break;
          }
      }
      dropped = false;
      for (size_t id = 0; id < products_.size(); ++id) {
        Product& p = products_[id];
        if (!p.usable) continue;
        bool keep = p.parent < 0 || products_[size_t(p.parent)].usable;
        for (const auto& [pc, k] : p.sums) {
          auto it = chosen.find(pc);
          keep = keep && it != chosen.end() && it->second == int(id);
        }
        for (int n : p.negs) keep = keep && products_[size_t(n)].usable;
        keep = keep && (!p.sums.empty() || !p.negs.empty());
        if (!keep) {
          p.usable = false;
          dropped = true;
        }
      }
    }
    return chosen;
  }

  // Turns the add/sub at `pc` into the fused multiply-add of `p`'s mul and its other operand.
  void fuse(uint32_t pc, const Product& p) {
    Inst& in = code_[pc];
    const Inst& mul = code_[p.mul];
    uint8_t k = 1;
    for (const auto& [sumPc, operand] : p.sums)
      if (sumPc == pc) k = operand;
    bool negProduct = p.negated, negAddend = false;
    if (fusion_[pc] == Fusion::Subtract) {
      if (k == 1)
        negAddend = true;  // a*b - c
      else
        negProduct = !negProduct;  // c - a*b
    }
    const Opnd addend = in.ops[3 - k];
    in.ops = {in.ops[0], mul.ops[1], mul.ops[2], addend};
    if (fusion_[p.mul] == Fusion::Divide)  // FFMA.SAT for an add.sat, as for a mul
      in.run = insns::fusedDivideAdd(mul.mods.has("full"), ftz(in), in.mods.has("sat"), negProduct,
                                     negAddend);
    else
      in.run = insns::fusedMultiplyAdd(in.mods.type(), ftz(in), in.mods.has("sat"), negProduct,
                                       negAddend);
    deriveFacts(in, Role::Compute);
  }

  // Removes the fused muls and negs; branch targets follow their instructions.
  void removeInstructions(const std::vector<bool>& removed) {
    std::vector<uint32_t> newPc(code_.size() + 1);
    uint32_t n = 0;
    for (size_t pc = 0; pc < code_.size(); ++pc) {
      newPc[pc] = n;
      if (!removed[pc]) ++n;
    }
    newPc[code_.size()] = n;
    std::vector<Inst> kept;
    kept.reserve(n);
    for (size_t pc = 0; pc < code_.size(); ++pc) {
      if (removed[pc]) continue;
      Inst in = std::move(code_[pc]);
      in.pc = newPc[pc];
      if (in.target != kNoPc) in.target = newPc[in.target];
      kept.push_back(std::move(in));
    }
    code_ = std::move(kept);
    for (TargetTable& t : tables_)
      for (uint32_t& pc : t.pcs) pc = newPc[std::min<size_t>(pc, newPc.size() - 1)];
  }

  std::vector<Inst>& code_;
  std::vector<TargetTable>& tables_;  // brx.idx's targets follow their instructions too
  const std::vector<Fusion>& fusion_;
  const std::vector<bool>& labelled_;
  Cfg cfg_;
  LiveRegisters live_;
  std::vector<Product> products_;
};

}  // namespace

// Without the labels: blocks as the CFG sees them (split at branch targets only).
size_t contractMultiplyAdds(FunctionCode& fn, const std::vector<Fusion>& fusion) {
  return contractMultiplyAdds(fn, fusion, std::vector<bool>(fn.code.size(), false));
}

size_t contractMultiplyAdds(FunctionCode& fn, const std::vector<Fusion>& fusion,
                            const std::vector<bool>& labelled) {
  // Most functions have no multiply at all: they pay nothing for the pass.
  if (std::none_of(fusion.begin(), fusion.end(),
                   [](Fusion f) { return f == Fusion::Multiply || f == Fusion::Divide; }))
    return 0;
  return Contraction(fn, fusion, labelled).run();
}

}  // namespace warpsim::isa
