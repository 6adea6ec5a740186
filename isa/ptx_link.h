// A PTX linker: several translation units' PTX (nvcc -rdc=true, or what a program hands
// cuLinkAddData) made into one module's text, as the CUDA driver's JIT linker does before it
// compiles them together.
//
// What it resolves, by the PTX ISA's linking directives (9.0, 11.6 "Linking directives"):
//  - an `.extern` function or variable of one unit is the `.visible` definition of another
//    (the declaration stays where it was; the parser joins a declaration and a later or
//    earlier definition of the same name);
//  - a `.weak` definition yields to a strong one anywhere, else to the first unit's: the
//    definition that yields is renamed (it stays, unreachable) and its unit's uses reach the
//    one that stays (weak definitions of one name are the same code, by the one-definition
//    rule);
//  - a unit's internal symbols (neither `.visible`, `.extern` nor `.weak`: nvcc's `$str` printf
//    formats, `__cudart_i2opi_f`, static functions) are renamed where another unit uses the
//    same name, so each unit keeps its own;
//  - two strong `.visible` definitions of one name are an error naming both units.
// The text of every unit is kept (so a fault's PTX line and CUDA line stay meaningful: the
// units' `.file` indices are renumbered so that `.loc` keeps naming the right source file);
// only the header (`.version`, `.target`, `.address_size`) is written once: the highest
// version and the target of the newest architecture among the units.
#pragma once

#include <string>
#include <vector>

namespace warpsim::isa {

struct PtxUnit {
  std::string text;
  std::string path;  // names the unit in errors ("unit 2 of 3 of the fatbinary", a file name)
};

// The linked module's PTX text. Throws PtxError naming the unit, line and column for a unit
// that does not parse, units of different address sizes, or a symbol defined twice.
std::string linkPtx(const std::vector<PtxUnit>& units);

}  // namespace warpsim::isa
