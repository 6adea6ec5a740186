// What the simulator takes from a program's SASS (an sm_90 cubin in its fatbinary): the
// registers ptxas gave each kernel, for cuFuncGetAttribute(NUM_REGS) and the occupancy
// calculator. The ELF's .nv.info section holds EIATTR_REGCOUNT (0x2f) records of (symbol
// index, registers); .symtab names the symbols.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

namespace warpsim::driver {

// Kernel (mangled) name -> registers per thread; empty when the image is not a 64-bit ELF or
// holds no counts. Never reads outside [elf, elf + bytes).
std::map<std::string, int> cubinRegisterCounts(const uint8_t* elf, size_t bytes);

}  // namespace warpsim::driver
