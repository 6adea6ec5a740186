// CUDA's device printf (vprintf(format, args)): the argument buffer holds each argument at an
// offset aligned to its size: 4 bytes for int/char (8 with l/ll), 8 for double (floats are
// promoted) and for pointers/strings.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace warpsim::sim {

struct PrintfMemory {
  // Reads `bytes` at `address` (generic); false when the range is not readable.
  std::function<bool(uint64_t address, void* out, unsigned bytes)> read;
};

// Formats one printf call. Unreadable strings print as "(null)"/"<bad string>" rather than
// fault: the format itself must be readable (the caller checks it).
// `arguments` (when given) receives the number of arguments the format consumed.
std::string formatDevicePrintf(const std::string& format, uint64_t args, const PrintfMemory& mem,
                               uint32_t* arguments = nullptr);

// Reads a NUL-terminated string of at most `limit` bytes; false when unreadable.
bool readDeviceString(uint64_t address, const PrintfMemory& mem, std::string& out,
                      size_t limit = 4096);

}  // namespace warpsim::sim
