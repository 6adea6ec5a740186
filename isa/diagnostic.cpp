#include "isa/diagnostic.h"

namespace warpsim::isa {

std::string formatDiagnostic(const std::string& file, unsigned line, unsigned col,
                             const std::string& message, const std::string& sourceLine) {
  std::string out =
      file + ":" + std::to_string(line) + ":" + std::to_string(col) + ": error: " + message;
  if (!sourceLine.empty()) {
    out += "\n  " + sourceLine + "\n  ";
    // Keep tabs in the caret line so the caret lands under the column in any terminal.
    for (unsigned i = 1; i < col && i <= sourceLine.size(); ++i)
      out += sourceLine[i - 1] == '\t' ? '\t' : ' ';
    out += '^';
  }
  return out;
}

PtxError::PtxError(std::string file, unsigned line, unsigned col, std::string message,
                   std::string sourceLine, Refusal refusal)
    : std::runtime_error(formatDiagnostic(file, line, col, message, sourceLine)),
      file_(std::move(file)),
      line_(line),
      col_(col),
      message_(std::move(message)),
      sourceLine_(std::move(sourceLine)),
      refusal_(refusal) {}

std::string lineOf(const std::string& text, unsigned line) {
  if (line == 0) return {};
  size_t pos = 0;
  for (unsigned l = 1; l < line; ++l) {
    pos = text.find('\n', pos);
    if (pos == std::string::npos) return {};
    ++pos;
  }
  size_t end = text.find('\n', pos);
  std::string s = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
  if (!s.empty() && s.back() == '\r') s.pop_back();
  return s;
}

}  // namespace warpsim::isa
