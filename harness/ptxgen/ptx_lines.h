// Reading the lines of a generated program's PTX: the frame every program has (explain.cpp,
// trace.cpp) and the registers an instruction line names.
#pragma once

#include <string>
#include <vector>

namespace warpsim::ptxgen::lines {

std::string trim(const std::string& s);
// The destination registers of an instruction line (none for stores, branches, barriers).
std::vector<std::string> destinations(std::string line);
// The pool registers (%h %r %rd %f %fd %p followed by digits) a line reads: every pool
// register it names outside its destinations, the guard predicate included.
std::vector<std::string> sources(const std::string& line);
// The line split into lines.
std::vector<std::string> split(const std::string& text);

}  // namespace warpsim::ptxgen::lines
