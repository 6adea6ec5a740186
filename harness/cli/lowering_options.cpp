#include "harness/cli/lowering_options.h"

namespace po = boost::program_options;

namespace warpsim::cli {

void addLoweringOptions(po::options_description& opts) {
  opts.add_options()("no-contract",
                     "execute PTX literally: do not fuse mul + add/sub pairs into one fma as "
                     "ptxas does (results then round twice where the chip rounds once)");
}

void applyLoweringOptions(const po::variables_map& vm, sim::LaunchOptions& lo) {
  lo.contract = vm.count("no-contract") == 0;
}

}  // namespace warpsim::cli
