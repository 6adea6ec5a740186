// The instruction table's self-check: specs are unambiguous, complete, and each opcode is
// exercised by some test.
#include "isa/insn_table.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace warpsim::isa {
namespace {

TEST(InstructionTable, SpecsOfOneOpcodeDoNotOverlap) {
  const auto& t = instructionTable();
  for (size_t i = 0; i < t.size(); ++i)
    for (size_t j = i + 1; j < t.size(); ++j) {
      if (t[i].opcode != t[j].opcode) continue;
      EXPECT_FALSE(t[i].types.empty() && t[j].types.empty())
          << t[i].opcode << ": two untyped specs (" << t[i].family << ", " << t[j].family << ")";
      for (Type a : t[i].types)
        for (Type b : t[j].types)
          EXPECT_NE(a, b) << t[i].opcode << "." << typeName(a) << " is defined by both "
                          << t[i].family << " and " << t[j].family;
    }
}

TEST(InstructionTable, EverySpecCanBind) {
  for (const OpcodeSpec& s : instructionTable()) {
    EXPECT_NE(s.bind, nullptr) << s.opcode;
    EXPECT_FALSE(s.family.empty()) << s.opcode;
  }
}

TEST(InstructionTable, ValidatorAcceptsKnownAndRejectsUnknown) {
  ir::Instruction ok;
  ok.opcode = "add";
  ok.mods = {"s32"};
  EXPECT_EQ(validateInstruction(ok), "");
  ir::Instruction unknown;
  unknown.opcode = "frobnicate";
  EXPECT_EQ(validateInstruction(unknown), "unknown opcode 'frobnicate'");
  ir::Instruction badMod;
  badMod.opcode = "add";
  badMod.mods = {"s32", "bogus"};
  EXPECT_EQ(validateInstruction(badMod), "'add' does not take modifier '.bogus'");
}

// Every executable opcode appears in at least one test source (as "opcode." or "opcode ").
TEST(InstructionTable, EveryExecutableOpcodeIsTested) {
  std::string tests;
  for (const auto& e : std::filesystem::recursive_directory_iterator(
           std::filesystem::path(WARPSIM_SOURCE_DIR) / "tests")) {
    if (e.path().extension() != ".cpp" && e.path().extension() != ".h") continue;
    std::ifstream f(e.path());
    std::stringstream ss;
    ss << f.rdbuf();
    tests += ss.str();
  }
  std::set<std::string> seen;
  for (const OpcodeSpec& s : instructionTable()) {
    if (s.family == "unsupported" || !seen.insert(std::string(s.opcode)).second) continue;
    const std::string op(s.opcode);
    const bool found = tests.find("\"" + op + ".") != std::string::npos ||
                       tests.find("\"" + op + "\"") != std::string::npos ||
                       tests.find(" " + op + ".") != std::string::npos ||
                       tests.find("\t" + op + ".") != std::string::npos;
    EXPECT_TRUE(found) << "no test mentions opcode '" << op << "' (family " << s.family << ")";
  }
}

}  // namespace
}  // namespace warpsim::isa
