// Reading the lines of a generated program's PTX: the frame every program has (explain.cpp,
// trace.cpp, isolate.cpp) and the registers an instruction line names.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace warpsim::ptxgen::lines {

std::string trim(const std::string& s);
// The text split into lines.
std::vector<std::string> split(const std::string& text);

// A line's guard: `@%p1 ...` is {"%p1", false}, `@!%p1 ...` {"%p1", true}; none without one.
struct Guard {
  std::string reg;
  bool negated = false;
};
std::optional<Guard> guardOf(const std::string& line);
// The line without its guard, trimmed.
std::string withoutGuard(const std::string& line);
// The operand fields of an instruction line, trimmed, in order: "%r0", "{%h1,%h0}", "14",
// "[%sa+0]" (commas inside braces do not split). Empty for a line without operands.
std::vector<std::string> operands(const std::string& line);

// The destination registers of an instruction line (none for stores, branches, barriers).
std::vector<std::string> destinations(std::string line);
// The pool registers (%h %r %rd %f %fd %p followed by digits) a line reads: every pool
// register it names outside its destinations, the guard predicate included.
std::vector<std::string> sources(const std::string& line);
// Every %name the text mentions, in order, repeats included.
std::vector<std::string> registers(const std::string& text);
// "%h3", "%rd0", ...: a register of the generator's pool.
bool isPoolRegister(const std::string& r);
// The memory type that loads and stores a pool register whole: b16 (%h), b32 (%r, and a
// predicate's 0/1), b64 (%rd), f32 (%f), f64 (%fd).
std::string memoryType(const std::string& reg);

}  // namespace warpsim::ptxgen::lines
