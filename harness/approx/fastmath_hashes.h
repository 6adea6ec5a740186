// The H200's chunk hashes of the fast-math forms (tests/recorded/fastmath/chunk_hashes.txt,
// from scripts/device_fastmath.sh): every input of every 32-bit form, in chunks, and the same
// hashes computed from the simulator's models (isa/sfu/forms.h).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "isa/sfu/forms.h"

namespace warpsim::harness::approx {

struct RecordedForm {
  std::string name;
  std::vector<uint64_t> chunks;  // 2^(32 - chunkBits) hashes
};

struct RecordedHashes {
  std::string device;
  int chunkBits = 0;  // log2 of the inputs per chunk
  std::vector<RecordedForm> forms;
};

// Throws std::runtime_error naming the file and line of anything malformed.
RecordedHashes readRecordedHashes(const std::filesystem::path& file);

// The simulator's hash of chunk `chunk` (inputs chunk << chunkBits ...).
uint64_t modelChunkHash(const isa::sfu::Form& form, int chunkBits, uint32_t chunk);

}  // namespace warpsim::harness::approx
