// H200 results of single instructions, recorded by the probes of the integer and comparison
// families, and their replay on one lane of the exec harness.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/exec_harness.h"

namespace warpsim::test {

// A recorded H200 result: the instruction, its operand signature (as the probe wrote it:
// d16/d32/d64 register destination, P predicate, PQ / _Q / P_ predicate pair, DP lop3's d|p;
// sources a16/a32/a64 registers, p / !p predicates, #N immediates), up to four source values
// and what the H200 wrote (predicate p in bit 0, q in bit 1; DP: d, p in bit 32).
struct Recorded {
  const char* op;
  const char* sig;
  uint64_t in[4];
  uint64_t out;
};

// Runs one recorded case on lane 0 of a fresh harness and returns what the simulator wrote,
// encoded like the recording.
inline uint64_t replay(const Recorded& r) {
  std::vector<std::string> sig;
  std::istringstream ss(r.sig);
  for (std::string t; ss >> t;) sig.push_back(t);
  ExecHarness h("mov.b32", {ExecHarness::reg(1), ExecHarness::reg(2)});
  std::vector<isa::Opnd> ops;
  const std::string& d = sig[0];
  if (d[0] == 'd')
    ops.push_back(ExecHarness::reg(1));
  else if (d == "P")
    ops.push_back(ExecHarness::pred(1));
  else if (d == "PQ")
    ops.push_back(ExecHarness::vec({ExecHarness::pred(1), ExecHarness::pred(2)}));
  else if (d == "_Q")
    ops.push_back(ExecHarness::vec({ExecHarness::sink(), ExecHarness::pred(2)}));
  else if (d == "P_")
    ops.push_back(ExecHarness::vec({ExecHarness::pred(1), ExecHarness::sink()}));
  else
    ops.push_back(ExecHarness::vec({ExecHarness::reg(1), ExecHarness::pred(1)}));
  unsigned k = 0;
  for (size_t i = 1; i < sig.size(); ++i) {
    const std::string& t = sig[i];
    if (t[0] == '#') {
      ops.push_back(h.imm(std::stoull(t.substr(1), nullptr, 0)));
    } else if (t == "p" || t == "!p") {
      h.setPred(3 + k, r.in[k] ? 1 : 0);
      ops.push_back(ExecHarness::pred(3 + k, t == "!p"));
      ++k;
    } else {
      h.set(2 + k, 0, r.in[k]);
      ops.push_back(ExecHarness::reg(2 + k));
      ++k;
    }
  }
  h.bind(r.op, ops);
  h.setPred(1, 0xFFFFFFFE);  // lane 0 must be written, the other lanes kept
  h.setPred(2, 0xFFFFFFFE);
  h.set(1, 0, 0xDEADBEEFDEADBEEFull);
  h.run(1);
  const uint64_t p = h.getPred(1) & 1, q = h.getPred(2) & 1;
  EXPECT_EQ(h.getPred(1) & ~1u, 0xFFFFFFFEu) << r.op << ": lanes outside the mask changed";
  if (d[0] == 'd') return h.get(1, 0);
  if (d == "P" || d == "P_") return p;
  if (d == "PQ") return p | q << 1;
  if (d == "_Q") return q << 1;
  return (h.get(1, 0) & 0xFFFFFFFF) | p << 32;
}

}  // namespace warpsim::test
