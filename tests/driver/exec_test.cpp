// warpsim exec end to end: the example programs under kernels/programs/ (built by nvcc 13 with
// PTX for compute_90) run unmodified on the simulator's libcuda.so.1 and print their own
// verdict; a kernel fault is reported as the GPU would and by warpsim; usage errors exit 2.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
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

// Graphs built node by node and captured from streams, relaunched with new arguments, and
// conditional nodes (while, if/else, switch) whose conditions kernels set.
TEST(Exec, CudaGraphsCapturedBuiltAndConditional) {
  const Outcome o = exec(program("cuda_graphs"));
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_FALSE(has(o, "WRONG")) << o.output;
  EXPECT_TRUE(has(o, "captured graph has 5 nodes (its kernels; event records are edges): ok"))
      << o.output;
  EXPECT_TRUE(has(o, "while node: the body ran until the device cleared the condition: ok"))
      << o.output;
  // Cloning read a dependency on a later-made node past the copy's end (fixed 2026-12-05).
  EXPECT_TRUE(has(o,
                  "an edge to an earlier-made node orders it after, in the graph and its "
                  "clone: ok"))
      << o.output;
  EXPECT_TRUE(has(o, "cuda_graphs: PASSED")) << o.output;
}

TEST(Exec, StreamOrderedAllocationFromMemoryPools) {
  const Outcome o = exec(program("memory_pools"));
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_FALSE(has(o, "WRONG")) << o.output;
  EXPECT_TRUE(has(o, "cudaFreeAsync returns it; the high-water mark stays: ok")) << o.output;
  EXPECT_TRUE(has(o, "memory_pools: PASSED")) << o.output;
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

// cudaMallocMipmappedArray, cudaGetMipmappedArrayLevel (past the last level: an error), a
// mipmapped texture object and tex2DLod / tex2DGrad at levels of detail between and past levels.
TEST(Exec, MipmappedArraysAndLevelOfDetail) {
  const Outcome o = exec(program("texture_mipmap"));
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(has(o, "lod  2.25: 5 (want 5); gradient 2.000: 8 (want 8)")) << o.output;
  EXPECT_TRUE(has(o, "texture_mipmap: PASSED")) << o.output;
}

TEST(Exec, TmaPipelineWithTensorMapsFromTheDriver) {
  const Outcome o = exec(program("tma_pipeline"));
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_FALSE(has(o, "WRONG")) << o.output;
  EXPECT_TRUE(has(o, "tma_pipeline: PASSED")) << o.output;
}

// -rdc=true: the runtime registers the translation unit's prelinked fatbinary beside an
// empty linked one; its PTX is the module, and device-side launches (tail launches too) run.
TEST(Exec, DynamicParallelismWithRelocatableDeviceCode) {
  const Outcome o = exec(program("cdp_tree"));
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(has(o, "cdp_tree: PASSED (31 grids)")) << o.output;
  // Under --timing the one host launch's prediction covers its 30 descendant grids.
  const Outcome t = exec("--timing " + program("cdp_tree"));
  EXPECT_EQ(t.status, 0) << t.output;
  EXPECT_TRUE(has(t, "program on the timing model (h200): 1 launches")) << t.output;
}

// -rdc=true with device code in two translation units: the driver links their PTX (an extern
// function and variable of one defined in the other, each unit's own static helper and printf
// strings) and both units' kernels run.
TEST(Exec, RelocatableDeviceCodeOfTwoTranslationUnitsIsLinked) {
  const Outcome o = exec(program("rdc_units"));
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(has(o, "apply: unit 1 says hello")) << o.output;
  EXPECT_TRUE(has(o, "report: unit 2 says total = 499507")) << o.output;
  EXPECT_TRUE(has(o, "rdc_units: PASSED (2 translation units)")) << o.output;
}

// cuLinkCreate / cuLinkAddData / cuLinkComplete: two PTX inputs (a kernel and the function it
// calls) are linked, and the image loads and runs; NVVM input is refused with a message.
TEST(Exec, JitLinkingThroughTheDriverApi) {
  const Outcome o = exec(program("jit_link"));
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(has(o, "jit_link: PASSED")) << o.output;
  EXPECT_TRUE(has(o, "input type 5 (LTO IR or NVVM) cannot be linked by the simulator"))
      << o.output;
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
  EXPECT_TRUE(has(o, "cudaImportExternalMemory: cudaErrorCallRequiresNewerDriver")) << o.output;
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
  EXPECT_TRUE(has(bad, "the argument ('many') for option '--threads' is not a whole number"))
      << bad.output;
  const Outcome toolAlone = exec("--tool racecheck " + program("vector_add"));
  EXPECT_EQ(toolAlone.status, 2);
  EXPECT_TRUE(has(toolAlone, "--tool and --print-limit go with --check")) << toolAlone.output;
  const Outcome badTool = exec("--check --tool nope " + program("vector_add"));
  EXPECT_EQ(badTool.status, 2);
  EXPECT_TRUE(has(badTool, "--tool 'nope': expected memcheck")) << badTool.output;
  const Outcome badConfig = exec("--timing-config /no/such.json " + program("vector_add"));
  EXPECT_EQ(badConfig.status, 2);
  EXPECT_TRUE(has(badConfig, "--timing-config: /no/such.json")) << badConfig.output;
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

// --timing: every launch of the multi-stream pipeline on the timing model, one line each, the
// program's totals per kernel, and the program's own event timing printing the predicted time.
// Numbers are asserted against each other, not fixed: the model's parameters move.
TEST(ExecTiming, EveryLaunchPredictedAndEventsTimeThePrediction) {
  const Outcome o = exec("--timing " + program("stream_pipeline"));
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(has(o, "stream_pipeline: PASSED")) << o.output;
  const std::regex launch(
      R"(warpsim: launch (\d+) (\w+)\(.*\)<<<\((\d+),1,1\), \((\d+),1,1\), 0>>>: (\d+) cycles, ([0-9.]+) us at ([0-9.]+) GHz)");
  std::map<std::string, int> launches;
  uint64_t cycles = 0;
  int count = 0;
  for (auto it = std::sregex_iterator(o.output.begin(), o.output.end(), launch);
       it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    EXPECT_EQ(std::stoi(m[1]), ++count);
    ++launches[m[2]];
    EXPECT_EQ(m[3], m[2] == "gather" ? "1" : "16");
    EXPECT_GT(std::stoull(m[5]), 1000u);
    cycles += std::stoull(m[5]);
  }
  EXPECT_EQ(count, 19) << o.output;
  EXPECT_EQ(launches["scale"], 6);
  EXPECT_EQ(launches["smooth"], 6);
  EXPECT_EQ(launches["sumInto"], 6);
  EXPECT_EQ(launches["gather"], 1);
  std::smatch total;
  ASSERT_TRUE(std::regex_search(
      o.output, total,
      std::regex(
          R"(program on the timing model \(h200\): 19 launches, (\d+) cycles, ([0-9.]+) us)")))
      << o.output;
  EXPECT_EQ(std::stoull(total[1]), cycles);
  EXPECT_TRUE(has(o, "6 launches  sumInto(float const*, float*, int)")) << o.output;
  EXPECT_TRUE(has(o, "1 launch    gather(float const*, float*, int)")) << o.output;
  // The events were recorded around every launch: their elapsed time is the whole prediction.
  std::smatch events;
  ASSERT_TRUE(std::regex_search(o.output, events, std::regex(R"(events measured ([0-9.]+) ms)")));
  EXPECT_NEAR(std::stod(events[1]) * 1000, std::stod(total[2]), 0.01) << o.output;
}

TEST(ExecTiming, WithoutTimingEventsMeasureHostTime) {
  const Outcome o = exec("--threads 2 " + program("stream_pipeline"));
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_FALSE(has(o, "cycles")) << o.output;
  std::smatch events;
  ASSERT_TRUE(std::regex_search(o.output, events, std::regex(R"(events measured ([0-9.]+) ms)")));
  EXPECT_GT(std::stod(events[1]), 0.1) << o.output;  // 19 simulated launches take milliseconds
}

// The whole compute-sanitizer style report of a program with an uninitialized read and a
// shared-memory race, against its golden file (paths relative to the repository).
TEST(ExecCheck, CheckerBugsReportMatchesGolden) {
  // stdout only: the per-launch lines on stderr come in no fixed order against it.
  const Outcome o = warpsim::test::shell("{ " + std::string(WARPSIM_BINARY) + " exec --check " +
                                         program("checker_bugs") + " 2>/dev/null; }");
  EXPECT_EQ(o.status, 1) << o.output;  // the program exits 0; a checker found errors
  std::string text = o.output;
  const std::string root = std::string(WARPSIM_SOURCE_DIR) + "/";
  for (size_t at; (at = text.find(root)) != std::string::npos;) text.erase(at, root.size());
  std::ifstream golden(std::string(WARPSIM_SOURCE_DIR) + "/tests/golden/exec/checker_bugs.txt");
  const std::string expected((std::istreambuf_iterator<char>(golden)), {});
  EXPECT_EQ(text, expected);
}

TEST(ExecCheck, PerLaunchLinesShowWhereFindingsAppear) {
  const Outcome o = exec("--check " + program("checker_bugs"));
  EXPECT_EQ(o.status, 1) << o.output;
  // The host copied all of `full` and half of `partial`; `made` was written by a kernel.
  EXPECT_TRUE(has(o,
                  "launch 1 sumAll(int const*, int*, int)<<<(4,1,1), (64,1,1), 0>>>: no new "
                  "findings"))
      << o.output;
  EXPECT_TRUE(has(o,
                  "launch 3 sumAll(int const*, int*, int)<<<(4,1,1), (64,1,1), 0>>>: no new "
                  "findings"))
      << o.output;
  EXPECT_TRUE(has(o,
                  "launch 4 sumAll(int const*, int*, int)<<<(4,1,1), (64,1,1), 0>>>: 1 new "
                  "finding (initcheck 1)"))
      << o.output;
  EXPECT_TRUE(has(o,
                  "launch 5 rotate(int const*, int*)<<<(1,1,1), (64,1,1), 0>>>: 3 new "
                  "findings (racecheck 2, initcheck 1)"))
      << o.output;
  const Outcome one = exec("--check --tool racecheck " + program("checker_bugs"));
  EXPECT_EQ(one.status, 1) << one.output;
  EXPECT_TRUE(has(one, "ERROR SUMMARY: 2 errors")) << one.output;
  EXPECT_FALSE(has(one, "INITCHECK")) << one.output;
  const Outcome memcheck = exec("--check --tool memcheck " + program("checker_bugs"));
  EXPECT_EQ(memcheck.status, 0) << memcheck.output;  // no invalid access: the program's status
  EXPECT_TRUE(has(memcheck, "ERROR SUMMARY: 0 errors")) << memcheck.output;
}

TEST(ExecCheck, CleanPipelineHasNoErrors) {
  const Outcome o = exec("--threads 2 --check " + program("stream_pipeline"));
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(has(o, "stream_pipeline: PASSED")) << o.output;
  EXPECT_TRUE(has(o,
                  "launch 19 gather(float const*, float*, int)<<<(1,1,1), (1,1,1), 0>>>: no "
                  "new findings"))
      << o.output;
  EXPECT_TRUE(has(o, "========= ERROR SUMMARY: 0 errors")) << o.output;
}

// memcheck stops the kernel at an invalid access, as compute-sanitizer does: the program's next
// call fails with cudaErrorLaunchFailure, and warpsim exits 1.
TEST(ExecCheck, InvalidAccessIsReportedAndFailsTheLaunch) {
  const Outcome o = exec("--check --tool memcheck " + program("out_of_bounds"));
  EXPECT_EQ(o.status, 1) << o.output;
  EXPECT_TRUE(has(o, "========= Invalid __global__ write of size 4 bytes")) << o.output;
  EXPECT_TRUE(has(o, "out_of_bounds.cu:8 | if (i <= n) out[i] = i;")) << o.output;
  EXPECT_TRUE(has(o, "synchronize: cudaErrorLaunchFailure")) << o.output;
  EXPECT_TRUE(has(o, "========= ERROR SUMMARY: 1 error")) << o.output;
}

// --json FILE: every launch with its prediction (under ncu's names) and its new findings, the
// totals and the findings, written when the program exits.
TEST(ExecJson, LaunchesTimingAndFindings) {
  const std::string file = ::testing::TempDir() + "/warpsim_exec.json";
  std::remove(file.c_str());
  const Outcome o =
      exec("--timing --check --tool initcheck --json " + file + " " + program("checker_bugs"));
  EXPECT_EQ(o.status, 1) << o.output;
  std::ifstream in(file);
  ASSERT_TRUE(in) << o.output;
  const nlohmann::json j = nlohmann::json::parse(in);
  ASSERT_EQ(j["launches"].size(), 5u);
  uint64_t cycles = 0;
  for (size_t i = 0; i < 5; ++i) {
    const auto& l = j["launches"][i];
    EXPECT_EQ(l["launch"], i + 1);
    EXPECT_EQ(l["block"], nlohmann::json::array({64, 1, 1}));
    EXPECT_FALSE(l["faulted"].get<bool>());
    EXPECT_EQ(l["new_findings"].size(), 1u);  // initcheck only
    EXPECT_EQ(l["new_findings"]["initcheck"], i == 3 ? 1 : 0) << l;
    cycles += l["timing"]["gpc__cycles_elapsed.max"].get<uint64_t>();
  }
  EXPECT_EQ(j["launches"][4]["kernel"], "rotate(int const*, int*)");
  EXPECT_EQ(j["launches"][4]["grid"], nlohmann::json::array({1, 1, 1}));
  EXPECT_EQ(j["timing"]["config"], "h200");
  EXPECT_EQ(j["timing"]["launches"], 5);
  EXPECT_EQ(j["timing"]["cycles"].get<uint64_t>(), cycles);
  EXPECT_EQ(j["timing"]["kernels"].size(), 3u);  // iota, rotate, sumAll
  EXPECT_EQ(j["check"]["errors"], 1);
  ASSERT_EQ(j["check"]["tools"].size(), 1u);
  EXPECT_EQ(j["check"]["tools"][0]["tool"], "initcheck");
  EXPECT_EQ(j["check"]["tools"][0]["findings"][0]["count"], 128);  // the unwritten half
}

// --timing-config applies to every launch of the program and to its event times: at half the
// clock, the same cycles take twice as long.
TEST(ExecTiming, ConfigFileAppliesToEveryLaunch) {
  const std::string config = ::testing::TempDir() + "/warpsim_exec_clock.json";
  std::ofstream(config) << R"({"name": "h200-half-clock", "clock_ghz": 0.99})";
  const Outcome o = exec("--timing-config " + config + " " + program("stream_pipeline"));
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(has(o, "program on the timing model (h200-half-clock): 19 launches")) << o.output;
  std::smatch total, events;
  ASSERT_TRUE(
      std::regex_search(o.output, total, std::regex(R"((\d+) cycles, ([0-9.]+) us predicted)")));
  ASSERT_TRUE(std::regex_search(o.output, events, std::regex(R"(events measured ([0-9.]+) ms)")));
  EXPECT_NEAR(std::stod(total[2]), std::stod(total[1]) / 990.0, 0.01);
  EXPECT_NEAR(std::stod(events[1]) * 1000, std::stod(total[2]), 0.01);
  EXPECT_EQ(std::string(o.output).find("at 1.98 GHz"), std::string::npos) << o.output;
}

// A script that runs several CUDA programs: each reports its own findings, and the exit status
// counts them all (the clean program running last does not hide the errors before it).
TEST(ExecCheck, ScriptOfSeveralProgramsCountsAllErrors) {
  const Outcome o =
      exec("--check -- sh -c '" + program("checker_bugs") + " && " + program("vector_add") + "'");
  EXPECT_EQ(o.status, 1) << o.output;
  EXPECT_TRUE(has(o, "========= ERROR SUMMARY: 4 errors")) << o.output;
  EXPECT_TRUE(has(o, "vector_add: 50000 elements PASSED")) << o.output;
  EXPECT_TRUE(has(o, "========= ERROR SUMMARY: 0 errors")) << o.output;
}

}  // namespace
