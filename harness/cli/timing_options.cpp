#include "harness/cli/timing_options.h"

#include "harness/arg_spec.h"

namespace po = boost::program_options;

namespace warpsim::cli {

void addTimingOptions(po::options_description& opts) {
  opts.add_options()("timing", "predict cycles with the H200 timing model (sim/timing/)")(
      "timing-config", po::value<std::string>(),
      "a JSON file of timing parameters over the H200 defaults (implies --timing; "
      "configs/h200.json lists them all)")(
      "print-timing-config", "print the effective timing configuration: value, unit, source");
}

std::optional<sim::timing::TimingConfig> timingFrom(const po::variables_map& vm) {
  if (!vm.count("timing") && !vm.count("timing-config") && !vm.count("print-timing-config"))
    return std::nullopt;
  if (!vm.count("timing-config")) return sim::timing::TimingConfig{};
  try {
    return sim::timing::loadTimingConfig(vm["timing-config"].as<std::string>());
  } catch (const sim::timing::ConfigError& e) {
    throw harness::ArgError(std::string("--timing-config: ") + e.what());
  }
}

bool printTimingConfig(const po::variables_map& vm) { return vm.count("print-timing-config") > 0; }

}  // namespace warpsim::cli
