// Function bodies: nested scopes and the renaming of repeated names, labels, .loc tracking,
// body-level directives and instructions.
#include <limits>

#include "isa/parser_impl.h"

namespace warpsim::isa {
namespace {

// "%r12" -> ("%r", "12"); no index when there are no trailing digits or they have a leading 0
// (%r<5> names its members %r0..%r4, never %r01).
bool splitIndex(std::string_view name, std::string_view& prefix, std::string_view& digits,
                uint32_t& index) {
  size_t i = name.size();
  while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9') --i;
  digits = name.substr(i);
  prefix = name.substr(0, i);
  if (digits.empty() || prefix.empty() || digits.size() > 9) return false;
  if (digits.size() > 1 && digits[0] == '0') return false;
  index = 0;
  for (char c : digits) index = index * 10 + static_cast<uint32_t>(c - '0');
  return true;
}

bool isSpaceHead(std::string_view head) {
  return head == "reg" || head == "local" || head == "shared" || head == "param" ||
         head == "const" || head == "global" || head == "tex" || head == "sreg";
}

}  // namespace

void Parser::parseBody(ir::Function& fn) {
  scopes_.clear();
  usedNames_.clear();
  usedRanges_.clear();
  numberedSingles_.clear();
  scopeCounter_ = 0;
  cuda_ = {};
  inlinedAt_ = {};
  inlineParents_.clear();
  // The outermost scope holds the parameters, so that a body declaration repeating one of
  // them is renamed like any other shadowing declaration.
  scopes_.emplace_back();
  for (ir::VarDecl& p : fn.returns) declareInScope(p, false);
  for (ir::VarDecl& p : fn.params) declareInScope(p, false);
  advance();  // '{'
  scopes_.emplace_back();
  // Scopes are a stack and not recursion, so depth is bounded by the check below alone.
  while (true) {
    const Token& t = cur();
    if (t.kind == TokKind::End)
      fail(t, "expected '}' to close the body of '" + fn.name + "', found end of file");
    if (isPunct('}')) {
      advance();
      scopes_.pop_back();
      if (scopes_.size() == 1) break;
    } else if (isPunct('{')) {
      if (scopes_.size() > static_cast<size_t>(kMaxNesting))
        fail(t, "scopes nested deeper than 256 levels");
      advance();
      scopes_.emplace_back();
      scopes_.back().ordinal = ++scopeCounter_;
    } else if (t.kind == TokKind::Directive) {
      parseBodyDirective(fn);
    } else if (t.kind == TokKind::Word || isPunct('@')) {
      parseLabelOrInstruction(fn);
    } else {
      failExpected("a statement");
    }
  }
  scopes_.clear();
}

void Parser::parseBodyDirective(ir::Function& fn) {
  const Token& t = cur();
  const std::string_view d = t.text;
  if (d == ".loc") return parseLoc();
  if (d == ".pragma") {
    const uint32_t line = t.line;
    for (std::string& p : parsePragmaList()) {
      if (p == "nounroll") fn.nounrollLines.push_back(line);
      fn.pragmas.push_back(std::move(p));
    }
    return;
  }
  if (isSpaceHead(splitDots(d).front())) {
    for (ir::VarDecl& v : parseVarDecls(Linkage{})) declareLocal(fn, std::move(v));
    return;
  }
  if (d == ".entry" || d == ".func" || d == ".visible" || d == ".extern" || d == ".weak")
    fail(t, "unexpected directive " + describeToken(t) + " in the body of '" + fn.name +
                "' (missing '}'?)");
  if (isKnownDirective(d))
    fail(t, "unexpected directive " + describeToken(t) + " in a function body");
  fail(t, "unknown directive " + describeToken(t));
}

// ---- scopes ----------------------------------------------------------------------------------

bool Parser::nameTaken(const std::string& name, int32_t rangeCount) const {
  if (usedNames_.count(name)) return true;
  std::string_view prefix, digits;
  uint32_t index = 0;
  if (rangeCount < 0) {
    if (!splitIndex(name, prefix, digits, index)) return false;
    auto it = usedRanges_.find(prefix);
    return it != usedRanges_.end() && index < static_cast<uint32_t>(it->second);
  }
  auto it = numberedSingles_.find(name);
  return it != numberedSingles_.end() && it->second < static_cast<uint32_t>(rangeCount);
}

void Parser::declareInScope(ir::VarDecl& d, bool rename) {
  Scope& s = scopes_.back();
  if (s.names.count(d.name)) failAt(d.loc, "redeclaration of '" + d.name + "'");
  std::string unique = d.name;
  if (nameTaken(unique, d.rangeCount)) {
    if (!rename) failAt(d.loc, "redeclaration of '" + d.name + "'");
    // A range's members are prefix+index, so a renamed prefix must not end in a digit:
    // %r<3> becomes %r$2_ (members %r$2_0..%r$2_2), which strips back to its prefix.
    const std::string tail = d.rangeCount >= 0 ? "_" : "";
    const std::string base = d.name + "$" + std::to_string(s.ordinal);
    unique = base + tail;
    for (int k = 1; nameTaken(unique, d.rangeCount); ++k)
      unique = base + "_" + std::to_string(k) + tail;
  }
  usedNames_.insert(unique);
  std::string_view prefix, digits;
  uint32_t index = 0;
  if (d.rangeCount >= 0) {
    int32_t& count = usedRanges_[unique];
    count = std::max(count, d.rangeCount);
  } else if (splitIndex(unique, prefix, digits, index)) {
    auto [it, inserted] = numberedSingles_.emplace(std::string(prefix), index);
    if (!inserted) it->second = std::min(it->second, index);
  }
  s.names.emplace(d.name, ScopedName{unique, d.space == ir::StateSpace::Reg, d.rangeCount});
  d.name = std::move(unique);
}

void Parser::declareLocal(ir::Function& fn, ir::VarDecl d) {
  declareInScope(d, true);
  fn.locals.push_back(std::move(d));
}

const ScopedName* Parser::lookup(std::string_view name, std::string_view* rangeIndex) const {
  std::string_view prefix, digits;
  uint32_t index = 0;
  const bool indexed = splitIndex(name, prefix, digits, index);
  for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s) {
    auto it = s->names.find(name);
    if (it != s->names.end() && it->second.rangeCount < 0) {
      *rangeIndex = {};
      return &it->second;
    }
    if (indexed) {
      auto r = s->names.find(prefix);
      if (r != s->names.end() && r->second.rangeCount >= 0 &&
          index < static_cast<uint32_t>(r->second.rangeCount)) {
        *rangeIndex = digits;
        return &r->second;
      }
    }
  }
  return nullptr;
}

std::string Parser::resolve(std::string_view name, bool* isReg) const {
  std::string_view rangeIndex;
  const ScopedName* e = scopes_.empty() ? nullptr : lookup(name, &rangeIndex);
  if (!e) {
    // Undeclared: special registers (%tid.x) and %-names are registers; anything else is a
    // label, function or module variable.
    *isReg = !name.empty() && name[0] == '%';
    return std::string(name);
  }
  *isReg = e->isReg;
  if (rangeIndex.empty()) return e->unique;
  return e->unique + std::string(rangeIndex);
}

// ---- statements ------------------------------------------------------------------------------

void Parser::parseLoc() {
  advance();
  auto readLoc = [this](ir::CudaLoc& loc, const char* after) {
    const Token& f = cur();
    uint64_t file = expectInt(std::string("a file index after ") + after);
    if (file > static_cast<uint64_t>(std::numeric_limits<int>::max()))
      fail(f, "file index out of range: " + describeToken(f));
    loc.file = static_cast<int>(file);
    loc.line = expectU32("a line number after the file index");
    if (cur().kind == TokKind::Int) loc.col = expectU32("a column number");
  };
  ir::CudaLoc loc, inlined;
  readLoc(loc, ".loc");
  while (acceptPunct(',')) {
    const Token& key = cur();
    if (key.kind == TokKind::Word && key.text == "function_name") {
      advance();
      if (cur().kind != TokKind::Word) failExpected("a label after function_name");
      advance();
      if (acceptPunct('+')) expectInt("an offset after '+'");
    } else if (key.kind == TokKind::Word && key.text == "inlined_at") {
      advance();
      readLoc(inlined, "inlined_at");
    } else {
      failExpected("'function_name' or 'inlined_at' in .loc");
    }
  }
  cuda_ = loc;
  // A helper inlined into a helper: `.loc 2 3 3, ..., inlined_at 2 7 3` follows a `.loc 2 7 3,
  // ..., inlined_at 1 3 3`; the user's frame is the outermost one (1 3 3).
  if (inlined.known()) {
    auto it = inlineParents_.find({inlined.file, inlined.line, inlined.col});
    if (it != inlineParents_.end()) inlined = it->second;
    inlineParents_[{loc.file, loc.line, loc.col}] = inlined;
  }
  inlinedAt_ = inlined;
}

void Parser::parseTargetList(ir::Function& fn, std::string name, ir::SourceLoc at) {
  if (ir::findList(fn, name)) failAt(at, "'" + name + "' names a second list in '" + fn.name + "'");
  ir::TargetList list;
  list.name = std::move(name);
  list.loc = at;
  const std::string directive(advance().text);
  if (directive == ".callprototype") {
    // .callprototype [(ret-param)] _ [(param-list)] [.noreturn];
    list.kind = ir::TargetList::Kind::CallPrototype;
    if (isPunct('(')) parseParamList(list.returns, "return value of .callprototype");
    if (cur().kind != TokKind::Word || cur().text != "_")
      failExpected("'_' (the function name) in .callprototype");
    advance();
    if (isPunct('(')) parseParamList(list.params, "parameter list of .callprototype");
    while (cur().kind == TokKind::Directive) {
      if (cur().text != ".noreturn" && cur().text != ".abi_preserve" &&
          cur().text != ".abi_preserve_control")
        failExpected("';' after .callprototype");
      if (advance().text == ".noreturn")
        list.noreturn = true;
      else
        expectInt("a register count after .abi_preserve");
    }
  } else {
    list.kind = directive == ".branchtargets" ? ir::TargetList::Kind::BranchTargets
                                              : ir::TargetList::Kind::CallTargets;
    const char* what =
        directive == ".branchtargets" ? "a label in .branchtargets" : "a function in .calltargets";
    while (true) {
      if (cur().kind != TokKind::Word || cur().text == "_") failExpected(what);
      list.names.emplace_back(advance().text);
      if (!acceptPunct(',')) break;
    }
  }
  expectPunct(';', "after " + directive);
  fn.lists.push_back(std::move(list));
}

void Parser::parseLabelOrInstruction(ir::Function& fn) {
  const Token& t = cur();
  if (t.kind == TokKind::Word && isPunct(':', 1)) {
    if (t.text.find('.') != std::string_view::npos || t.text[0] == '%')
      fail(t, "invalid label name " + describeToken(t));
    advance();
    advance();
    const Token& next = cur();
    // `proto: .callprototype ...;`, `tbl: .branchtargets ...;` and `t: .calltargets ...;` name
    // lists, not code positions (brx.idx and indirect calls name them).
    if (next.kind == TokKind::Directive &&
        (next.text == ".callprototype" || next.text == ".branchtargets" ||
         next.text == ".calltargets")) {
      parseTargetList(fn, std::string(t.text), locOf(t));
      return;
    }
    ir::Statement& st = fn.body.emplace_back();
    st.kind = ir::Statement::Kind::Label;
    st.label = std::string(t.text);
    return;
  }
  parseInstruction(fn);
}

void Parser::parseInstruction(ir::Function& fn) {
  ir::Statement st;
  st.kind = ir::Statement::Kind::Instr;
  ir::Instruction& in = st.instr;
  in.loc = locOf(cur());
  if (acceptPunct('@')) {
    in.guardNegated = acceptPunct('!');
    const Token& g = cur();
    if (g.kind != TokKind::Word || g.text == "_") failExpected("a predicate register after '@'");
    bool isReg = false;
    in.guard = resolve(g.text, &isReg);
    advance();
  }
  const Token& op = cur();
  const char c0 = op.kind == TokKind::Word ? op.text[0] : '\0';
  if (!((c0 >= 'a' && c0 <= 'z') || (c0 >= 'A' && c0 <= 'Z'))) failExpected("an instruction");
  std::vector<std::string_view> parts = splitDots(op.text);
  in.opcode = std::string(parts[0]);
  in.mods.reserve(parts.size() - 1);
  for (size_t i = 1; i < parts.size(); ++i) in.mods.emplace_back(parts[i]);
  advance();
  if (!isPunct(';') && !atEnd()) {
    while (true) {
      in.operands.push_back(parseOperand());
      if (!acceptPunct(',')) break;
    }
  }
  if (!isPunct(';')) failExpected("';' after instruction");
  advance();
  in.cuda = cuda_;
  in.inlinedAt = inlinedAt_;
  if (validate_) {
    std::string message = validate_(in);
    if (!message.empty()) fail(op, message);
  }
  fn.body.push_back(std::move(st));
}

}  // namespace warpsim::isa
