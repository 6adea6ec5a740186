#include "harness/driver/fatbinary.h"

#include <lz4.h>
#include <zstd.h>

#include <cstring>

namespace warpsim::driver {

namespace {

template <class T>
T read(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

constexpr size_t kHeaderBytes = 16;
constexpr size_t kEntryHeaderMin = 64;
// Entry header fields (byte offsets): kind u16 @0, header size u32 @4, payload size u64 @8,
// compressed size u32 @16, arch u32 @28, flags u64 @40, uncompressed size u64 @56.

}  // namespace

size_t fatbinaryBytes(const uint8_t* data) {
  if (read<uint32_t>(data) != kFatbinMagic)
    throw FatbinError("not a fatbinary (magic 0x" + std::to_string(read<uint32_t>(data)) + ")");
  return read<uint16_t>(data + 6) + read<uint64_t>(data + 8);
}

std::vector<FatbinEntry> parseFatbinary(const uint8_t* data, size_t available) {
  if (available < kHeaderBytes) throw FatbinError("fatbinary shorter than its header");
  if (read<uint32_t>(data) != kFatbinMagic) throw FatbinError("not a fatbinary (bad magic)");
  const uint16_t headerBytes = read<uint16_t>(data + 6);
  const uint64_t bodyBytes = read<uint64_t>(data + 8);
  if (headerBytes < kHeaderBytes || headerBytes + bodyBytes > available)
    throw FatbinError("fatbinary header claims " + std::to_string(headerBytes + bodyBytes) +
                      " bytes, " + std::to_string(available) + " available");
  std::vector<FatbinEntry> entries;
  uint64_t at = headerBytes;
  const uint64_t end = headerBytes + bodyBytes;
  while (at < end) {
    if (end - at < kEntryHeaderMin)
      throw FatbinError("fatbinary entry header at byte " + std::to_string(at) + " is truncated");
    const uint8_t* h = data + at;
    const uint32_t entryHeader = read<uint32_t>(h + 4);
    const uint64_t payload = read<uint64_t>(h + 8);
    if (entryHeader < kEntryHeaderMin || entryHeader > end - at || payload > end - at - entryHeader)
      throw FatbinError("fatbinary entry at byte " + std::to_string(at) +
                        " runs past the end of the image");
    FatbinEntry e;
    e.kind = read<uint16_t>(h);
    e.arch = read<uint32_t>(h + 28);
    e.flags = read<uint64_t>(h + 40);
    e.payload = h + entryHeader;
    const uint32_t compressed = read<uint32_t>(h + 16);
    e.payloadBytes = (e.zstd() || e.lz4()) && compressed ? compressed : payload;
    if (e.payloadBytes > payload)
      throw FatbinError("fatbinary entry at byte " + std::to_string(at) +
                        " claims more compressed bytes than it holds");
    e.uncompressedBytes = (e.zstd() || e.lz4()) ? read<uint64_t>(h + 56) : 0;
    entries.push_back(e);
    at += entryHeader + payload;
  }
  return entries;
}

std::string entryText(const FatbinEntry& e) {
  std::string out;
  if (e.zstd() || e.lz4()) {
    // A bound on the claimed size keeps a corrupt header from asking for terabytes.
    if (e.uncompressedBytes == 0 || e.uncompressedBytes > (1ull << 32))
      throw FatbinError("compressed fatbinary entry with an implausible size of " +
                        std::to_string(e.uncompressedBytes) + " bytes");
    out.resize(e.uncompressedBytes);
    if (e.zstd()) {
      const size_t n = ZSTD_decompress(out.data(), out.size(), e.payload, e.payloadBytes);
      if (ZSTD_isError(n))
        throw FatbinError(std::string("zstd-compressed fatbinary entry is corrupt: ") +
                          ZSTD_getErrorName(n));
      out.resize(n);
    } else {
      const int n = LZ4_decompress_safe(reinterpret_cast<const char*>(e.payload), out.data(),
                                        int(e.payloadBytes), int(out.size()));
      if (n < 0) throw FatbinError("LZ4-compressed fatbinary entry is corrupt");
      out.resize(size_t(n));
    }
  } else {
    out.assign(reinterpret_cast<const char*>(e.payload), e.payloadBytes);
  }
  if (e.kind == uint16_t(EntryKind::Ptx))
    while (!out.empty() && out.back() == '\0') out.pop_back();
  return out;
}

const FatbinEntry* selectPtx(const std::vector<FatbinEntry>& entries, uint32_t deviceArch) {
  const FatbinEntry* best = nullptr;
  for (const FatbinEntry& e : entries)
    if (e.kind == uint16_t(EntryKind::Ptx) && e.arch <= deviceArch &&
        (!best || e.arch > best->arch))
      best = &e;
  return best;
}

std::string describeEntries(const std::vector<FatbinEntry>& entries) {
  std::string s;
  for (const FatbinEntry& e : entries) {
    if (!s.empty()) s += ", ";
    if (e.kind == uint16_t(EntryKind::Ptx))
      s += "compute_" + std::to_string(e.arch) + " PTX";
    else if (e.kind == uint16_t(EntryKind::Elf))
      s += "sm_" + std::to_string(e.arch) + " SASS";
    else
      s += "kind-" + std::to_string(e.kind) + " code for arch " + std::to_string(e.arch);
  }
  return s.empty() ? "nothing" : s;
}

}  // namespace warpsim::driver
