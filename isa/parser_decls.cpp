// Variable and parameter declarations: state-space qualifiers, names, register ranges, array
// dimensions and initializers.
#include <limits>

#include "isa/parser_impl.h"

namespace warpsim::isa {
namespace {

bool spaceOf(std::string_view part, ir::StateSpace& out) {
  static constexpr std::pair<std::string_view, ir::StateSpace> kSpaces[] = {
      {"reg", ir::StateSpace::Reg},       {"sreg", ir::StateSpace::Sreg},
      {"const", ir::StateSpace::Const},   {"global", ir::StateSpace::Global},
      {"local", ir::StateSpace::Local},   {"param", ir::StateSpace::Param},
      {"shared", ir::StateSpace::Shared}, {"tex", ir::StateSpace::Tex}};
  for (const auto& [name, space] : kSpaces) {
    if (part == name) {
      out = space;
      return true;
    }
  }
  return false;
}

// Scalars spanned by one brace group at nesting `level` of `d`'s initializer (level i covers
// dims[i..], then the vector lanes or the scalar itself); 0 when unknown (an unsized
// dimension, or braces deeper than the type has structure): such a group is neither checked
// nor padded.
uint64_t groupSize(const ir::VarDecl& d, size_t level) {
  if (level > d.dims.size()) return 0;
  if (level == d.dims.size()) return d.vecWidth;
  uint64_t n = d.vecWidth;
  for (size_t i = level; i < d.dims.size(); ++i) {
    if (d.dims[i] == 0 || n > std::numeric_limits<uint64_t>::max() / d.dims[i]) return 0;
    n *= d.dims[i];
  }
  return n;
}

// Zero padding of short inner groups (`{{1}, {2, 3}}` for [2][2]) beyond this is refused: the
// text did not spell those elements out, so a huge dimension must not turn into huge memory.
constexpr uint64_t kMaxPadding = uint64_t{1} << 20;

}  // namespace

std::vector<ir::VarDecl> Parser::parseVarDecls(const Linkage& linkage) {
  ir::VarDecl proto;
  proto.isExtern = linkage.isExtern;
  proto.isVisible = linkage.isVisible;
  proto.isWeak = linkage.isWeak;
  parseQualifiers(proto);
  std::vector<ir::VarDecl> out;
  while (true) {
    ir::VarDecl d = proto;
    parseDeclName(d);
    if (isPunct('=')) {
      if (d.space == ir::StateSpace::Reg || d.space == ir::StateSpace::Param)
        fail(cur(), "an initializer is not allowed on a ." +
                        std::string(d.space == ir::StateSpace::Reg ? "reg" : "param") +
                        " variable");
      advance();
      parseInitializer(d);
    }
    out.push_back(std::move(d));
    if (acceptPunct(',')) continue;
    expectPunct(';', "after declaration");
    return out;
  }
}

ir::VarDecl Parser::parseParam() {
  const Token& t = cur();
  std::string_view head = t.kind == TokKind::Directive ? splitDots(t.text).front() : "";
  if (head != "param" && head != "reg") failExpected("'.param' in parameter list");
  ir::VarDecl d;
  parseQualifiers(d);
  parseDeclName(d);
  return d;
}

void Parser::parseQualifiers(ir::VarDecl& d) {
  bool haveSpace = false;
  while (cur().kind == TokKind::Directive) {
    const Token& t = cur();
    // A chained qualifier such as `.ptr.global.align 16` is taken part by part.
    std::vector<std::string_view> parts = splitDots(t.text);
    std::string_view trailing;
    for (size_t i = 0; i < parts.size(); ++i) {
      if (parts[i] == "align" || parts[i] == "attribute") {
        if (i + 1 != parts.size())
          fail(t, "'." + std::string(parts[i]) + "' must be followed by its argument");
        trailing = parts[i];
      } else {
        applyQualifier(d, haveSpace, parts[i], t);
      }
    }
    advance();
    if (trailing == "align") {
      const Token& a = cur();
      uint64_t v = expectInt("an alignment after .align");
      if (v == 0 || (v & (v - 1)) != 0 || v > (uint64_t{1} << 31))
        fail(a, "alignment must be a power of two, found " + describeToken(a));
      (d.ptrAttr ? d.ptrAlign : d.align) = static_cast<uint32_t>(v);
    } else if (trailing == "attribute") {
      // `.attribute(.managed)` and the like: not modelled, skipped whole.
      skipParenthesized(".attribute");
    }
  }
  if (d.type.empty()) failExpected("a type in declaration");
}

void Parser::applyQualifier(ir::VarDecl& d, bool& haveSpace, std::string_view part,
                            const Token& at) {
  ir::StateSpace space;
  if (spaceOf(part, space)) {
    if (!haveSpace) {
      d.space = space;
      haveSpace = true;
      return;
    }
    bool pointee = space == ir::StateSpace::Global || space == ir::StateSpace::Shared ||
                   space == ir::StateSpace::Const || space == ir::StateSpace::Local;
    if (d.ptrAttr && d.ptrSpace.empty() && pointee) {
      d.ptrSpace = std::string(part);
      return;
    }
    fail(at, "unexpected '." + std::string(part) + "' in declaration");
  }
  if (part == "ptr") {
    if (d.ptrAttr) fail(at, "duplicate '.ptr' in declaration");
    d.ptrAttr = true;
  } else if (part == "v2" || part == "v4" || part == "v8") {
    if (d.vecWidth != 1) fail(at, "duplicate vector width '." + std::string(part) + "'");
    d.vecWidth = static_cast<uint32_t>(part[1] - '0');
  } else if (ir::typeBytes(std::string(part)) > 0) {
    if (!d.type.empty())
      fail(at, "declaration has two types, '." + d.type + "' and '." + std::string(part) + "'");
    d.type = std::string(part);
  } else {
    fail(at, "unknown qualifier '." + std::string(part) + "' in declaration");
  }
}

void Parser::parseDeclName(ir::VarDecl& d) {
  const Token& t = cur();
  const bool isReg = d.space == ir::StateSpace::Reg;
  if (t.kind != TokKind::Word || t.text.find('.') != std::string_view::npos)
    failExpected(isReg ? "register name" : "variable name");
  d.name = std::string(t.text);
  d.loc = locOf(t);
  advance();
  if (isPunct('<')) {
    if (!isReg) fail(cur(), "a '<N>' register range is only allowed in .reg declarations");
    advance();
    const Token& n = cur();
    uint64_t count = expectInt("a register count after '<'");
    if (count == 0) fail(n, "register range count must be positive");
    if (count > ir::kMaxRegistersPerFunction)
      fail(n, "register range count " + describeToken(n) + " exceeds the limit of " +
                  std::to_string(ir::kMaxRegistersPerFunction) + " registers per function");
    expectPunct('>', "after the register count");
    d.rangeCount = static_cast<int32_t>(count);
  }
  while (acceptPunct('[')) {
    if (acceptPunct(']')) {
      d.dims.push_back(0);
      continue;
    }
    d.dims.push_back(expectInt("an array size after '['"));
    expectPunct(']', "after the array size");
  }
}

void Parser::parseInitializer(ir::VarDecl& d) {
  if (isPunct('{')) {
    parseInitGroup(d, 0, 1);
  } else {
    d.init.push_back(parseInitScalar());
  }
  // `.global .b8 a[] = {...}`: an unsized first dimension takes its size from the initializer.
  if (!d.dims.empty() && d.dims[0] == 0 && !d.init.empty()) {
    uint64_t inner = groupSize(d, 1);
    if (d.dims.size() == 1) inner = d.vecWidth;
    if (inner > 0) d.dims[0] = (d.init.size() + inner - 1) / inner;
  }
}

void Parser::parseInitGroup(ir::VarDecl& d, size_t level, int depth) {
  const Token& open = cur();
  if (depth > kMaxNesting) fail(open, "initializer braces nested deeper than 256 levels");
  advance();  // '{'
  const size_t first = d.init.size();
  if (!isPunct('}')) {
    while (true) {
      if (isPunct('{')) {
        parseInitGroup(d, level + 1, depth + 1);
      } else {
        d.init.push_back(parseInitScalar());
      }
      if (!acceptPunct(',')) break;
    }
  }
  if (!acceptPunct('}')) failExpected("',' or '}' in initializer");
  const uint64_t expected = groupSize(d, level);
  const uint64_t got = d.init.size() - first;
  if (expected == 0) return;
  if (got > expected)
    fail(open, "too many initializers for '" + d.name + "': " + std::to_string(got) + " for " +
                   std::to_string(expected) + " elements");
  // Inner groups are padded with zeros so the flattened list stays in element order; the
  // outermost group's missing tail is implicit (zero) and left to the consumer.
  if (level > 0 && got < expected) {
    if (expected - got > kMaxPadding) fail(open, "initializer group too large to pad");
    d.init.resize(first + expected);
  }
}

ir::InitValue Parser::parseInitScalar() {
  ir::InitValue v;
  const bool negative = acceptPunct('-');
  const Token& t = cur();
  if (t.kind == TokKind::Int) {
    v.kind = ir::InitValue::Kind::Int;
    v.bits = negative ? 0 - t.bits : t.bits;
    advance();
    return v;
  }
  if (t.kind == TokKind::Float) {
    v.kind = ir::InitValue::Kind::Float;
    v.isDouble = t.isDouble;
    v.bits = negative ? negateFloatBits(t.bits, t.isDouble) : t.bits;
    advance();
    return v;
  }
  if (negative) failExpected("a number after '-'");
  if (t.kind != TokKind::Word) failExpected("an initializer value");
  v.kind = ir::InitValue::Kind::SymbolAddr;
  if (t.text == "generic" && isPunct('(', 1)) {
    advance();
    advance();
    if (cur().kind != TokKind::Word) failExpected("a symbol in generic(...)");
    v.symbol = std::string(advance().text);
    v.generic = true;
    expectPunct(')', "after the symbol in generic(...)");
  } else {
    v.symbol = std::string(t.text);
    advance();
  }
  if (isPunct('+') || isPunct('-')) {
    const bool minus = isPunct('-');
    advance();
    uint64_t off = expectInt("an offset after '+' or '-'");
    v.offset = static_cast<int64_t>(minus ? 0 - off : off);
  }
  return v;
}

void Parser::skipParenthesized(std::string_view what) {
  expectPunct('(', "after " + std::string(what));
  int depth = 1;
  while (depth > 0) {
    const Token& t = cur();
    if (t.kind == TokKind::End) failExpected("')' to close " + std::string(what));
    if (isPunct('(')) {
      if (++depth > kMaxNesting) fail(t, "parentheses nested deeper than 256 levels");
    } else if (isPunct(')')) {
      --depth;
    } else if (isPunct(';') || isPunct('{') || isPunct('}')) {
      failExpected("')' to close " + std::string(what));
    }
    advance();
  }
}

}  // namespace warpsim::isa
