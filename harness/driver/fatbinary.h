// The fatbinary format nvcc embeds in a program (the runtime hands it to the driver at start-up):
// a header (magic 0xBA55ED50, version, header size, payload size) followed by entries, each a
// header (kind: 1 PTX, 2 ELF cubin; the architecture; flags; sizes) and its payload. nvcc 13
// compresses PTX by default: flag 0x8000 is zstd (`--compress-mode=size|balance|default`),
// 0x2000 LZ4 (`--compress-mode=speed`); `--no-compress` stores plain text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace warpsim::driver {

inline constexpr uint32_t kFatbinMagic = 0xBA55ED50u;
inline constexpr uint32_t kFatbinWrapperMagic = 0x466243B1u;  // __fatBinC_Wrapper_t

class FatbinError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class EntryKind : uint16_t { Ptx = 1, Elf = 2 };

struct FatbinEntry {
  uint16_t kind = 0;  // EntryKind, or another (LTO IR, ...) that the simulator ignores
  uint32_t arch = 0;  // 90 for compute_90 / sm_90
  uint64_t flags = 0;
  const uint8_t* payload = nullptr;
  uint64_t payloadBytes = 0;       // stored (compressed) bytes
  uint64_t uncompressedBytes = 0;  // 0 when not compressed
  bool zstd() const { return flags & 0x8000; }
  bool lz4() const { return flags & 0x2000; }
};

// The entries of the fatbinary at `data`. `available` bounds the bytes that may be read (the
// header's own size when SIZE_MAX). Throws FatbinError when the image is malformed.
std::vector<FatbinEntry> parseFatbinary(const uint8_t* data, size_t available = SIZE_MAX);

// The bytes of `fatbinary`'s total size (header included) per its header.
size_t fatbinaryBytes(const uint8_t* data);

// The entry's payload, decompressed (zstd or LZ4) when the flags say so; PTX loses its
// trailing NULs. Throws FatbinError on a corrupt payload.
std::string entryText(const FatbinEntry& e);

// The PTX the simulator runs from these entries: the highest PTX architecture not above
// `deviceArch` (PTX is forward-compatible: compute_80 PTX runs on compute capability 9.0).
// Null when there is none.
const FatbinEntry* selectPtx(const std::vector<FatbinEntry>& entries, uint32_t deviceArch = 90);

// "sm_90 SASS, compute_100 PTX": what the image holds, for messages.
std::string describeEntries(const std::vector<FatbinEntry>& entries);

}  // namespace warpsim::driver
