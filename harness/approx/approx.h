// Measuring the .approx functions (PTX ISA 9.7.3.8-22, 9.7.4.9-10) on the GPU against the
// simulator's models and against the exact function, over large input sets: a whole binade
// exhaustively (every f32 in it), a million random bit patterns over the whole range, every
// value of the 16-bit formats. `warpsim approx-measure` runs them (GPU and simulator side by
// side); the samples it writes are committed under tests/recorded/approx and replayed in CI.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/backend.h"
#include "kernels/card.h"

namespace warpsim::harness::approx {

// One PTX form: "ex2.approx.ftz.f32", "div.full.f32", "tanh.approx.bf16", ...
struct Function {
  std::string name;
  kernels::ElemType type;  // the operand and result format
  unsigned arity = 1;      // 2 for div
  // The binade measured exhaustively: every value with exponent field in [loExp, hiExp)
  // (f32 and f64 biased exponents; for f64 a random 2^20 of it). 16-bit forms take all 65536.
  unsigned loExp = 0, hiExp = 0;
  // The function itself in long double (the reference for the GPU's own error).
  long double (*exact)(long double a, long double b) = nullptr;
  bool absoluteError = false;       // sin, cos, lg2: PTX bounds the absolute error
  double rangeLo = 0, rangeHi = 0;  // half of the random set is uniform over this range
  double errorRange = 0;  // the GPU's error is measured for |a| <= errorRange only (0: all)
};

const std::vector<Function>& functions();
const Function* findFunction(const std::string& name);

// One input set of a function: its name and the operand bits (b empty unless arity 2).
struct InputSet {
  std::string name;  // "binade [1,2)", "random", "all"
  std::vector<uint64_t> a, b;
};
// The sets of a function. `limit` caps each set (0: the full sets), taking evenly spaced
// elements, so that tests and dry runs stay small.
std::vector<InputSet> inputSets(const Function& f, size_t limit = 0);

// The outputs of the function on a backend (bits, one per input).
std::vector<uint64_t> evaluate(Backend& backend, const Function& f, const InputSet& set);

struct Agreement {
  uint64_t inputs = 0;
  uint64_t exact = 0;        // bit for bit (a NaN agrees with a NaN only if the bits agree)
  uint64_t bothNaN = 0;      // of the mismatches: NaN on both sides, other bits
  uint64_t maxUlp = 0;       // over the non-NaN mismatches
  uint64_t nanVsNumber = 0;  // one side NaN, the other not
  uint64_t worstInput = 0, worstGpu = 0, worstSim = 0;  // where maxUlp was seen (a only)
  uint64_t ulpHistogram[4] = {0, 0, 0, 0};              // mismatches at 1, 2, 3-15, >= 16 ulp
};
Agreement compare(const Function& f, const InputSet& set, const std::vector<uint64_t>& gpu,
                  const std::vector<uint64_t>& sim);

// The GPU's own error against the exact function (finite results only): max ULP (of the
// result's format) and, for absoluteError functions, max absolute error.
struct Error {
  double maxUlp = 0, maxAbs = 0;
  uint64_t worstInput = 0;
};
Error errorOf(const Function& f, const InputSet& set, const std::vector<uint64_t>& out);

// The simulator's value of the function on one input (through a one-instruction kernel run in
// the simulator for a whole set at once: evaluate(simBackend, ...)).
std::unique_ptr<Backend> makeSimulator();

// A recorded sample: inputs with the GPU's outputs, and the agreement measured over the full
// sets on the device, as a committed text file:
//   warpsim-approx-sample 1
//   function ex2.approx.f32
//   device NVIDIA H200
//   set binade [1,2) inputs 8388608 exact 4352101 maxulp 1 gpu_maxulp 2.31
//   ...
//   sample_exact 540 of 1024
//   <a hex> [<b hex>] <gpu out hex>      (one line per sampled input)
struct Sample {
  std::string function, device;
  std::vector<std::string> setLines;  // the full-set figures, as measured (free text)
  uint64_t sampleExact = 0;           // of the samples, bit for bit in the simulator then
  uint64_t sampleMaxUlp = 0;
  std::vector<uint64_t> a, b, gpu;
};
void writeSample(const Sample& s, const std::string& path);
// Throws std::runtime_error naming the file and line on a malformed file.
Sample readSample(const std::string& path);

}  // namespace warpsim::harness::approx
