// User errors in PTX input: what the parser and the lowering report. One format everywhere:
//   file:line:col: error: message
//     <the offending source line>
//     <caret under the column>
#pragma once

#include <stdexcept>
#include <string>

namespace warpsim::isa {

class PtxError : public std::runtime_error {
 public:
  PtxError(std::string file, unsigned line, unsigned col, std::string message,
           std::string sourceLine);
  const std::string& file() const { return file_; }
  unsigned line() const { return line_; }
  unsigned col() const { return col_; }
  const std::string& message() const { return message_; }
  const std::string& sourceLine() const { return sourceLine_; }

 private:
  std::string file_;
  unsigned line_;
  unsigned col_;
  std::string message_;
  std::string sourceLine_;
};

// Returns the full diagnostic text (the what() of a PtxError with these fields).
std::string formatDiagnostic(const std::string& file, unsigned line, unsigned col,
                             const std::string& message, const std::string& sourceLine);

// The 1-based `line` of `text` without its newline; empty when out of range.
std::string lineOf(const std::string& text, unsigned line);

}  // namespace warpsim::isa
