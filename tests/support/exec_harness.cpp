#include "tests/support/exec_harness.h"

#include <sstream>

#include "isa/insn_table.h"

namespace warpsim::test {

using isa::Opnd;
using isa::OpndKind;

Opnd ExecHarness::reg(uint32_t r, isa::Type type) {
  Opnd o;
  o.kind = OpndKind::Reg;
  o.slot = r;
  o.regType = type;
  return o;
}

Opnd ExecHarness::pred(uint32_t p, bool negated) {
  Opnd o;
  o.kind = OpndKind::Pred;
  o.slot = p;
  o.negated = negated;
  return o;
}

Opnd ExecHarness::imm(uint64_t bits) {
  const uint32_t slot = nextImmSlot_--;
  setAll(slot, bits);
  return reg(slot);
}

Opnd ExecHarness::addr(uint32_t baseReg, int64_t offset, isa::Type baseType) {
  Opnd o;
  o.kind = OpndKind::Addr;
  o.baseSlot = baseReg;
  o.baseType = baseType;
  o.offset = offset;
  return o;
}

Opnd ExecHarness::vec(std::vector<Opnd> elems) {
  Opnd o;
  o.kind = OpndKind::Vec;
  o.elems = std::move(elems);
  return o;
}

Opnd ExecHarness::sink() {
  Opnd o;
  o.kind = OpndKind::Sink;
  return o;
}

ExecHarness::ExecHarness(const std::string& opcode, std::vector<Opnd> ops) {
  bind(opcode, std::move(ops));
}

std::string ExecHarness::tryBind(const std::string& opcode, std::vector<Opnd> ops) {
  std::vector<std::string> parts;
  std::stringstream ss(opcode);
  for (std::string p; std::getline(ss, p, '.');) parts.push_back(p);
  isa::Inst in;
  in.text = opcode;
  in.mods = isa::decodeMods(std::vector<std::string>(parts.begin() + 1, parts.end()));
  in.ops = std::move(ops);
  const isa::OpcodeSpec* spec = isa::findSpec(parts[0], in.mods);
  if (!spec) return "no spec for " + opcode;
  in.cls = spec->cls;
  std::string err = spec->bind(in);
  if (err.empty()) inst_ = std::move(in);
  return err;
}

void ExecHarness::bind(const std::string& opcode, std::vector<Opnd> ops) {
  if (std::string err = tryBind(opcode, std::move(ops)); !err.empty())
    throw std::invalid_argument(err);
}

void ExecHarness::run(uint32_t mask, uint32_t active) {
  isa::Exec x;
  x.regs = regs_.data();
  x.preds = preds_.data();
  x.mask = mask;
  x.active = active ? active : mask;
  x.machine = this;
  inst_.run(x, inst_);
}

void ExecHarness::poke(uint64_t a, uint64_t v, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i) memory[a + i] = uint8_t(v >> (8 * i));
}

uint64_t ExecHarness::peek(uint64_t a, unsigned bytes) const {
  uint64_t v = 0;
  for (unsigned i = 0; i < bytes; ++i) {
    auto it = memory.find(a + i);
    v |= uint64_t(it == memory.end() ? 0 : it->second) << (8 * i);
  }
  return v;
}

void ExecHarness::load(const isa::Inst&, isa::Space, isa::LaneMask mask, const uint64_t* addrs,
                       unsigned bytes, unsigned vec, uint64_t* out) {
  isa::forLanes(mask, [&](unsigned l) {
    for (unsigned i = 0; i < vec; ++i) out[l * vec + i] = peek(addrs[l] + i * bytes, bytes);
  });
}

void ExecHarness::store(const isa::Inst&, isa::Space, isa::LaneMask mask, const uint64_t* addrs,
                        unsigned bytes, unsigned vec, const uint64_t* data) {
  isa::forLanes(mask, [&](unsigned l) {
    for (unsigned i = 0; i < vec; ++i) poke(addrs[l] + i * bytes, data[l * vec + i], bytes);
  });
}

void ExecHarness::atomic(const isa::Inst&, isa::Space, isa::LaneMask mask, const uint64_t* addrs,
                         unsigned bytes, isa::AtomFn fn, const uint64_t* a, const uint64_t* b,
                         uint64_t* old) {
  isa::forLanes(mask, [&](unsigned l) {
    const uint64_t o = peek(addrs[l], bytes);
    old[l] = o;
    poke(addrs[l], fn(o, a[l], b ? b[l] : 0), bytes);
  });
}

uint64_t ExecHarness::toGeneric(isa::Space s, uint64_t a, unsigned) {
  return s == isa::Space::Shared ? a + 0x1000000000ull : a;
}
uint64_t ExecHarness::fromGeneric(isa::Space s, uint64_t a, unsigned) {
  return s == isa::Space::Shared ? a - 0x1000000000ull : a;
}

void ExecHarness::branch(const isa::Inst&, isa::LaneMask taken) {
  events.push_back("branch " + std::to_string(taken));
}

void ExecHarness::trap(const isa::Inst&, isa::LaneMask, const char* why) {
  throw HarnessFault(why);
}

void ExecHarness::barrier(const isa::Inst&, isa::BarrierKind kind, isa::LaneMask mask, uint32_t id,
                          uint32_t count, isa::LaneMask value, uint32_t) {
  events.push_back("barrier " + std::to_string(int(kind)) + " " + std::to_string(id) + " " +
                   std::to_string(count) + " " + std::to_string(value & mask));
}

void ExecHarness::warpSyncFault(const isa::Inst&, isa::LaneMask m, isa::LaneMask p) {
  throw HarnessFault("warp sync fault " + std::to_string(m) + " " + std::to_string(p));
}

void ExecHarness::unsupported(const isa::Inst&, const char* what) {
  throw HarnessFault(std::string("not supported yet: ") + what);
}

}  // namespace warpsim::test
