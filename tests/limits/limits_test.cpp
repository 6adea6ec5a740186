// Limits that mirror the chip (or keep the host safe), each a clear error before any memory is
// taken: registers per function, .shared/.local/.param sizes, device memory, kernel
// parameter bytes, module variables.
#include <gtest/gtest.h>

#include <string>

#include "isa/diagnostic.h"
#include "isa/ir.h"
#include "sim/gpu.h"
#include "tests/support/ptx_runner.h"

namespace warpsim {
namespace {

const std::string kHead = ".version 8.0\n.target sm_90\n.address_size 64\n";

// The PtxError's text when loading `ptx` fails, "" when it loads.
std::string loadError(const std::string& body,
                      uint64_t deviceMemory = sim::kDefaultDeviceMemoryBytes) {
  sim::Gpu gpu(deviceMemory);
  auto firstLine = [](const std::string& s) { return s.substr(0, s.find('\n')); };
  try {
    // A function that cannot be lowered does not reject the module (per-kernel loading): its
    // error waits on the function, for a launch that reaches it.
    const sim::LoadedModule& m = gpu.loadPtx(kHead + body, "t.ptx");
    for (const isa::FunctionCode& f : m.program.functions)
      if (f.error) return firstLine(f.error->what());
  } catch (const isa::PtxError& e) {
    return firstLine(e.what());
  }
  return "";
}

TEST(Limits, ManyRegisterDeclarationsAddUpToTheLimit) {
  // Each declaration is under the parser's per-declaration limit; together they pass it.
  std::string body = ".visible .entry k()\n{\n";
  for (int i = 0; i < 3; ++i)
    body += "  .reg .b32 %a" + std::string(1, char('a' + i)) + "<30000>;\n";
  body += "  ret;\n}\n";
  EXPECT_EQ(loadError(body),
            "t.ptx:8:13: error: 'k' declares more than 65536 registers (the limit per function); "
            "this declaration brings it to 90000");
}

TEST(Limits, RegistersUpToTheLimitLoad) {
  EXPECT_EQ(
      loadError(".visible .entry k()\n{\n  .reg .b32 %r<65535>;\n  .reg .pred %p;\n  ret;\n}\n"),
      "");
}

TEST(Limits, HugeSharedArrayDoesNotWrapToASmallOne) {
  // 2^32 + 16 bytes used to become 16 bytes of a uint32 offset.
  EXPECT_EQ(loadError(".visible .entry k()\n{\n  .shared .b8 s[4294967312];\n  ret;\n}\n"),
            "t.ptx:6:15: error: 's' (4294967312 bytes) does not fit in .shared: the limit is "
            "2147483648 bytes");
  EXPECT_EQ(loadError(".shared .b8 g[4294967312];\n.visible .entry k()\n{\n  ret;\n}\n"),
            "t.ptx:4:13: error: 'g' (4294967312 bytes) does not fit in .shared: the limit is "
            "2147483648 bytes");
}

TEST(Limits, LocalMemoryPerThreadIsTheChips512KiB) {
  EXPECT_EQ(loadError(".visible .entry k()\n{\n  .local .b8 a[300000];\n  .local .b8 b[300000];\n"
                      "  ret;\n}\n"),
            "t.ptx:7:14: error: 'b' (300000 bytes) does not fit in a thread's .local memory: the "
            "limit is 524288 bytes");
  EXPECT_EQ(loadError(".visible .entry k()\n{\n  .local .b8 a[524288];\n  ret;\n}\n"), "");
}

TEST(Limits, DeviceFunctionParametersFitAThreadsStack) {
  EXPECT_EQ(loadError(".func f(.param .b8 big[1048576])\n{\n  ret;\n}\n"
                      ".visible .entry k()\n{\n  ret;\n}\n"),
            "t.ptx:4:20: error: 'big' (1048576 bytes) does not fit in a thread's stack: the "
            "limit is 524288 bytes");
}

TEST(Limits, ModuleVariableBeyondDeviceMemoryNamesTheDeclaration) {
  EXPECT_EQ(loadError(".global .b8 big[8589934592];\n.visible .entry k()\n{\n  ret;\n}\n"),
            "t.ptx:4:13: error: out of device memory: .global big needs 8589934592 bytes; 0 of "
            "the limit of 4294967296 bytes are in use (the limit is set by --device-memory)");
  // A limit can be raised or lowered per Gpu.
  EXPECT_EQ(loadError(".global .b8 g[2048];\n.visible .entry k()\n{\n  ret;\n}\n", 1024),
            "t.ptx:4:13: error: out of device memory: .global g needs 2048 bytes; 0 of the limit "
            "of 1024 bytes are in use (the limit is set by --device-memory)");
}

TEST(Limits, InitializedModuleVariableIsWrittenInPlace) {
  test::PtxRunner r(kHead +
                    ".global .u32 g[4] = {1, 2, 3, 4};\n.visible .entry k()\n{\n  ret;\n}\n");
  const sim::Allocation* a = nullptr;
  for (uint64_t addr = sim::kFirstGlobalAddress; !a; addr += 256)
    a = r.gpu().memory().allocationContaining(addr);
  ASSERT_EQ(a->label, ".global g");
  const auto v = r.read<uint32_t>(a->base, 4);
  EXPECT_EQ(v, (std::vector<uint32_t>{1, 2, 3, 4}));
}

TEST(Limits, DeviceMemoryCapacityCountsLiveAllocations) {
  sim::DeviceMemory m(1000);
  const uint64_t a = m.allocate(600, "buffer 'a'");
  try {
    m.allocate(600, "buffer 'b'");
    FAIL() << "allocated past the capacity";
  } catch (const sim::OutOfDeviceMemory& e) {
    EXPECT_EQ(std::string(e.what()),
              "out of device memory: buffer 'b' needs 600 bytes; 600 of the limit of 1000 bytes "
              "are in use (the limit is set by --device-memory)");
  }
  m.free(a);
  EXPECT_NO_THROW(m.allocate(600, "buffer 'b'"));
}

TEST(Limits, AddressSpaceExhaustionIsAnOutOfMemoryError) {
  sim::DeviceMemory m(uint64_t{1} << 47);
  try {
    m.allocate(uint64_t{1} << 46, "buffer 'x'");
    FAIL() << "allocated 64 TiB";
  } catch (const sim::OutOfDeviceMemory& e) {
    EXPECT_EQ(std::string(e.what()),
              "out of device memory: buffer 'x' needs 70368744177664 bytes; the global address "
              "space is exhausted");
  }
}

TEST(Limits, HostRefusalIsAnOutOfMemoryErrorNotBadAlloc) {
  // Within an (absurd) capacity, a host that refuses 512 GiB gives an error naming the
  // buffer, never std::bad_alloc. A host that overcommits hands out untouched zero pages.
  sim::DeviceMemory m(uint64_t{1} << 40);
  try {
    m.allocate(uint64_t{1} << 39, "buffer 'x'");
    GTEST_SKIP() << "this host overcommits: 512 GiB of untouched pages were given";
  } catch (const sim::OutOfDeviceMemory& e) {
    EXPECT_EQ(std::string(e.what()),
              "out of device memory: buffer 'x' needs 549755813888 bytes; the host could not "
              "provide them");
  }
}

TEST(Limits, KernelParameterBytesAreTheChips32764) {
  test::PtxRunner r(kHead + ".visible .entry k(.param .align 4 .b8 big[32768])\n{\n  ret;\n}\n");
  EXPECT_THROW(
      {
        try {
          r.launch("k", {1, 1, 1}, {1, 1, 1}, {std::vector<uint8_t>(32768)});
        } catch (const sim::LaunchError& e) {
          EXPECT_EQ(std::string(e.what()),
                    "kernel 'k' takes 32768 bytes of parameters; the limit is 32764");
          throw;
        }
      },
      sim::LaunchError);
}

}  // namespace
}  // namespace warpsim
