// Recorded GPU cases: what ran on the real chip (the PTX, the launch, the inputs by generator
// and seed, the outputs by hash with samples, the GPU time), as committed text files that CI
// replays in the simulator. One case per file:
//
//   warpsim-case 1
//   card reduce_shuffle            (the kernel card whose generator made the inputs)
//   size 1234
//   seed 7
//   ptx ptx/3f2a...c1.ptx          (relative to the case file: the PTX the GPU ran)
//   input x f32 1234 fnv1a64 0123456789abcdef
//   output out f32 1 fnv1a64 0123456789abcdef
//   sample out 0 3f800000
//   data out out.bin               (optional: the whole buffer, for ULP-tolerant cards)
//   gpu_seconds 1.2e-05
//   device NVIDIA H200
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/card.h"

namespace warpsim::harness {

uint64_t fnv1a64(const uint8_t* data, size_t n);
inline uint64_t fnv1a64(const std::vector<uint8_t>& v) { return fnv1a64(v.data(), v.size()); }

struct RecordedBuffer {
  std::string name;
  std::string type;  // elemName
  uint64_t count = 0;
  uint64_t hash = 0;
  std::vector<std::pair<uint64_t, uint64_t>> samples;  // index, bits
  std::string dataFile;  // relative path of the raw contents, or empty
};

struct RecordedCase {
  std::string path;  // the file it was read from
  std::string card;
  uint64_t size = 0, seed = 0;
  std::string ptxFile;  // relative to the case file
  std::vector<RecordedBuffer> inputs, outputs;
  double gpuSeconds = 0;
  std::string device;
};

// Throws std::runtime_error naming the file and line on a malformed case.
RecordedCase readCase(const std::string& path);
void writeCase(const RecordedCase& c, const std::string& path);

// The buffer record of `b`: hash, and `samples` evenly spaced elements.
RecordedBuffer describeBuffer(const kernels::HostBuffer& b, unsigned samples = 4);

struct ReplayResult {
  bool ok = false;
  std::string message;  // why not, naming the buffer and first differing sample
};

// Replays a case in the simulator: regenerates the inputs (and checks their hashes, so that a
// changed generator is told apart from a simulator mismatch), runs the recorded PTX, and
// compares the outputs with what the GPU produced: by hash, or element by element within the
// card's ULP tolerance when the case holds the GPU's data.
ReplayResult replayCase(const RecordedCase& c);

}  // namespace warpsim::harness
