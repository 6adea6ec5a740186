#include "isa/lexer.h"

#include <charconv>
#include <limits>

namespace warpsim::isa {
namespace {

bool isFollow(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$';
}
bool isDigit(char c) { return c >= '0' && c <= '9'; }
int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
bool isPunctChar(char c) {
  switch (c) {
    case ';':
    case ',':
    case ':':
    case '{':
    case '}':
    case '[':
    case ']':
    case '(':
    case ')':
    case '<':
    case '>':
    case '+':
    case '-':
    case '!':
    case '@':
    case '|':
    case '=':
    case '*':
    case '/':
    case '%':
    case '~':
    case '&':
    case '^':
    case '?':
    case '.':
      return true;
    default:
      return false;
  }
}

// Quotes text for a message, escaping what would garble a terminal and capping the length so
// that a multi-kilobyte garbage token cannot flood the diagnostic.
std::string quoted(std::string_view s) {
  constexpr size_t kMax = 40;
  std::string out = "'";
  for (size_t i = 0; i < s.size() && i < kMax; ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  if (s.size() > kMax) out += "...";
  return out + "'";
}

class Lexer {
 public:
  explicit Lexer(std::string_view text) : s_(text) {}

  LexResult run() {
    LexResult r;
    r.tokens.reserve(s_.size() / 4 + 2);
    while (true) {
      if (!skipSpaceAndComments(r)) return r;
      if (p_ >= s_.size()) break;
      Token t = start(TokKind::Punct);
      char c = s_[p_];
      if (isFollow(c) && !isDigit(c)) {
        lexWordTail(p_ + 1);
        t.kind = TokKind::Word;
      } else if (c == '%' && p_ + 1 < s_.size() && isFollow(s_[p_ + 1])) {
        lexWordTail(p_ + 1);
        t.kind = TokKind::Word;
      } else if (c == '.' && p_ + 1 < s_.size() && isFollow(s_[p_ + 1])) {
        lexWordTail(p_ + 1);
        t.kind = TokKind::Directive;
      } else if (isDigit(c)) {
        if (!lexNumber(t, r)) return r;
        r.tokens.push_back(t);
        continue;
      } else if (c == '"') {
        if (!lexString(t, r)) return r;
        r.tokens.push_back(t);
        continue;
      } else if (isPunctChar(c)) {
        t.punct = c;
        ++p_;
      } else {
        t.text = s_.substr(p_, 1);
        fail(r, t, "unexpected character " + quoted(t.text));
        return r;
      }
      t.text = s_.substr(tokStart_, p_ - tokStart_);
      r.tokens.push_back(t);
    }
    Token end = start(TokKind::End);
    // End sits just past the last token, so that "found end of file" points at a real line.
    end.line = lastLine_;
    end.col = lastEndCol_;
    r.tokens.push_back(end);
    return r;
  }

 private:
  Token start(TokKind kind) {
    Token t;
    t.kind = kind;
    t.line = line_;
    t.col = static_cast<uint32_t>(p_ - lineStart_ + 1);
    tokStart_ = p_;
    return t;
  }

  void fail(LexResult& r, Token t, std::string message) {
    t.kind = TokKind::Error;
    r.tokens.push_back(t);
    r.error = std::move(message);
  }

  void newline(size_t at) {
    ++line_;
    lineStart_ = at + 1;
  }

  // Returns false after pushing an Error token (an unterminated block comment).
  bool skipSpaceAndComments(LexResult& r) {
    // Remember where the previous token ended, for the End token's position.
    if (!r.tokens.empty()) {
      lastLine_ = line_;
      lastEndCol_ = static_cast<uint32_t>(p_ - lineStart_ + 1);
    }
    while (p_ < s_.size()) {
      char c = s_[p_];
      if (c == '\n') {
        newline(p_);
        ++p_;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
        ++p_;
      } else if (c == '/' && p_ + 1 < s_.size() && s_[p_ + 1] == '/') {
        size_t nl = s_.find('\n', p_);
        p_ = nl == std::string_view::npos ? s_.size() : nl;
      } else if (c == '/' && p_ + 1 < s_.size() && s_[p_ + 1] == '*') {
        Token t = start(TokKind::Error);
        t.text = s_.substr(p_, 2);
        size_t q = p_ + 2;
        while (q < s_.size() && !(s_[q] == '*' && q + 1 < s_.size() && s_[q + 1] == '/')) {
          if (s_[q] == '\n') newline(q);
          ++q;
        }
        if (q >= s_.size()) {
          fail(r, t, "unterminated block comment");
          return false;
        }
        p_ = q + 2;
      } else {
        break;
      }
    }
    return true;
  }

  // Identifier characters, then any `.seg` and `::seg` tails (a segment may start with a
  // digit: `.1d`, `L2::256B`).
  void lexWordTail(size_t q) {
    while (q < s_.size() && isFollow(s_[q])) ++q;
    while (q < s_.size()) {
      if (s_[q] == '.' && q + 1 < s_.size() && isFollow(s_[q + 1])) {
        q += 2;
      } else if (s_[q] == ':' && q + 2 < s_.size() && s_[q + 1] == ':' && isFollow(s_[q + 2])) {
        q += 3;
      } else {
        break;
      }
      while (q < s_.size() && isFollow(s_[q])) ++q;
    }
    p_ = q;
  }

  bool badNumber(LexResult& r, Token& t, const char* why) {
    size_t q = tokStart_;
    while (q < s_.size() && (isFollow(s_[q]) || s_[q] == '.')) ++q;
    t.text = s_.substr(tokStart_, q - tokStart_);
    fail(r, t, std::string(why) + " " + quoted(t.text));
    return false;
  }

  // Reads `count` digits of `base` from p_ into bits; false on overflow of 64 bits.
  bool accumulate(unsigned base, size_t end, uint64_t& bits) {
    bits = 0;
    for (; p_ < end; ++p_) {
      uint64_t d = static_cast<uint64_t>(hexValue(s_[p_]));
      if (bits > (std::numeric_limits<uint64_t>::max() - d) / base) return false;
      bits = bits * base + d;
    }
    return true;
  }

  size_t runOf(size_t q, unsigned base) const {
    while (q < s_.size()) {
      int v = hexValue(s_[q]);
      if (v < 0 || static_cast<unsigned>(v) >= base) break;
      ++q;
    }
    return q;
  }

  bool lexNumber(Token& t, LexResult& r) {
    const size_t n = s_.size();
    char c1 = p_ + 1 < n ? s_[p_ + 1] : '\0';
    char c2 = p_ + 2 < n ? s_[p_ + 2] : '\0';
    bool isInt = true;
    if (s_[p_] == '0' && (c1 == 'x' || c1 == 'X')) {
      p_ += 2;
      size_t end = runOf(p_, 16);
      if (end == p_) return badNumber(r, t, "invalid hexadecimal literal");
      if (!accumulate(16, end, t.bits)) return badNumber(r, t, "integer literal out of range");
    } else if (s_[p_] == '0' && (c1 == 'f' || c1 == 'F' || c1 == 'd' || c1 == 'D') &&
               hexValue(c2) >= 0) {
      bool dbl = c1 == 'd' || c1 == 'D';
      p_ += 2;
      size_t end = runOf(p_, 16);
      if (end - p_ != (dbl ? 16u : 8u))
        return badNumber(
            r, t, dbl ? "f64 literal needs 16 hex digits:" : "f32 literal needs 8 hex digits:");
      accumulate(16, end, t.bits);
      t.kind = TokKind::Float;
      t.isDouble = dbl;
      isInt = false;
    } else if (s_[p_] == '0' && (c1 == 'b' || c1 == 'B') && (c2 == '0' || c2 == '1')) {
      p_ += 2;
      size_t end = runOf(p_, 2);
      if (!accumulate(2, end, t.bits)) return badNumber(r, t, "integer literal out of range");
    } else {
      size_t end = runOf(p_, 10);
      size_t q = end;
      bool isFloat = false;
      if (q < n && s_[q] == '.' &&
          (q + 1 >= n || !isFollow(s_[q + 1]) || isDigit(s_[q + 1]) || s_[q + 1] == 'e' ||
           s_[q + 1] == 'E')) {
        isFloat = true;
        q = runOf(q + 1, 10);
      }
      if (q < n && (s_[q] == 'e' || s_[q] == 'E')) {
        size_t e = q + 1;
        if (e < n && (s_[e] == '+' || s_[e] == '-')) ++e;
        if (e < n && isDigit(s_[e])) {
          isFloat = true;
          q = runOf(e, 10);
        }
      }
      if (isFloat) {
        double v = 0;
        auto res = std::from_chars(s_.data() + p_, s_.data() + q, v);
        if (res.ec != std::errc() || res.ptr != s_.data() + q)
          return badNumber(r, t, "float literal out of range");
        p_ = q;
        uint64_t bits = 0;
        static_assert(sizeof(bits) == sizeof(v));
        __builtin_memcpy(&bits, &v, sizeof bits);
        t.kind = TokKind::Float;
        t.isDouble = true;
        t.bits = bits;
        isInt = false;
      } else if (s_[p_] == '0' && end - p_ > 1) {
        // A leading 0 means octal, as in C.
        ++p_;
        if (runOf(p_, 8) != end) return badNumber(r, t, "invalid octal literal");
        if (!accumulate(8, end, t.bits)) return badNumber(r, t, "integer literal out of range");
      } else {
        if (!accumulate(10, end, t.bits)) return badNumber(r, t, "integer literal out of range");
      }
    }
    if (isInt) {
      t.kind = TokKind::Int;
      if (p_ < n && (s_[p_] == 'U' || s_[p_] == 'u')) ++p_;
    }
    // A literal glued to more identifier characters (12abc, 0x1G, 1.5.2) is one bad token,
    // not a number followed by a name.
    if (p_ < n && (isFollow(s_[p_]) || s_[p_] == '.'))
      return badNumber(r, t, "invalid numeric literal");
    t.text = s_.substr(tokStart_, p_ - tokStart_);
    return true;
  }

  bool lexString(Token& t, LexResult& r) {
    size_t q = p_ + 1;
    while (q < s_.size() && s_[q] != '"' && s_[q] != '\n') {
      if (s_[q] == '\\' && q + 1 < s_.size() && s_[q + 1] != '\n') ++q;
      ++q;
    }
    if (q >= s_.size() || s_[q] != '"') {
      t.text = s_.substr(p_, 1);
      fail(r, t, "unterminated string");
      return false;
    }
    t.kind = TokKind::String;
    t.text = s_.substr(p_ + 1, q - p_ - 1);
    p_ = q + 1;
    return true;
  }

  std::string_view s_;
  size_t p_ = 0;
  size_t tokStart_ = 0;
  uint32_t line_ = 1;
  size_t lineStart_ = 0;
  uint32_t lastLine_ = 1;
  uint32_t lastEndCol_ = 1;
};

}  // namespace

LexResult lex(std::string_view text) { return Lexer(text).run(); }

std::string decodeString(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '\\' || i + 1 == raw.size()) {
      out += raw[i];
      continue;
    }
    char c = raw[++i];
    switch (c) {
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case '"':
        out += '"';
        break;
      case '\\':
        out += '\\';
        break;
      default:
        out += '\\';
        out += c;
    }
  }
  return out;
}

std::string describeToken(const Token& t) {
  switch (t.kind) {
    case TokKind::End:
      return "end of file";
    case TokKind::String:
      return "string " + quoted(t.text);
    default:
      return quoted(t.text);
  }
}

}  // namespace warpsim::isa
