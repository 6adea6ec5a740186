// warpsim link FILE.ptx... -o OUT.ptx: several translation units' PTX (nvcc -rdc=true -ptx)
// linked into one module (isa/ptx_link.h), which `warpsim run`, `check` and `diff` then load.
// The driver behind `warpsim exec` links a -rdc=true program's units, and what a program gives
// cuLinkAddData, the same way.
#include <boost/program_options.hpp>

#include <fstream>
#include <iostream>

#include "harness/arg_spec.h"
#include "harness/cli/cli.h"
#include "harness/cli/command_line.h"
#include "harness/nvcc.h"
#include "isa/diagnostic.h"
#include "isa/ptx_link.h"

namespace po = boost::program_options;

namespace warpsim::cli {

namespace {

constexpr const char* kLinkUsage =
    R"(usage: warpsim link FILE.ptx... -o OUT.ptx

Links the PTX of several translation units (each compiled with nvcc -rdc=true -ptx
-arch=sm_90) into one module, as the CUDA driver's JIT linker does: an .extern function or
variable is another unit's .visible definition, a .weak definition yields to a strong one,
each unit keeps its own internal symbols (printf's $str, static functions), and two .visible
definitions of one name are an error naming both files. The units' text is kept whole, so a
kernel fault still names its CUDA source line. Exit status 0, 2 on bad input or usage.
)";

}  // namespace

int linkCommand(const std::vector<std::string>& args) {
  po::options_description opts("link options");
  opts.add_options()("help,h", "show this help")("files", po::value<std::vector<std::string>>(),
                                                 "the units' PTX files")(
      "output,o", po::value<std::string>(), "the linked module's file");
  po::positional_options_description pos;
  pos.add("files", -1);
  po::variables_map vm;
  if (!parseOptions(args, opts, pos, vm, kLinkUsage, "link")) return kUsage;
  if (vm.count("help")) {
    std::cout << kLinkUsage << "\n" << opts;
    return kOk;
  }
  try {
    if (!vm.count("files")) throw harness::ArgError("no PTX files given");
    if (!vm.count("output")) throw harness::ArgError("-o OUT.ptx: where to write the module");
    std::vector<isa::PtxUnit> units;
    for (const std::string& f : vm["files"].as<std::vector<std::string>>())
      units.push_back({harness::readTextFile(f), f});
    const std::string linked = isa::linkPtx(units);
    const std::string out = vm["output"].as<std::string>();
    std::ofstream o(out, std::ios::binary);
    if (!(o << linked) || !o.flush())
      throw harness::ArgError("-o '" + out + "': cannot write the file");
    return kOk;
  } catch (const harness::ArgError& e) {
    std::cerr << "warpsim link: " << e.what() << "\n";
  } catch (const harness::ToolError& e) {
    std::cerr << "warpsim link: " << e.what() << "\n";
  } catch (const isa::PtxError& e) {
    std::cerr << e.what() << "\n";
  }
  return kUsage;
}

}  // namespace warpsim::cli
