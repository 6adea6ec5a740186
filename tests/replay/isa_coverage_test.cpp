// The recorded ISA cases (tests/recorded/isa) together cover what issue 3 asks of them: every
// instruction family of the core, every rounding mode and every comparison.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

#include "harness/ptxgen/isa_case.h"

namespace warpsim {
namespace {

namespace fs = std::filesystem;

std::set<std::string> recordedForms(size_t& cases) {
  std::set<std::string> forms;
  cases = 0;
  const fs::path dir = fs::path(WARPSIM_SOURCE_DIR) / "tests" / "recorded" / "isa";
  if (!fs::is_directory(dir)) return forms;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".isacase") {
      ++cases;
      for (const std::string& f : ptxgen::readIsaCase(e.path().string()).forms) forms.insert(f);
    }
  return forms;
}

bool anyFormWith(const std::set<std::string>& forms, const std::string& opcode,
                 const std::string& word) {
  for (const std::string& f : forms) {
    if (f.rfind(opcode + ".", 0) != 0 && f != opcode) continue;
    if (word.empty() || (f + ".").find("." + word + ".") != std::string::npos) return true;
  }
  return false;
}

TEST(RecordedIsaCoverage, FamiliesRoundingModesAndComparisons) {
  size_t cases = 0;
  const std::set<std::string> forms = recordedForms(cases);
  if (cases == 0) GTEST_SKIP() << "no recorded ISA cases";
  EXPECT_GE(cases, 2000u);
  for (const char* op :
       {"add",  "sub",  "mul",   "mad",   "fma",        "div",  "rem",  "abs",   "neg",
        "min",  "max",  "sad",   "mul24", "mad24",      "popc", "clz",  "bfind", "brev",
        "bfe",  "bfi",  "fns",   "bmsk",  "szext",      "dp4a", "dp2a", "and",   "or",
        "xor",  "not",  "cnot",  "lop3",  "shl",        "shr",  "shf",  "prmt",  "setp",
        "set",  "selp", "slct",  "testp", "copysign",   "cvt",  "mov",  "ld",    "st",
        "shfl", "vote", "match", "redux", "activemask", "bar",  "sqrt", "rcp",   "addc",
        "subc", "madc", "elect"})
    EXPECT_TRUE(anyFormWith(forms, op, "")) << "no recorded case uses " << op;
  for (const char* r : {"rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "rna"})
    EXPECT_TRUE(anyFormWith(forms, "cvt", r) || anyFormWith(forms, "add", r))
        << "no recorded case rounds ." << r;
  for (const char* op : {"add", "mul", "fma", "div", "sqrt"})
    for (const char* r : {"rn", "rz", "rm", "rp"})
      EXPECT_TRUE(anyFormWith(forms, op, r)) << "no recorded " << op << "." << r;
  for (const char* cmp : {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu",
                          "ltu", "leu", "gtu", "geu", "num", "nan"})
    EXPECT_TRUE(anyFormWith(forms, "setp", cmp)) << "no recorded setp." << cmp;
}

}  // namespace
}  // namespace warpsim
