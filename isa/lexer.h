// PTX text -> tokens. Context-free, so the whole file is lexed once up front into a flat
// vector that the parser indexes (cheap lookahead, no re-scanning).
//
// Token shapes:
//   Word       identifiers with their dotted and `::` tails in one piece: `ld.global.v4.f32`,
//              `%tid.x`, `cp.async.bulk.shared::cluster`, `$L__BB0_2`, `_`. The parser splits an
//              opcode word at '.'; a register or symbol name keeps its dots.
//   Directive  `.reg`, `.align`, and chained forms like `.ptr.global.align` (text keeps the dots)
//   Int        every integer form (decimal, 0x, octal, 0b, optional U): `bits` holds the value
//   Float      0fXXXXXXXX (isDouble=false), 0dXXXXXXXXXXXXXXXX and decimal floats (isDouble=true)
//   String     "..." (text = the raw contents between the quotes, escapes not decoded)
//   Punct      one of ; , : { } [ ] ( ) < > + - ! @ | = * / % ~ & ^ ? .
//   Error      the lexer stopped here; LexResult::error says why. Always the last token.
//   End        end of input. Always the last token when there was no error.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::isa {

enum class TokKind : uint8_t { Word, Directive, Int, Float, String, Punct, Error, End };

struct Token {
  TokKind kind = TokKind::End;
  char punct = 0;         // Punct: the character
  bool isDouble = false;  // Float: f64 bits (0d..., decimal) rather than f32 (0f...)
  uint32_t line = 1;      // 1-based position of the token's first character
  uint32_t col = 1;
  std::string_view text;  // a view into the lexed text (which must outlive the tokens)
  uint64_t bits = 0;      // Int / Float value
};

struct LexResult {
  std::vector<Token> tokens;  // never empty; ends with End or Error
  std::string error;          // the message for the trailing Error token, if any
};

// Lexes `text`. Never throws for malformed input: the first problem becomes an Error token
// so that the parser reports errors in source order (a parse error before it wins).
LexResult lex(std::string_view text);

// Decodes the escapes of a String token's contents (\" \\ \n \t; others kept verbatim).
std::string decodeString(std::string_view raw);

// A token as an error message quotes it: 'foo', or "end of file".
std::string describeToken(const Token& t);

}  // namespace warpsim::isa
