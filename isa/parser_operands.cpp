// Instruction operands: registers and symbols (resolved through the body's scopes),
// immediates, addresses, vectors, call lists and setp's predicate pairs.
//
// Nesting is fixed by the grammar, not by recursion on the input: vector and list elements
// and address components are scalars (an address may hold one vector), so no input can
// drive this code deeper than three calls.
#include "isa/parser_impl.h"

namespace warpsim::isa {

ir::Operand Parser::parseOperand() {
  if (isPunct('[')) return parseAddress();
  if (isPunct('{')) return parseBracketed('}', ir::OperandKind::Vector, "vector operand");
  if (isPunct('(')) return parseBracketed(')', ir::OperandKind::List, "call argument list");
  ir::Operand op = parseScalarOperand();
  if (isPunct('|') && (op.kind == ir::OperandKind::Reg || op.kind == ir::OperandKind::Sink ||
                       op.kind == ir::OperandKind::Symbol)) {
    // setp's `%p|%q`: two destinations written as one operand.
    advance();
    ir::Operand pair;
    pair.kind = ir::OperandKind::PredPair;
    pair.loc = op.loc;
    ir::Operand second = parseScalarOperand();
    if (second.kind != ir::OperandKind::Reg && second.kind != ir::OperandKind::Sink &&
        second.kind != ir::OperandKind::Symbol)
      failAt(second.loc, "expected a predicate register after '|'");
    pair.elems.push_back(std::move(op));
    pair.elems.push_back(std::move(second));
    return pair;
  }
  return op;
}

ir::Operand Parser::parseScalarOperand() {
  const Token& t = cur();
  if (isPunct('!')) {
    advance();
    if (cur().kind != TokKind::Word) failExpected("a predicate register after '!'");
    ir::Operand op = parseNameOperand(cur());
    op.negated = true;
    op.loc = locOf(t);
    return op;
  }
  if (isPunct('-')) {
    advance();
    if (cur().kind == TokKind::Word) {  // vmad's `-%r1`
      ir::Operand op = parseNameOperand(cur());
      op.minus = true;
      op.loc = locOf(t);
      return op;
    }
    ir::Operand op = parseImmediate(true);
    op.loc = locOf(t);
    return op;
  }
  if (t.kind == TokKind::Int || t.kind == TokKind::Float) return parseImmediate(false);
  if (t.kind == TokKind::Word) return parseNameOperand(t);
  failExpected("an operand");
}

ir::Operand Parser::parseNameOperand(const Token& t) {
  ir::Operand op;
  op.loc = locOf(t);
  advance();
  if (t.text == "_") {
    op.kind = ir::OperandKind::Sink;
    return op;
  }
  bool isReg = false;
  op.name = resolve(t.text, &isReg);
  op.kind = isReg ? ir::OperandKind::Reg : ir::OperandKind::Symbol;
  // `%r1.b0`, `%r2.h10`: a declared register and a video selector (one lexer word).
  std::string_view range;
  const size_t dot = t.text.rfind('.');
  if (isReg && dot != std::string_view::npos && !lookup(t.text, &range) &&
      lookup(t.text.substr(0, dot), &range)) {
    op.name = resolve(t.text.substr(0, dot), &isReg);
    op.selector = std::string(t.text.substr(dot + 1));
  }
  return op;
}

ir::Operand Parser::parseImmediate(bool negative) {
  const Token& t = cur();
  ir::Operand op;
  op.loc = locOf(t);
  if (t.kind == TokKind::Int) {
    op.kind = ir::OperandKind::IntImm;
    op.bits = negative ? 0 - t.bits : t.bits;
  } else if (t.kind == TokKind::Float) {
    op.kind = ir::OperandKind::FloatImm;
    op.isDouble = t.isDouble;
    op.bits = negative ? negateFloatBits(t.bits, t.isDouble) : t.bits;
  } else {
    failExpected("a number after '-'");
  }
  advance();
  return op;
}

ir::Operand Parser::parseAddress() {
  ir::Operand op;
  op.kind = ir::OperandKind::Address;
  op.loc = locOf(cur());
  advance();  // '['
  const Token& t = cur();
  if (t.kind == TokKind::Word && t.text != "_") {
    bool isReg = false;
    op.name = resolve(t.text, &isReg);
    op.baseKind = isReg ? ir::OperandKind::Reg : ir::OperandKind::Symbol;
    advance();
    if (isPunct('+') || isPunct('-')) {
      bool minus = isPunct('-');
      advance();
      if (acceptPunct('-')) minus = !minus;  // nvcc writes [%rd+-8]
      uint64_t off = 0;
      if (cur().kind == TokKind::Word && cur().text == "WARP_SZ") {
        off = 32;  // the predefined constant, an immediate like any other (PTX ISA 4.5)
        advance();
      } else {
        off = expectInt(minus ? "an offset after '-'" : "an offset after '+'");
      }
      op.offset = static_cast<int64_t>(minus ? 0 - off : off);
    }
  } else if (t.kind == TokKind::Int || isPunct('-')) {
    const bool minus = acceptPunct('-');
    uint64_t addr = expectInt("an address after '-'");
    op.offset = static_cast<int64_t>(minus ? 0 - addr : addr);
  } else {
    failExpected("a register, symbol or address after '['");
  }
  // Texture and surface instructions: [tex, {%f1, %f2}] or [surf, {%r1}]: the coordinates
  // (or further components) follow the base.
  while (acceptPunct(',')) {
    if (isPunct('{')) {
      op.elems.push_back(parseBracketed('}', ir::OperandKind::Vector, "vector operand"));
    } else {
      op.elems.push_back(parseScalarOperand());
    }
  }
  if (!acceptPunct(']')) failExpected("']' to close the address");
  return op;
}

ir::Operand Parser::parseBracketed(char close, ir::OperandKind kind, std::string_view what) {
  ir::Operand op;
  op.kind = kind;
  op.loc = locOf(cur());
  advance();  // '{' or '('
  // `call.uni f, ();` passes no arguments; a vector is never empty.
  if (kind == ir::OperandKind::List && acceptPunct(close)) return op;
  while (true) {
    op.elems.push_back(parseScalarOperand());
    if (acceptPunct(',')) continue;
    if (acceptPunct(close)) return op;
    failExpected("',' or '" + std::string(1, close) + "' in " + std::string(what));
  }
}

}  // namespace warpsim::isa
