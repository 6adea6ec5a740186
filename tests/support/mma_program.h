// One warp-level mma per program, for the tests of mma.sync's forms (tests/sim/matrix_test.cpp,
// tests/sim/mma_forms_test.cpp, tests/sim/mma_sparse_test.cpp).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "isa/diagnostic.h"
#include "tests/support/ptx_runner.h"

namespace warpsim::test {

// One mma per program: each thread loads its A, B, C fragment registers from global words in
// lane order (A's nA words, then B's, C's) and stores D's.
// A sparse form (sparseSelector >= 0) loads one more word, the metadata, after C's, and names
// it and the selector (an immediate) after C.
inline std::string mmaProgram(const std::string& form, unsigned nA, unsigned nB, unsigned nC,
                              unsigned nD, bool wide, int sparseSelector = -1) {
  const std::string t = wide ? ".b64" : ".b32";
  const bool sparse = sparseSelector >= 0;
  const unsigned words = nA + nB + nC + (sparse ? 1 : 0), bytes = wide ? 8 : 4;
  std::string s = std::string(".version 9.0\n.target sm_90\n.address_size 64\n") +
                  ".visible .entry mma_k(.param .u64 in, .param .u64 out)\n{\n";
  s += ".reg " + t + " %x<" + std::to_string(words + nD) + ">;\n.reg .b32 %t;\n.reg .b64 %a<4>;\n";
  s += "ld.param.u64 %a0, [in];\nld.param.u64 %a1, [out];\nmov.u32 %t, %tid.x;\n";
  s += "mul.wide.u32 %a2, %t, " + std::to_string(words * bytes) + ";\nadd.s64 %a0, %a0, %a2;\n";
  s += "mul.wide.u32 %a3, %t, " + std::to_string(nD * bytes) + ";\nadd.s64 %a1, %a1, %a3;\n";
  for (unsigned i = 0; i < words; ++i)
    s += "ld.global" + t + " %x" + std::to_string(i) + ", [%a0+" + std::to_string(i * bytes) +
         "];\n";
  auto vec = [](unsigned from, unsigned n) {
    std::string v = "{";
    for (unsigned i = 0; i < n; ++i) v += (i ? ", %x" : "%x") + std::to_string(from + i);
    return v + "}";
  };
  s += form + " " + vec(words, nD) + ", " + vec(0, nA) + ", " + vec(nA, nB) + ", " +
       vec(nA + nB, nC) +
       (sparse ? ", %x" + std::to_string(nA + nB + nC) + ", " + std::to_string(sparseSelector)
               : std::string()) +
       ";\n";
  for (unsigned i = 0; i < nD; ++i)
    s += "st.global" + t + " [%a1+" + std::to_string(i * bytes) + "], %x" +
         std::to_string(words + i) + ";\n";
  return s + "ret;\n}\n";
}

// An mmaProgram (or a variant of one) that must not load: the error says `what` and names the
// mma's line, `line` (16 + its loads: after the header, the entry, the address arithmetic and
// one load a word), column 1.
inline void expectMmaLoadError(const std::string& ptx, unsigned line, const std::string& what) {
  try {
    PtxRunner r(ptx);
    const uint64_t ib = r.buffer<uint32_t>(32 * 16), out = r.buffer<uint32_t>(32 * 8);
    r.launch("mma_k", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(ib), PtxRunner::ptr(out)});
    ADD_FAILURE() << "ran: " << ptx;
  } catch (const isa::PtxError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(what), std::string::npos) << m;
    EXPECT_NE(m.find(":" + std::to_string(line) + ":1"), std::string::npos) << m;
  }
}

}  // namespace warpsim::test
