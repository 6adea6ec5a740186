// Runs one instruction's semantics on a warp without the parser or the simulator: the
// instruction is built from its full opcode ("add.sat.s32") and operand list, bound through
// the instruction table, and executed on a 32-lane register file against a small flat memory.
//
//   ExecHarness h("add.s32", {h.reg(0), h.reg(1), h.imm(5)});
//   h.set(1, lane, value) ...; h.run(mask); h.get(0, lane)
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "isa/exec.h"

namespace warpsim::test {

class HarnessFault : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ExecHarness final : public isa::Machine {
 public:
  static constexpr uint32_t kSlots = 64;  // registers r0..r63 (slot 0 = the carry flag)
  static constexpr uint32_t kPreds = 8;

  // Operand builders.
  // Register r (1..63); `type` is its declared type where the semantics read it (the width
  // a signed load or conversion extends to).
  static isa::Opnd reg(uint32_t r, isa::Type type = isa::Type::None);
  static isa::Opnd pred(uint32_t p, bool negated = false);
  isa::Opnd imm(uint64_t bits);  // an immediate: a slot filled with the value
  static isa::Opnd addr(uint32_t baseReg, int64_t offset = 0, isa::Type baseType = isa::Type::U64);
  static isa::Opnd vec(std::vector<isa::Opnd> elems);
  static isa::Opnd sink();

  // Binds `opcode` (e.g. "setp.lt.and.s32") with `ops`; throws std::invalid_argument with the
  // binder's message when the table rejects it.
  ExecHarness(const std::string& opcode, std::vector<isa::Opnd> ops);
  // Rebinds (same register file) to another instruction.
  void bind(const std::string& opcode, std::vector<isa::Opnd> ops);
  std::string tryBind(const std::string& opcode, std::vector<isa::Opnd> ops);

  void set(uint32_t r, unsigned lane, uint64_t v) { regs_[r * 32 + lane] = v; }
  void setAll(uint32_t r, uint64_t v) {
    for (unsigned l = 0; l < 32; ++l) set(r, l, v);
  }
  uint64_t get(uint32_t r, unsigned lane) const { return regs_[r * 32 + lane]; }
  void setPred(uint32_t p, uint32_t mask) { preds_[p] = mask; }
  uint32_t getPred(uint32_t p) const { return preds_[p]; }

  // Executes on `mask` lanes (active = mask unless given; guard not applied).
  void run(uint32_t mask = ~0u, uint32_t active = 0);
  const isa::Inst& inst() const { return inst_; }

  // Flat memory for loads/stores/atomics in any space: address -> byte.
  std::map<uint64_t, uint8_t> memory;
  void poke(uint64_t a, uint64_t v, unsigned bytes);
  uint64_t peek(uint64_t a, unsigned bytes) const;
  std::vector<std::string> events;  // control-flow / barrier calls, for assertions

  // ---- isa::Machine ----
  void load(const isa::Inst&, isa::Space, isa::LaneMask mask, const uint64_t* addrs, unsigned bytes,
            unsigned vec, uint64_t* out) override;
  void store(const isa::Inst&, isa::Space, isa::LaneMask mask, const uint64_t* addrs,
             unsigned bytes, unsigned vec, const uint64_t* data) override;
  void atomic(const isa::Inst&, isa::Space, isa::LaneMask mask, const uint64_t* addrs,
              unsigned bytes, isa::AtomFn fn, const uint64_t* a, const uint64_t* b,
              uint64_t* old) override;
  uint64_t toGeneric(isa::Space s, uint64_t a, unsigned) override;
  uint64_t fromGeneric(isa::Space s, uint64_t a, unsigned) override;
  isa::Space spaceOf(uint64_t, unsigned) override { return isa::Space::Global; }
  void fence(const isa::Inst&, isa::LaneMask) override {}
  void branch(const isa::Inst&, isa::LaneMask taken) override;
  void call(const isa::Inst&, isa::LaneMask) override { events.push_back("call"); }
  void ret(const isa::Inst&, isa::LaneMask) override { events.push_back("ret"); }
  void exit(const isa::Inst&, isa::LaneMask) override { events.push_back("exit"); }
  [[noreturn]] void trap(const isa::Inst&, isa::LaneMask, const char* why) override;
  void barrier(const isa::Inst&, isa::BarrierKind kind, isa::LaneMask mask, uint32_t id,
               uint32_t count, isa::LaneMask value, uint32_t resultSlot) override;
  uint32_t printf(const isa::Inst&, unsigned, uint64_t, uint64_t) override {
    events.push_back("printf");
    return 0;
  }
  void nanosleep(const isa::Inst&) override { events.push_back("nanosleep"); }
  uint64_t special(isa::Special, unsigned) override { return 0; }
  [[noreturn]] void warpSyncFault(const isa::Inst&, isa::LaneMask, isa::LaneMask) override;
  [[noreturn]] void unsupported(const isa::Inst&, const char* what) override;

 private:
  isa::Inst inst_;
  std::vector<uint64_t> regs_ = std::vector<uint64_t>(kSlots * 32, 0);
  std::vector<uint32_t> preds_ = std::vector<uint32_t>(kPreds, 0);
  uint32_t nextImmSlot_ = kSlots - 1;  // immediates fill slots from the top down
};

}  // namespace warpsim::test
