#include "harness/driver/cubin.h"

#include <cstring>
#include <vector>

namespace warpsim::driver {

namespace {

constexpr uint8_t kRegCount = 0x2f;  // EIATTR_REGCOUNT
constexpr uint8_t kFormatSized = 4;  // EIFMT_SVAL: a u16 size, then that many bytes

struct Section {
  uint32_t name = 0, type = 0, link = 0;
  uint64_t offset = 0, size = 0;
};

template <class T>
bool read(const uint8_t* base, size_t bytes, uint64_t at, T& v) {
  if (at > bytes || bytes - at < sizeof v) return false;
  std::memcpy(&v, base + at, sizeof v);
  return true;
}

}  // namespace

std::map<std::string, int> cubinRegisterCounts(const uint8_t* elf, size_t bytes) {
  std::map<std::string, int> counts;
  if (bytes < 64 ||
      std::memcmp(elf,
                  "\x7f"
                  "ELF",
                  4) != 0 ||
      elf[4] != 2)
    return counts;
  uint64_t shoff = 0;
  uint16_t shentsize = 0, shnum = 0, shstrndx = 0;
  if (!read(elf, bytes, 0x28, shoff) || !read(elf, bytes, 0x3a, shentsize) ||
      !read(elf, bytes, 0x3c, shnum) || !read(elf, bytes, 0x3e, shstrndx) || shentsize < 64)
    return counts;
  std::vector<Section> sections(shnum);
  for (uint16_t i = 0; i < shnum; ++i) {
    const uint64_t at = shoff + uint64_t(i) * shentsize;
    Section& s = sections[i];
    if (!read(elf, bytes, at, s.name) || !read(elf, bytes, at + 4, s.type) ||
        !read(elf, bytes, at + 0x18, s.offset) || !read(elf, bytes, at + 0x20, s.size) ||
        !read(elf, bytes, at + 0x28, s.link) || s.offset > bytes || s.size > bytes - s.offset)
      return counts;
  }
  auto name = [&](const Section& strtab, uint32_t at) -> std::string {
    if (at >= strtab.size) return "";
    const char* p = reinterpret_cast<const char*>(elf + strtab.offset + at);
    return std::string(p, strnlen(p, strtab.size - at));
  };
  if (shstrndx >= shnum) return counts;
  const Section* info = nullptr;
  const Section* symtab = nullptr;
  for (const Section& s : sections) {
    const std::string n = name(sections[shstrndx], s.name);
    if (n == ".nv.info") info = &s;
    if (n == ".symtab") symtab = &s;
  }
  if (!info || !symtab || symtab->link >= shnum) return counts;
  const Section& strtab = sections[symtab->link];
  constexpr uint64_t kSymBytes = 24;  // Elf64_Sym
  for (uint64_t at = info->offset; at + 4 <= info->offset + info->size;) {
    const uint8_t format = elf[at], attribute = elf[at + 1];
    uint16_t size = 0;
    if (format == kFormatSized) read(elf, bytes, at + 2, size);
    const uint64_t payload = at + 4;
    if (format == kFormatSized && attribute == kRegCount && size >= 8 &&
        payload + 8 <= info->offset + info->size) {
      uint32_t symbol = 0, registers = 0, symName = 0;
      read(elf, bytes, payload, symbol);
      read(elf, bytes, payload + 4, registers);
      if (uint64_t(symbol) * kSymBytes + 4 <= symtab->size &&
          read(elf, bytes, symtab->offset + uint64_t(symbol) * kSymBytes, symName))
        counts[name(strtab, symName)] = int(registers);
    }
    at = payload + (format == kFormatSized ? size : 0);
  }
  return counts;
}

}  // namespace warpsim::driver
