#include "harness/cli/timing_options.h"

#include "harness/arg_spec.h"

namespace po = boost::program_options;

namespace warpsim::cli {

void addTimingOptions(po::options_description& opts) {
  opts.add_options()("timing", "predict cycles with the H200 timing model (sim/timing/)")(
      "timing-config", po::value<std::string>(),
      "a JSON file of timing parameters over the H200 defaults (implies --timing; "
      "configs/h200.json lists them all)")(
      "print-timing-config", "print the effective timing configuration: value, unit, source")(
      "trace", po::value<std::string>(),
      "write a Chrome/Perfetto trace of the timed launches to FILE (implies --timing; open it "
      "in ui.perfetto.dev)")("trace-limit", po::value<uint64_t>(),
                             "events the trace keeps at most (default 1000000; the rest are "
                             "dropped and counted)")(
      "source-lines", po::value<unsigned>(),
      "attribute cycles and stalls to source lines: the text lists the top N, --json all "
      "(implies --timing)")(
      "timing-sample", po::value<uint64_t>(),
      "simulate K waves of CTAs in detail, the rest functionally, and extrapolate (implies "
      "--timing; use K >= 2: docs/FIDELITY.md has the error it adds)");
}

std::optional<sim::timing::TimingConfig> timingFrom(const po::variables_map& vm) {
  if (!vm.count("timing") && !vm.count("timing-config") && !vm.count("print-timing-config") &&
      !vm.count("trace") && !vm.count("trace-limit") && !vm.count("source-lines") &&
      !vm.count("timing-sample"))
    return std::nullopt;
  sim::timing::TimingConfig c;
  if (vm.count("timing-config")) {
    try {
      c = sim::timing::loadTimingConfig(vm["timing-config"].as<std::string>());
    } catch (const sim::timing::ConfigError& e) {
      throw harness::ArgError(std::string("--timing-config: ") + e.what());
    }
  }
  if (vm.count("trace")) {
    c.run.traceFile = vm["trace"].as<std::string>();
    if (c.run.traceFile.empty()) throw harness::ArgError("--trace: needs a file name");
  }
  if (vm.count("trace-limit")) {
    if (!vm.count("trace")) throw harness::ArgError("--trace-limit: only with --trace FILE");
    c.run.traceEventLimit = vm["trace-limit"].as<uint64_t>();
    if (c.run.traceEventLimit == 0) throw harness::ArgError("--trace-limit: must be at least 1");
  }
  c.run.sourceLines = vm.count("source-lines") > 0;
  if (vm.count("timing-sample")) {
    c.run.sampleWaves = vm["timing-sample"].as<uint64_t>();
    if (c.run.sampleWaves == 0)
      throw harness::ArgError("--timing-sample: must be at least 1 (waves simulated in detail)");
  }
  return c;
}

bool printTimingConfig(const po::variables_map& vm) { return vm.count("print-timing-config") > 0; }

unsigned sourceLinesShown(const po::variables_map& vm) {
  return vm.count("source-lines") ? vm["source-lines"].as<unsigned>() : 0;
}

}  // namespace warpsim::cli

namespace warpsim::cli {

void noteTrace(const sim::timing::TimingConfig& c,
               const std::vector<sim::timing::TimingReport>& launches, std::ostream& err) {
  if (c.run.traceFile.empty() || launches.empty()) return;
  const sim::timing::TimingReport& last = launches.back();
  err << "warpsim: trace " << c.run.traceFile << ": " << last.traceEvents
      << " events (open it in ui.perfetto.dev)";
  if (last.traceDropped)
    err << "; TRUNCATED: " << last.traceDropped << " more events dropped past --trace-limit "
        << c.run.traceEventLimit;
  err << "\n";
}

}  // namespace warpsim::cli
