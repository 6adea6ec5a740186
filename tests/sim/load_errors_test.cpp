// Per-kernel loading and the messages of kernels that cannot run: a module loads whatever a
// kernel that is not launched holds; launching a kernel that reaches a function warpsim could
// not build is an isa::PtxError naming the kernel, the instruction and the user's CUDA line,
// once; an instruction that fails only when executed is a kernel fault that says so once.
// Golden files: tests/golden/load_errors/NAME.ptx (first line `// launch: KERNEL`) and
// NAME.err, the error or the fault's description.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "isa/diagnostic.h"
#include "sim/gpu.h"
#include "tests/support/ptx_runner.h"

namespace warpsim::test {
namespace {

namespace fs = std::filesystem;

std::string readFile(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// What launching `kernel` (no parameters, one thread) reports: the load-time error or the
// kernel fault's description; "" when it runs.
std::string launchReport(sim::Gpu& gpu, const sim::LoadedModule& m, const std::string& kernel,
                         const std::string& path) {
  try {
    sim::LaunchConfig c;
    c.entry = kernel;
    c.params = gpu.packParams(m, kernel, {});
    const sim::LaunchResult r = gpu.launch(m, c);
    return r.fault ? r.fault->describe(path) : "";
  } catch (const isa::PtxError& e) {
    return e.what();
  }
}

TEST(LoadErrorsGolden, MessagesMatch) {
  const fs::path dir = fs::path(WARPSIM_SOURCE_DIR) / "tests/golden/load_errors";
  std::vector<fs::path> cases;
  for (const fs::directory_entry& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".ptx") cases.push_back(e.path());
  std::sort(cases.begin(), cases.end());
  EXPECT_GE(cases.size(), 5u);
  for (const fs::path& ptx : cases) {
    SCOPED_TRACE(ptx.filename().string());
    const std::string text = readFile(ptx);
    const std::string tag = "// launch: ";
    ASSERT_EQ(text.rfind(tag, 0), 0u) << "first line must be '" << tag << "KERNEL'";
    const std::string kernel = text.substr(tag.size(), text.find('\n') - tag.size());
    fs::path errPath = ptx;
    errPath.replace_extension(".err");
    ASSERT_TRUE(fs::exists(errPath)) << "missing " << errPath;
    std::string expected = readFile(errPath);
    while (!expected.empty() && expected.back() == '\n') expected.pop_back();
    const std::string rel = "tests/golden/load_errors/" + ptx.filename().string();
    sim::Gpu gpu;
    const sim::LoadedModule& m = gpu.loadPtx(text, rel);  // loads, whatever the kernels hold
    const std::string got = launchReport(gpu, m, kernel, rel);
    EXPECT_EQ(got, expected);
    // Said once: the kind and the location are not repeated.
    EXPECT_EQ(got.find("not supported yet"), got.rfind("not supported yet")) << got;
  }
}

TEST(LazyLoading, AnotherKernelsUnsupportedConstructDoesNotRejectTheModule) {
  const fs::path ptx =
      fs::path(WARPSIM_SOURCE_DIR) / "tests/golden/load_errors/local_recursion_in_kernel.ptx";
  PtxRunner r(readFile(ptx));
  const uint64_t out = r.buffer<uint32_t>(1);
  const auto res = r.launch("good", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  EXPECT_EQ(r.read<uint32_t>(out, 1)[0], 7u);
  // The other kernel is refused at launch, not at load.
  EXPECT_THROW(r.launch("bad", {1, 1, 1}, {1, 1, 1}, {}), isa::PtxError);
}

TEST(LazyLoading, ParseErrorsStillRejectTheModule) {
  sim::Gpu gpu;
  EXPECT_THROW(gpu.loadPtx(".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n"
                           "{\n  add.s32 %r1, ;\n}\n",
                           "p.ptx"),
               isa::PtxError);
}

TEST(LazyLoading, RecursionWithLocalMemoryRefusesOnlyTheKernelsThatReachIt) {
  const std::string ptx = R"(.version 9.0
.target sm_90
.address_size 64
.func rec()
{
  .local .align 4 .b8 buf[16];
  .reg .b64 %rd<2>;
  mov.u64 %rd1, buf;
  call.uni rec, ();
  ret;
}
.visible .entry uses()
{
  call.uni rec, ();
  ret;
}
.visible .entry plain()
{
  ret;
}
)";
  PtxRunner r(ptx);
  const auto res = r.launch("plain", {1, 1, 1}, {1, 1, 1}, {});
  EXPECT_FALSE(res.fault);
  try {
    r.launch("uses", {1, 1, 1}, {1, 1, 1}, {});
    ADD_FAILURE() << "launched";
  } catch (const isa::PtxError& e) {
    EXPECT_EQ(e.message(),
              "kernel 'uses' cannot run: it calls 'rec': not supported yet: recursion through "
              "'rec', which has .local memory");
    EXPECT_EQ(e.line(), 4u);
  }
}

TEST(LazyLoading, RecursionWithLocalMemoryNamesTheUsersLineOnce) {
  // The function's first .loc is the user's line (here the recursive function's own).
  const std::string ptx = R"(.version 9.0
.target sm_90
.address_size 64
.file 1 "/src/walk.cu"
.func rec()
{
  .local .align 4 .b8 buf[16];
  .reg .b64 %rd<2>;
  .loc 1 12 3
  mov.u64 %rd1, buf;
  .loc 1 13 3
  call.uni rec, ();
  ret;
}
.visible .entry uses()
{
  .loc 1 20 3
  call.uni rec, ();
  ret;
}
)";
  PtxRunner r(ptx);
  try {
    r.launch("uses", {1, 1, 1}, {1, 1, 1}, {});
    ADD_FAILURE() << "launched";
  } catch (const isa::PtxError& e) {
    EXPECT_EQ(e.message(),
              "kernel 'uses' cannot run: it calls 'rec': not supported yet: recursion through "
              "'rec', which has .local memory at /src/walk.cu:12");
  }
}

}  // namespace
}  // namespace warpsim::test
