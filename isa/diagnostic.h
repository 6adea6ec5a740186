// User errors in PTX input: what the parser and the lowering report. One format everywhere:
//   file:line:col: error: message
//     <the offending source line>
//     <caret under the column>
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace warpsim::isa {

// How the chip's driver answers PTX that does not load. Most errors are the PTX JIT's
// (CUDA_ERROR_INVALID_PTX); a few forms ptxas assembles for sm_90 are refused by the driver
// itself, each with its own answer (docs/FIDELITY.md, "Texture and surface forms").
enum class Refusal : uint8_t {
  None,                // an error in the PTX, or PTX warpsim does not take: CUDA_ERROR_INVALID_PTX
  ModuleNotSupported,  // the module does not load: CUDA_ERROR_NOT_SUPPORTED
  ModuleNotFound,      // the module does not load: CUDA_ERROR_NOT_FOUND
  KernelNotFound,      // the module loads, without the kernel: CUDA_ERROR_NOT_FOUND
};
// Whether the whole module fails to load (not only the kernels that reach the form).
inline bool refusesModule(Refusal r) {
  return r == Refusal::ModuleNotSupported || r == Refusal::ModuleNotFound;
}

class PtxError : public std::runtime_error {
 public:
  PtxError(std::string file, unsigned line, unsigned col, std::string message,
           std::string sourceLine, Refusal refusal = Refusal::None);
  const std::string& file() const { return file_; }
  unsigned line() const { return line_; }
  unsigned col() const { return col_; }
  const std::string& message() const { return message_; }
  const std::string& sourceLine() const { return sourceLine_; }
  Refusal refusal() const { return refusal_; }

 private:
  std::string file_;
  unsigned line_;
  unsigned col_;
  std::string message_;
  std::string sourceLine_;
  Refusal refusal_;
};

// Returns the full diagnostic text (the what() of a PtxError with these fields).
std::string formatDiagnostic(const std::string& file, unsigned line, unsigned col,
                             const std::string& message, const std::string& sourceLine);

// The 1-based `line` of `text` without its newline; empty when out of range.
std::string lineOf(const std::string& text, unsigned line);

}  // namespace warpsim::isa
