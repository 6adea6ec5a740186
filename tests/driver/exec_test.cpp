// warpsim exec end to end: the example programs under kernels/programs/ (built by nvcc 13 with
// PTX for compute_90) run unmodified on the simulator's libcuda.so.1 and print their own
// verdict; a kernel fault is reported as the GPU would and by warpsim; usage errors exit 2.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "harness/driver/cubin.h"
#include "harness/driver/fatbinary.h"
#include "tests/support/shell.h"

namespace {

using warpsim::test::Outcome;

Outcome exec(const std::string& args) {
  return warpsim::test::shell(std::string(WARPSIM_BINARY) + " exec " + args);
}

std::string program(const std::string& name) {
  return std::string(WARPSIM_PROGRAMS_DIR) + "/" + name;
}

bool has(const Outcome& o, const std::string& text) {
  return o.output.find(text) != std::string::npos;
}

TEST(Exec, VectorAddPasses) {
  const Outcome o = exec("--threads 2 " + program("vector_add"));
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(has(o, "vector_add: 50000 elements PASSED")) << o.output;
}

TEST(Exec, DeviceIsAnH200) {
  const Outcome o = exec(program("device_query"));
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(has(o, "compute capability: 9.0")) << o.output;
  EXPECT_TRUE(has(o, "multiprocessors: 132")) << o.output;
  EXPECT_TRUE(has(o, "device_query: PASSED")) << o.output;
}

TEST(Exec, MultiStreamPipelinePasses) {
  const Outcome o = exec("--threads 2 " + program("stream_pipeline"));
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(has(o, "host function ran")) << o.output;
  EXPECT_TRUE(has(o, "stream_pipeline: PASSED")) << o.output;
}

TEST(Exec, EveryKindOfMemoryAndKernelPrintf) {
  const Outcome o = exec("--threads 2 " + program("memory_kinds"));
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_FALSE(has(o, "WRONG")) << o.output;
  EXPECT_TRUE(has(o, "hello from block 0: value 42\nhello from block 1: value 42\n")) << o.output;
  EXPECT_TRUE(has(o, "memory_kinds: PASSED")) << o.output;
}

TEST(Exec, TextureAndSurfaceObjects) {
  const Outcome o = exec("--threads 2 " + program("texture_objects"));
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_FALSE(has(o, "WRONG")) << o.output;
  EXPECT_TRUE(has(o, "texture_objects: PASSED")) << o.output;
}

TEST(Exec, TmaPipelineWithTensorMapsFromTheDriver) {
  const Outcome o = exec(program("tma_pipeline"));
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_FALSE(has(o, "WRONG")) << o.output;
  EXPECT_TRUE(has(o, "tma_pipeline: PASSED")) << o.output;
}

// The registers ptxas gave `kernel` in the sm_90 cubin of a built program.
int cubinRegisters(const std::string& path, const std::string& kernel) {
  using namespace warpsim::driver;
  std::ifstream in(path, std::ios::binary);
  const std::vector<uint8_t> b((std::istreambuf_iterator<char>(in)), {});
  for (size_t at = 0; at + 16 < b.size(); at += 8) {
    uint32_t magic;
    std::memcpy(&magic, b.data() + at, 4);
    if (magic != kFatbinMagic) continue;
    for (const FatbinEntry& e : parseFatbinary(b.data() + at, b.size() - at))
      if (e.kind == uint16_t(EntryKind::Elf)) {
        const std::string elf = entryText(e);
        const auto regs =
            cubinRegisterCounts(reinterpret_cast<const uint8_t*>(elf.data()), elf.size());
        if (regs.count(kernel)) return regs.at(kernel);
      }
  }
  return -1;
}

TEST(Exec, FunctionAttributesTakePtxassRegisterCount) {
  const int regs = cubinRegisters(program("memory_kinds"), "_Z7addRowsPfmii");
  ASSERT_GT(regs, 0);
  const Outcome o = exec(program("memory_kinds"));
  EXPECT_TRUE(has(o, "addRows: " + std::to_string(regs) + " registers per thread")) << o.output;
}

TEST(Exec, KernelFaultIsStickyAndNamesThreadBlockAndLine) {
  const Outcome o = exec(program("out_of_bounds"));
  EXPECT_EQ(o.status, 3) << o.output;  // the program's own exit status
  EXPECT_TRUE(has(o,
                  "warpsim: in kernel fill(int*, int) (launch 1): kernel fault "
                  "(out-of-bounds access): store of 4 bytes"))
      << o.output;
  EXPECT_TRUE(has(o, "past the end of cudaMalloc buffer #1 (4000 bytes")) << o.output;
  EXPECT_TRUE(has(o, "out_of_bounds.cu:8")) << o.output;
  EXPECT_TRUE(has(o, "thread (232,0,0) block (3,0,0)")) << o.output;
  EXPECT_TRUE(has(o, "launch: cudaSuccess")) << o.output;
  EXPECT_TRUE(has(o, "synchronize: cudaErrorIllegalAddress")) << o.output;
  EXPECT_TRUE(has(o, "later copy: cudaErrorIllegalAddress")) << o.output;
}

TEST(Exec, UnsupportedApisFailCleanly) {
  const Outcome o = exec(program("unsupported_apis"));
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(has(o, "cudaGraphCreate: cudaErrorCallRequiresNewerDriver")) << o.output;
  EXPECT_TRUE(has(o, "unsupported_apis: PASSED")) << o.output;
}

TEST(Exec, KeepPtxWritesTheModuleTheFaultLinesReferTo) {
  const std::string dir = ::testing::TempDir() + "/warpsim_keep_ptx";
  const Outcome o = exec("--keep-ptx " + dir + " " + program("out_of_bounds"));
  EXPECT_EQ(o.status, 3) << o.output;
  EXPECT_TRUE(has(o, "(module1.compute_90.ptx:42, st.global.u32)")) << o.output;
  const Outcome line = warpsim::test::shell("sed -n 42p " + dir + "/module1.compute_90.ptx");
  EXPECT_TRUE(has(line, "st.global.u32")) << line.output;
}

TEST(Exec, ReportsEachLaunch) {
  const Outcome o = exec("--report " + program("vector_add"));
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(has(o,
                  "warpsim: launch 1 vectorAdd(float const*, float const*, float*, "
                  "int)<<<(196,1,1), (256,1,1), 0>>>: 50176 threads"))
      << o.output;
}

TEST(Exec, ProgramWithoutPtxGetsTheFix) {
  const Outcome o = exec(program("vector_add_sass_only"));
  EXPECT_EQ(o.status, 1) << o.output;
  EXPECT_TRUE(has(o, "holds sm_90 SASS and no PTX for compute_90")) << o.output;
  EXPECT_TRUE(has(o, "-gencode arch=compute_90,code=compute_90")) << o.output;
}

TEST(Exec, UsageErrorsExitWithTwo) {
  EXPECT_EQ(exec("").status, 2);
  EXPECT_EQ(exec("--frobnicate " + program("vector_add")).status, 2);
  const Outcome bad = exec("--threads many " + program("vector_add"));
  EXPECT_EQ(bad.status, 2);
  EXPECT_TRUE(has(bad, "--threads takes a number, not 'many'")) << bad.output;
  const Outcome missing = exec("/no/such/program");
  EXPECT_EQ(missing.status, 2);
  EXPECT_TRUE(has(missing, "cannot run '/no/such/program'")) << missing.output;
  EXPECT_EQ(exec("--help").status, 0);
}

TEST(Exec, ProgramArgumentsAndExitStatusPassThrough) {
  const Outcome o = warpsim::test::shell(std::string(WARPSIM_BINARY) +
                                         " exec -- sh -c 'echo \"$0 $1\"; exit 7' a b");
  EXPECT_EQ(o.status, 7);
  EXPECT_TRUE(has(o, "a b")) << o.output;
}

}  // namespace
