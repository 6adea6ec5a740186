// The parser's token cursor and error reporting, module-scope directives and function headers.
#include "isa/parser.h"

#include <algorithm>
#include <limits>

#include "isa/parser_impl.h"

namespace warpsim::isa {

std::vector<std::string_view> splitDots(std::string_view s) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (start <= s.size()) {
    size_t dot = s.find('.', start);
    if (dot == std::string_view::npos) dot = s.size();
    if (dot > start) parts.push_back(s.substr(start, dot - start));
    start = dot + 1;
  }
  return parts;
}

bool isKnownDirective(std::string_view d) {
  // clang-format off
  static constexpr std::string_view kDirectives[] = {
      ".address_size", ".alias", ".align", ".branchtargets", ".callprototype", ".calltargets",
      ".common", ".const", ".entry", ".explicitcluster", ".extern", ".file", ".func", ".global",
      ".loc", ".local", ".maxclusterrank", ".maxnctapersm", ".maxnreg", ".maxntid",
      ".minnctapersm", ".noreturn", ".param", ".pragma", ".reg", ".reqnctapercluster",
      ".reqntid", ".section", ".shared", ".sreg", ".target", ".tex", ".version", ".visible",
      ".weak"};
  // clang-format on
  for (std::string_view k : kDirectives)
    if (d == k) return true;
  return false;
}

Parser::Parser(std::string_view text, const std::string& path, const OpcodeValidator& validate)
    : text_(text), path_(path), validate_(validate), lex_(lex(text)) {
  module_.path = path;
}

// ---- cursor ----------------------------------------------------------------------------------

const Token& Parser::peek(size_t k) const {
  size_t i = pos_ + k;
  return lex_.tokens[i < lex_.tokens.size() ? i : lex_.tokens.size() - 1];
}

const Token& Parser::cur() const {
  const Token& t = peek(0);
  if (t.kind == TokKind::Error) fail(t, lex_.error);
  return t;
}

const Token& Parser::advance() {
  const Token& t = cur();
  if (pos_ + 1 < lex_.tokens.size()) ++pos_;
  return t;
}

bool Parser::isPunct(char c, size_t k) const {
  const Token& t = peek(k);
  return t.kind == TokKind::Punct && t.punct == c;
}

bool Parser::acceptPunct(char c) {
  if (!isPunct(c)) return false;
  advance();
  return true;
}

void Parser::expectPunct(char c, std::string_view context) {
  if (acceptPunct(c)) return;
  std::string what = "'";
  what += c;
  what += "'";
  if (!context.empty()) {
    what += ' ';
    what += context;
  }
  failExpected(what);
}

uint64_t Parser::expectInt(std::string_view what) {
  const Token& t = cur();
  if (t.kind != TokKind::Int) failExpected(std::string(what));
  advance();
  return t.bits;
}

uint32_t Parser::expectU32(std::string_view what) {
  const Token& t = cur();
  uint64_t v = expectInt(what);
  if (v > std::numeric_limits<uint32_t>::max())
    fail(t, "number out of range (expected " + std::string(what) + "), found " + describeToken(t));
  return static_cast<uint32_t>(v);
}

void Parser::fail(const Token& at, const std::string& message) const { failAt(locOf(at), message); }

void Parser::failAt(ir::SourceLoc at, const std::string& message) const {
  throw PtxError(path_, at.line, at.col, message, lineOf(std::string(text_), at.line));
}

void Parser::failExpected(const std::string& what) const {
  const Token& t = cur();
  fail(t, "expected " + what + ", found " + describeToken(t));
}

// ---- module scope ----------------------------------------------------------------------------

ir::Module Parser::parse() {
  while (!atEnd()) parseModuleDirective();
  if (std::find(module_.pragmas.begin(), module_.pragmas.end(), "nounroll") !=
      module_.pragmas.end())
    for (ir::Function& fn : module_.functions) fn.nounrollLines.push_back(0);
  return std::move(module_);
}

void Parser::parseModuleDirective() {
  const Token& t = cur();
  if (t.kind != TokKind::Directive) {
    if (isPunct('}')) fail(t, "unexpected '}' at module scope (unbalanced braces)");
    failExpected("a directive at module scope");
  }
  const std::string_view d = t.text;
  if (d == ".version") return parseVersion();
  if (d == ".target") return parseTarget();
  if (d == ".address_size") return parseAddressSize();
  if (d == ".file") return parseFile();
  if (d == ".section") return skipSection();
  if (d == ".alias") return skipAlias();
  if (d == ".pragma") {
    for (std::string& p : parsePragmaList()) module_.pragmas.push_back(std::move(p));
    return;
  }

  ir::SourceLoc start = locOf(t);
  Linkage linkage;
  bool anyLinkage = false;
  while (true) {
    std::string_view l = cur().text;
    if (cur().kind != TokKind::Directive) break;
    if (l == ".extern") {
      linkage.isExtern = true;
    } else if (l == ".visible") {
      linkage.isVisible = true;
    } else if (l == ".weak" || l == ".common") {
      linkage.isWeak = true;
    } else {
      break;
    }
    anyLinkage = true;
    advance();
  }
  const Token& what = cur();
  if (what.kind == TokKind::Directive) {
    if (what.text == ".entry" || what.text == ".func") {
      bool isEntry = what.text == ".entry";
      advance();
      return parseFunction(linkage, isEntry, start);
    }
    std::string_view head = splitDots(what.text).front();
    if (head == "global" || head == "const" || head == "shared" || head == "local" ||
        head == "tex") {
      for (ir::VarDecl& v : parseVarDecls(linkage)) module_.globals.push_back(std::move(v));
      return;
    }
  }
  if (what.kind == TokKind::Directive && !anyLinkage) {
    if (isKnownDirective(what.text))
      fail(what, "unexpected directive " + describeToken(what) + " at module scope");
    fail(what, "unknown directive " + describeToken(what));
  }
  failExpected("'.entry', '.func' or a variable declaration after linkage");
}

void Parser::parseVersion() {
  advance();
  const Token& t = cur();
  // "9.0" lexes as a decimal float; its text is what matters.
  std::string_view v = t.text;
  size_t dot = v.find('.');
  bool wellFormed = t.kind == TokKind::Float && dot != std::string_view::npos && dot > 0 &&
                    dot + 1 < v.size() &&
                    v.find_first_not_of("0123456789.") == std::string_view::npos;
  if (!wellFormed) failExpected("a PTX ISA version 'major.minor' after .version");
  if (sawVersion_) fail(t, "duplicate .version directive");
  int major = 0;
  if (dot <= 2)
    for (char c : v.substr(0, dot)) major = major * 10 + (c - '0');
  if (major < 7 || major > 9)
    fail(t, "unsupported PTX ISA version '" + std::string(v) + "' (supported: 7.x, 8.x, 9.x)");
  sawVersion_ = true;
  module_.version = std::string(v);
  advance();
}

void Parser::parseTarget() {
  advance();
  if (sawTarget_) fail(cur(), "duplicate .target directive");
  if (cur().kind != TokKind::Word) failExpected("a target architecture after .target");
  module_.target = std::string(advance().text);
  sawTarget_ = true;
  while (acceptPunct(',')) {
    if (cur().kind != TokKind::Word) failExpected("a target option after ','");
    const ir::SourceLoc at = locOf(cur());
    module_.targetOptions.emplace_back(advance().text);
    // Independent texture mode (samplers as .samplerref variables; nvcc never emits it): the
    // sm_90 driver does not load such a module (cuModuleLoadData, on the H200).
    if (module_.targetOptions.back() == "texmode_independent")
      throw PtxError(path_, at.line, at.col,
                     "the CUDA driver for sm_90 does not load a module in independent texture "
                     "mode (.texmode_independent): CUDA_ERROR_NOT_FOUND, as on the chip",
                     lineOf(std::string(text_), at.line), Refusal::ModuleNotFound);
  }
}

void Parser::parseAddressSize() {
  advance();
  const Token& t = cur();
  uint64_t size = expectInt("an address size after .address_size");
  if (size != 32 && size != 64) fail(t, "address size must be 32 or 64, found " + describeToken(t));
  if (sawAddressSize_) fail(t, "duplicate .address_size directive");
  sawAddressSize_ = true;
  module_.addressSize = static_cast<uint32_t>(size);
}

void Parser::parseFile() {
  advance();
  const Token& idx = cur();
  uint64_t index = expectInt("a file index after .file");
  if (index > static_cast<uint64_t>(std::numeric_limits<int>::max()))
    fail(idx, "file index out of range: " + describeToken(idx));
  if (cur().kind != TokKind::String) failExpected("a file name string after the .file index");
  module_.files[static_cast<int>(index)] = decodeString(advance().text);
  // Optional `, timestamp, size` (both may be 0).
  if (acceptPunct(',')) {
    expectInt("a timestamp after ','");
    if (acceptPunct(',')) expectInt("a file size after ','");
  }
}

void Parser::skipSection() {
  // DWARF sections (.debug_str, .debug_info, ...) are not needed to simulate; their contents
  // are lexed (so garbage is still reported) and skipped with balanced braces.
  advance();
  if (cur().kind != TokKind::Directive && cur().kind != TokKind::Word)
    failExpected("a section name after .section");
  advance();
  expectPunct('{', "to open the .section block");
  int depth = 1;
  while (depth > 0) {
    const Token& t = cur();
    if (t.kind == TokKind::End)
      fail(t, "expected '}' to close the .section block, found end of file");
    if (isPunct('{')) {
      if (++depth > kMaxNesting) fail(t, "braces nested deeper than 256 levels");
    } else if (isPunct('}')) {
      --depth;
    }
    advance();
  }
}

void Parser::skipAlias() {
  // `.alias alias, aliasee;`: the simulator resolves calls by name, so aliases are not kept.
  advance();
  if (cur().kind != TokKind::Word) failExpected("an alias name after .alias");
  advance();
  expectPunct(',', "after the alias name");
  if (cur().kind != TokKind::Word) failExpected("the aliased function's name");
  advance();
  expectPunct(';', "after .alias");
}

std::vector<std::string> Parser::parsePragmaList() {
  advance();
  std::vector<std::string> out;
  do {
    if (cur().kind != TokKind::String) failExpected("a string after .pragma");
    out.push_back(decodeString(advance().text));
  } while (acceptPunct(','));
  expectPunct(';', "after .pragma");
  return out;
}

// ---- function headers ------------------------------------------------------------------------

void Parser::parseFunction(const Linkage& linkage, bool isEntry, ir::SourceLoc start) {
  ir::Function fn;
  fn.isEntry = isEntry;
  fn.isExtern = linkage.isExtern;
  fn.isVisible = linkage.isVisible;
  fn.isWeak = linkage.isWeak;
  fn.loc = start;
  if (!isEntry && isPunct('(')) parseParamList(fn.returns, "return value list");
  const Token& name = cur();
  if (name.kind != TokKind::Word || name.text.find('.') != std::string_view::npos)
    failExpected(isEntry ? "a kernel name after .entry" : "a function name after .func");
  fn.name = std::string(name.text);
  advance();
  if (isPunct('(')) parseParamList(fn.params, "parameter list");
  parsePerfDirectives(fn);
  if (acceptPunct(';')) {
    fn.hasBody = false;
  } else if (isPunct('{')) {
    fn.hasBody = true;
    parseBody(fn);
  } else {
    failExpected("'{' or ';' after the header of '" + fn.name + "'");
  }
  module_.functions.push_back(std::move(fn));
}

void Parser::parseParamList(std::vector<ir::VarDecl>& out, std::string_view what) {
  advance();  // '('
  if (acceptPunct(')')) return;
  while (true) {
    out.push_back(parseParam());
    if (acceptPunct(',')) continue;
    if (acceptPunct(')')) return;
    failExpected("',' or ')' in " + std::string(what));
  }
}

void Parser::parseDims(uint32_t* dims, std::string_view directive) {
  // One to three comma-separated sizes; the missing ones are 1, as PTX defines.
  const std::string what = "a size after " + std::string(directive);
  dims[0] = expectU32(what);
  dims[1] = dims[2] = 1;
  if (acceptPunct(',')) {
    dims[1] = expectU32(what);
    if (acceptPunct(',')) dims[2] = expectU32(what);
  }
}

void Parser::parsePerfDirectives(ir::Function& fn) {
  while (cur().kind == TokKind::Directive) {
    const Token& t = cur();
    std::string_view d = t.text;
    if (d == ".maxntid") {
      advance();
      parseDims(fn.maxntid, d);
    } else if (d == ".reqntid") {
      advance();
      parseDims(fn.reqntid, d);
    } else if (d == ".reqnctapercluster") {
      advance();
      parseDims(fn.reqnctapercluster, d);
    } else if (d == ".minnctapersm" || d == ".maxnctapersm") {
      // .maxnctapersm is the deprecated spelling of .minnctapersm.
      advance();
      fn.minnctapersm = expectU32("a count after " + std::string(d));
    } else if (d == ".maxnreg") {
      advance();
      fn.maxnreg = expectU32("a register count after .maxnreg");
    } else if (d == ".maxclusterrank") {
      advance();
      fn.maxclusterrank = expectU32("a count after .maxclusterrank");
    } else if (d == ".noreturn") {
      advance();
      fn.noreturn = true;
    } else if (d == ".explicitcluster") {
      advance();
      fn.explicitCluster = true;
    } else if (d == ".pragma") {
      for (std::string& p : parsePragmaList()) {
        if (p == "nounroll") fn.nounrollLines.push_back(0);  // in the header: every loop
        fn.pragmas.push_back(std::move(p));
      }
    } else {
      return;  // the caller reports what is out of place
    }
  }
}

ir::Module parseModule(const std::string& text, const std::string& path,
                       const OpcodeValidator& validate) {
  return Parser(text, path, validate).parse();
}

}  // namespace warpsim::isa
