#include "isa/ptx_link.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <unordered_map>

#include "isa/diagnostic.h"
#include "isa/ir.h"
#include "isa/lexer.h"
#include "isa/parser.h"

namespace warpsim::isa {
namespace {

// What one unit says of a module-scope name (a function or a variable).
struct Mention {
  unsigned unit = 0;
  bool defined = false;  // a function with a body, a variable not .extern
  bool visible = false;
  bool weak = false;
  bool isExtern = false;
  ir::SourceLoc loc;
  bool internal() const { return defined && !visible && !weak && !isExtern; }
};

using Mentions = std::map<std::string, std::vector<Mention>>;

void mention(Mentions& all, const std::string& name, Mention m) {
  std::vector<Mention>& ms = all[name];
  for (Mention& e : ms)
    if (e.unit == m.unit) {  // a declaration and the definition in one unit: one mention
      if (m.defined) e = m;
      return;
    }
  ms.push_back(m);
}

[[noreturn]] void fail(const PtxUnit& u, ir::SourceLoc at, const std::string& message) {
  throw PtxError(u.path, std::max(1u, at.line), std::max(1u, at.col), message,
                 lineOf(u.text, std::max(1u, at.line)));
}

// "9.0" -> 90 (minor below 10 in every PTX version).
unsigned versionRank(const std::string& v) {
  unsigned major = 0, minor = 0;
  std::sscanf(v.c_str(), "%u.%u", &major, &minor);
  return major * 10 + minor;
}

// sm_90a ranks above sm_90, which ranks above sm_89.
unsigned targetRank(const std::string& t) {
  unsigned sm = 0;
  std::sscanf(t.c_str(), "sm_%u", &sm);
  return sm * 4 + (!t.empty() && (t.back() == 'a' || t.back() == 'f') ? 1 : 0);
}

// What one unit renames: every use of a name (a private symbol kept apart from another unit's
// of the same name), or only a definition's own name (a weak definition that yields: the
// unit's uses then reach the definition that stays).
struct Renames {
  std::unordered_map<std::string, std::string> everywhere;
  struct Definition {
    std::string name, fresh;
    ir::SourceLoc from;  // the definition's first name token at or after this is renamed
  };
  std::vector<Definition> definitions;
};

std::vector<Renames> renamesOf(const std::vector<PtxUnit>& units, const Mentions& all) {
  std::vector<Renames> renames(units.size());
  auto freshName = [&](const std::string& name, unsigned unit) {
    std::string fresh = name + "$u" + std::to_string(unit + 1);
    while (all.count(fresh)) fresh += "$";
    return fresh;
  };
  for (const auto& [name, ms] : all) {
    const Mention* strong = nullptr;
    for (const Mention& m : ms) {
      if (!m.defined || !m.visible || m.weak) continue;
      if (strong)
        fail(units[m.unit], m.loc,
             "'" + name + "' is defined in " + units[strong->unit].path + " and again here: a " +
                 ".visible symbol has one definition among the linked units (make one .extern, "
                 ".weak or static)");
      strong = &m;
    }
    const Mention* keeper = strong;
    for (const Mention& m : ms) {
      if (m.weak && m.defined) {
        if (!keeper) keeper = &m;
        if (keeper != &m)
          renames[m.unit].definitions.push_back({name, freshName(name, m.unit), m.loc});
      } else if (m.internal() && ms.size() > 1) {
        renames[m.unit].everywhere[name] = freshName(name, m.unit);
      }
    }
  }
  return renames;
}

bool isHeader(std::string_view directive) {
  return directive == ".version" || directive == ".target" || directive == ".address_size";
}

// Unit `u`'s text with its header removed, its names renamed (`renames`) and its `.file` indices
// (in `.file`, `.loc` and `.loc`'s inlined_at) moved up by `fileShift`.
std::string rewrite(const PtxUnit& u, const Renames& renames, int fileShift) {
  std::vector<bool> defined(renames.definitions.size(), false);
  const LexResult lexed = lex(u.text);
  std::string out;
  out.reserve(u.text.size() + 64);
  size_t copied = 0;  // u.text before this offset is in `out`
  auto offsetOf = [&](const Token& t) { return size_t(t.text.data() - u.text.data()); };
  auto replace = [&](const Token& t, const std::string& with) {
    const size_t at = offsetOf(t);
    out.append(u.text, copied, at - copied);
    out += with;
    copied = at + t.text.size();
  };
  const std::vector<Token>& ts = lexed.tokens;
  for (size_t i = 0; i < ts.size(); ++i) {
    const Token& t = ts[i];
    if (t.kind == TokKind::End || t.kind == TokKind::Error) break;
    if (t.kind == TokKind::Directive && isHeader(t.text)) {
      // Drop the directive and the rest of its line (the linked header is written once).
      const size_t at = offsetOf(t);
      out.append(u.text, copied, at - copied);
      const size_t eol = u.text.find('\n', at);
      copied = eol == std::string::npos ? u.text.size() : eol;
      while (i + 1 < ts.size() && ts[i + 1].kind != TokKind::End && offsetOf(ts[i + 1]) < copied)
        ++i;
      continue;
    }
    const bool fileIndexNext =
        (t.kind == TokKind::Directive && (t.text == ".file" || t.text == ".loc")) ||
        (t.kind == TokKind::Word && t.text == "inlined_at");
    if (fileIndexNext && fileShift && i + 1 < ts.size() && ts[i + 1].kind == TokKind::Int) {
      replace(ts[i + 1], std::to_string(ts[i + 1].bits + uint64_t(fileShift)));
      ++i;
      continue;
    }
    if (t.kind != TokKind::Word) continue;
    if (auto it = renames.everywhere.find(std::string(t.text)); it != renames.everywhere.end()) {
      replace(t, it->second);
      continue;
    }
    for (size_t k = 0; k < renames.definitions.size(); ++k) {
      const Renames::Definition& d = renames.definitions[k];
      const bool after = t.line > d.from.line || (t.line == d.from.line && t.col >= d.from.col);
      if (!defined[k] && after && t.text == d.name) {
        replace(t, d.fresh);
        defined[k] = true;
        break;
      }
    }
  }
  out.append(u.text, copied, std::string::npos);
  return out;
}

}  // namespace

std::string linkPtx(const std::vector<PtxUnit>& units) {
  if (units.size() == 1) return units.front().text;
  std::vector<ir::Module> modules;
  modules.reserve(units.size());
  for (const PtxUnit& u : units) modules.push_back(parseModule(u.text, u.path));

  Mentions all;
  for (unsigned k = 0; k < modules.size(); ++k) {
    for (const ir::Function& f : modules[k].functions)
      mention(all, f.name, {k, f.hasBody, f.isVisible, f.isWeak, f.isExtern, f.loc});
    for (const ir::VarDecl& g : modules[k].globals)
      mention(all, g.name, {k, !g.isExtern, g.isVisible, g.isWeak, g.isExtern, g.loc});
  }
  const auto renames = renamesOf(units, all);

  const ir::Module* newest = &modules.front();
  unsigned version = 0;
  for (unsigned k = 0; k < modules.size(); ++k) {
    const ir::Module& m = modules[k];
    if (m.addressSize != modules.front().addressSize)
      fail(units[k], {1, 1},
           ".address_size " + std::to_string(m.addressSize) + " differs from " +
               units.front().path + "'s " + std::to_string(modules.front().addressSize) +
               ": units of one link share an address size");
    version = std::max(version, versionRank(m.version));
    if (targetRank(m.target) > targetRank(newest->target)) newest = &m;
  }
  std::string out = "//\n// Linked by warpsim from " + std::to_string(units.size()) +
                    " translation units\n//\n\n.version " + std::to_string(version / 10) + "." +
                    std::to_string(version % 10) + "\n.target " + newest->target;
  for (const std::string& o : newest->targetOptions) out += ", " + o;
  out += "\n.address_size " + std::to_string(newest->addressSize) + "\n";

  int highest = -1;  // the highest .file index of the units written so far, renumbered
  for (unsigned k = 0; k < units.size(); ++k) {
    const std::map<int, std::string>& files = modules[k].files;
    // The unit's lowest index goes right after the last unit's highest.
    const int shift = files.empty() ? 0 : std::max(0, highest + 1 - files.begin()->first);
    out += "\n// ---- unit " + std::to_string(k + 1) + ": " + units[k].path + "\n";
    out += rewrite(units[k], renames[k], shift);
    if (out.back() != '\n') out += '\n';
    if (!files.empty()) highest = files.rbegin()->first + shift;
  }
  return out;
}

}  // namespace warpsim::isa
