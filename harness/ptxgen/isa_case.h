// Recorded ISA cases: one generated program as the H200 ran it, as a small committed text file
// beside its PTX, which CI replays in the simulator. The PTX text itself is kept (replays do
// not depend on the generator); the inputs are regenerated from the seed and the input kinds
// (makeInputs, checked against the recorded hash); the outputs are kept as a hash per output
// word over all threads, with thread 0's value, so that a replay names the register that
// differs.
//
//   warpsim-isa-case 1
//   seed 17
//   generator 1
//   input_version 1
//   ptx prog-17.ptx            (relative to the case file)
//   ptx_fnv1a64 0123456789abcdef
//   entry isa_prog
//   grid 2
//   block 64
//   inputs i32 f32 f16x2 ...   (the kind of each of the `words` words per thread)
//   input_fnv1a64 ...
//   output_fnv1a64 ...
//   word 0 %h0 <column fnv1a64> <thread 0's word>
//   ...
//   forms add.s32 cvt.rn.f32.s32 ...
//   device NVIDIA H200
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/backend.h"
#include "harness/ptxgen/ptxgen.h"

namespace warpsim::ptxgen {

struct IsaCase {
  std::string path;  // the file it was read from (empty for a fresh one)
  uint64_t seed = 0;
  unsigned generator = kGeneratorVersion, inputVersion = kInputVersion;
  std::string ptxFile;  // relative to the case file
  uint64_t ptxHash = 0;
  std::string entry = "isa_prog";
  unsigned grid = 1, block = 32;
  std::vector<InputKind> inputs;  // one per word
  uint64_t inputHash = 0, outputHash = 0;
  std::vector<std::string> regs;     // the register of each output word
  std::vector<uint64_t> wordHashes;  // per output word, over all threads
  std::vector<uint64_t> thread0;     // thread 0's output words
  std::vector<std::string> forms;
  std::string device;
  unsigned words() const { return unsigned(inputs.size()); }
  unsigned threads() const { return grid * block; }
};

uint64_t hashText(const std::string& s);

// A word's value as its register holds it: hex, and the number for float registers.
std::string formatRegisterWord(const std::string& reg, uint64_t w);

// The case of a generated program, before any run (no outputs yet).
IsaCase caseFor(const GeneratedProgram& g, const std::string& ptxFile);

// Loads the PTX into the backend (its launches pick the kernel from the latest module) and
// runs the program on `inputs`. Returns the output words (threads * words * 8 bytes) or the
// fault. Throws when the backend refuses the PTX (isa::PtxError, harness::CudaError).
struct IsaRun {
  std::vector<uint8_t> out;
  std::optional<sim::FaultInfo> fault;
};
IsaRun runIsa(harness::Backend& backend, const std::string& ptx, const std::string& ptxPath,
              const IsaCase& c, const std::vector<uint8_t>& inputs);
IsaRun runIsaInSimulator(const std::string& ptx, const std::string& ptxPath, const IsaCase& c,
                         const std::vector<uint8_t>& inputs);

// Fills the output fields of `c` from a run's output words.
void recordOutputs(IsaCase& c, const std::vector<uint8_t>& out);

// The first output word where two runs differ, described: thread, word, register, both values,
// the instructions that wrote it. Empty when they agree.
std::string describeDifference(const IsaCase& c, const std::string& ptx,
                               const std::vector<uint8_t>& gpu, const std::vector<uint8_t>& sim);

void writeIsaCase(const IsaCase& c, const std::string& path);
// Throws std::runtime_error naming the file and line on a malformed case.
IsaCase readIsaCase(const std::string& path);

struct IsaReplay {
  bool ok = false;
  std::string message;
};
// Replays a recorded case in the simulator and compares with what the GPU produced.
IsaReplay replayIsaCase(const IsaCase& c);

}  // namespace warpsim::ptxgen
