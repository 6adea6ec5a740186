// Internal to the PTX parser (isa/parser*.cpp); use isa/parser.h. One recursive-descent parser
// over the lexer's token vector, its grammar split by topic across files:
//   parser.cpp           the token cursor, errors, module scope, function headers
//   parser_decls.cpp     variable and parameter declarations, initializers
//   parser_body.cpp      function bodies: scopes and renaming, labels, .loc, instructions
//   parser_operands.cpp  instruction operands
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_set>
#include <vector>

#include "isa/ir.h"
#include "isa/lexer.h"
#include "isa/parser.h"

namespace warpsim::isa {

// Deepest `{ }` nesting accepted anywhere (bodies, initializers, .section blocks): malformed
// input must not exhaust the stack or memory.
inline constexpr int kMaxNesting = 256;

struct Linkage {
  bool isExtern = false;
  bool isVisible = false;
  bool isWeak = false;  // .weak or .common
};

// What a name declared in a body scope turned into.
struct ScopedName {
  std::string unique;       // the name in Function::locals and in rewritten uses
  bool isReg = false;       // declared in .reg: its uses are Reg operands, not Symbols
  int32_t rangeCount = -1;  // %r<N>: uses %r0..%r<N-1> match this entry
};

struct Scope {
  std::map<std::string, ScopedName, std::less<>> names;
  int ordinal = 0;  // the `$N` of names renamed here
};

class Parser {
 public:
  Parser(std::string_view text, const std::string& path, const OpcodeValidator& validate);
  ir::Module parse();

 private:
  // ---- token cursor and errors (parser.cpp) ----
  const Token& cur() const;  // the current token; throws the lexer's message at an Error token
  const Token& peek(size_t k) const;  // lookahead, no error check (an Error token compares false)
  const Token& advance();             // returns cur() and moves past it (never past the end)
  bool atEnd() const { return cur().kind == TokKind::End; }
  bool isPunct(char c, size_t k = 0) const;
  bool acceptPunct(char c);
  // Consumes punctuation `c` or fails with "expected 'c' <context>, found ...".
  void expectPunct(char c, std::string_view context);
  uint64_t expectInt(std::string_view what);
  uint32_t expectU32(std::string_view what);
  [[noreturn]] void fail(const Token& at, const std::string& message) const;
  [[noreturn]] void failAt(ir::SourceLoc at, const std::string& message) const;
  [[noreturn]] void failExpected(const std::string& what) const;  // "expected X, found <cur>"
  static ir::SourceLoc locOf(const Token& t) { return {t.line, t.col}; }

  // ---- module scope (parser.cpp) ----
  void parseModuleDirective();
  void parseVersion();
  void parseTarget();
  void parseAddressSize();
  void parseFile();
  void skipSection();
  void skipAlias();
  std::vector<std::string> parsePragmaList();
  void parseFunction(const Linkage& linkage, bool isEntry, ir::SourceLoc start);
  void parseParamList(std::vector<ir::VarDecl>& out, std::string_view what);
  void parsePerfDirectives(ir::Function& fn);
  void parseDims(uint32_t* dims, std::string_view directive);

  // ---- declarations (parser_decls.cpp) ----
  // From a space directive (.reg/.global/...) through the closing ';'; one VarDecl per name.
  std::vector<ir::VarDecl> parseVarDecls(const Linkage& linkage);
  ir::VarDecl parseParam();  // one `.param ...` entry of a parameter list
  void parseQualifiers(ir::VarDecl& d);
  void applyQualifier(ir::VarDecl& d, bool& haveSpace, std::string_view part, const Token& at);
  void parseDeclName(ir::VarDecl& d);
  void parseInitializer(ir::VarDecl& d);
  void parseInitGroup(ir::VarDecl& d, size_t level, int depth);
  ir::InitValue parseInitScalar();
  void skipParenthesized(std::string_view what);

  // ---- function bodies (parser_body.cpp) ----
  void parseBody(ir::Function& fn);
  void parseBodyDirective(ir::Function& fn);
  void declareLocal(ir::Function& fn, ir::VarDecl d);
  void declareInScope(ir::VarDecl& d, bool rename);
  bool nameTaken(const std::string& name, int32_t rangeCount) const;
  const ScopedName* lookup(std::string_view name, std::string_view* rangeIndex) const;
  // The unique name a use of `name` refers to, and whether it names a register.
  std::string resolve(std::string_view name, bool* isReg) const;
  void parseLoc();
  void parseLabelOrInstruction(ir::Function& fn);
  // `name: .branchtargets ...;`, `.calltargets ...;` or `.callprototype ...;` (the label read).
  void parseTargetList(ir::Function& fn, std::string name, ir::SourceLoc at);
  void parseInstruction(ir::Function& fn);

  // ---- operands (parser_operands.cpp) ----
  ir::Operand parseOperand();
  ir::Operand parseScalarOperand();
  ir::Operand parseNameOperand(const Token& t);
  ir::Operand parseImmediate(bool negative);
  ir::Operand parseAddress();
  ir::Operand parseBracketed(char close, ir::OperandKind kind, std::string_view what);

  std::string_view text_;
  std::string path_;
  const OpcodeValidator& validate_;
  LexResult lex_;
  size_t pos_ = 0;
  ir::Module module_;
  bool sawVersion_ = false, sawTarget_ = false, sawAddressSize_ = false;

  // Per function body.
  std::vector<Scope> scopes_;
  std::unordered_set<std::string> usedNames_;  // every unique name declared in the function
  // Register ranges and numbered single names among usedNames_, so that %r3 and %r<5> are
  // seen to collide: prefix -> range count, and prefix -> lowest index declared singly.
  std::map<std::string, int32_t, std::less<>> usedRanges_;
  std::map<std::string, uint32_t, std::less<>> numberedSingles_;
  int scopeCounter_ = 0;
  ir::CudaLoc cuda_;
  ir::CudaLoc inlinedAt_;
  // (file, line, col) of each inlined .loc -> its outermost call site, for chains of inlined_at.
  std::map<std::tuple<int, uint32_t, uint32_t>, ir::CudaLoc> inlineParents_;
};

// Splits "a.b.c" at the dots (no empty parts: the lexer never makes them).
std::vector<std::string_view> splitDots(std::string_view s);

// Whether `d` (".entry", ".loc", ...) is a PTX directive at all, so that one out of place is
// told apart from a misspelt one.
bool isKnownDirective(std::string_view d);

// `-x` for a float literal's raw bits: PTX negation flips the sign bit, NaNs included.
inline uint64_t negateFloatBits(uint64_t bits, bool isDouble) {
  return bits ^ (isDouble ? uint64_t{1} << 63 : uint64_t{1} << 31);
}

}  // namespace warpsim::isa
