#include "harness/ptxgen/ptx_lines.h"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "isa/facts.h"

namespace warpsim::ptxgen::lines {

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

std::optional<Guard> guardOf(const std::string& line) {
  const std::string t = trim(line);
  if (t.empty() || t[0] != '@') return std::nullopt;
  Guard g;
  g.negated = t.size() > 1 && t[1] == '!';
  const size_t from = g.negated ? 2 : 1;
  g.reg = trim(t.substr(from, t.find(' ') - from));
  return g;
}

std::string withoutGuard(const std::string& line) {
  const std::string t = trim(line);
  return !t.empty() && t[0] == '@' ? trim(t.substr(t.find(' ') + 1)) : t;
}

namespace {

// The opcode and the operand text of a line, without its guard.
bool opcodeAndOperands(const std::string& line, std::string& op, std::string& rest) {
  const std::string t = withoutGuard(line);
  const size_t sp = t.find(' ');
  if (sp == std::string::npos) return false;
  op = t.substr(0, sp);
  rest = trim(t.substr(sp + 1));
  return true;
}

bool writesNothing(const std::string& op) { return !isa::writesFirstOperand(op); }

}  // namespace

std::vector<std::string> operands(const std::string& line) {
  std::string op, rest;
  if (!opcodeAndOperands(line, op, rest)) return {};
  rest = rest.substr(0, rest.find(';'));
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  for (char c : rest + ",") {
    if (c == '{') ++depth;
    if (c == '}') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  return out;
}

bool isPoolRegister(const std::string& r) {
  size_t i = 1;
  if (r.size() < 3 || r[0] != '%') return false;
  if (r.compare(1, 2, "rd") == 0 || r.compare(1, 2, "fd") == 0)
    i = 3;
  else if (r[1] == 'h' || r[1] == 'r' || r[1] == 'f' || r[1] == 'p')
    i = 2;
  else
    return false;
  return i < r.size() &&
         std::all_of(r.begin() + long(i), r.end(), [](char c) { return std::isdigit(uint8_t(c)); });
}

std::string memoryType(const std::string& reg) {
  if (reg.rfind("%rd", 0) == 0) return "b64";
  if (reg.rfind("%fd", 0) == 0) return "f64";
  if (reg.rfind("%h", 0) == 0) return "b16";
  if (reg.rfind("%f", 0) == 0) return "f32";
  return "b32";
}

std::vector<std::string> registers(const std::string& text) {
  std::vector<std::string> v;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') continue;
    size_t j = i + 1;
    while (j < text.size() && (std::isalnum(uint8_t(text[j])) || text[j] == '_')) ++j;
    v.push_back(text.substr(i, j - i));
    i = j - 1;
  }
  return v;
}

std::vector<std::string> destinations(std::string line) {
  std::string op, rest;
  if (!opcodeAndOperands(line, op, rest) || writesNothing(op)) return {};
  std::string first;
  if (!rest.empty() && rest[0] == '{')
    first = rest.substr(1, rest.find('}') - 1);
  else
    first = rest.substr(0, std::min(rest.find(','), rest.find(';')));
  std::vector<std::string> out;
  std::string cur;
  for (char c : first + ",") {
    if (c == ',' || c == '|') {
      // A video destination's part selector (`%r5.b1`) is not part of the register's name.
      if (cur.find('%') != std::string::npos && cur.find('.') != std::string::npos)
        cur.erase(cur.find('.'));
      if (!trim(cur).empty()) out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  return out;
}

std::vector<std::string> sources(const std::string& line) {
  std::string op, rest;
  const std::string t = trim(line);
  if (t.empty() || t[0] == '/' || t[0] == '.' || !opcodeAndOperands(t, op, rest)) return {};
  // What follows the destination field (all of it for an instruction without destinations).
  std::string reads = rest;
  if (!writesNothing(op)) {
    const size_t end = rest[0] == '{' ? rest.find('}') : rest.find(',');
    reads = end == std::string::npos ? "" : rest.substr(end + 1);
  }
  if (const auto g = guardOf(t)) reads += " " + g->reg;
  std::vector<std::string> out;
  for (const std::string& r : registers(reads))
    if (isPoolRegister(r) && std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
  return out;
}

}  // namespace warpsim::ptxgen::lines
