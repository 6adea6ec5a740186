// ptxgen: random PTX programs for differential testing of warpsim against the H200 at the
// level of single instructions.
//
// generateProgram(seed) writes one kernel
//
//   .visible .entry isa_prog(.param .u64 in, .param .u64 out)
//
// in which every thread loads `words` 64-bit input words from in[gtid * words ...] into a pool
// of registers of every kind (b16, b32, b64, f32, f64, pred; input word i initializes pool
// register i), runs a random straight-line-and-branches program over them (integer, logic,
// compare, f32/f64, f16/bf16, conversion, warp, shared-memory and barrier instructions with
// random types, modifiers, rounding modes, guard predicates and divergent if/else regions),
// and stores every pool register, at its natural width, into out[gtid * words + i] (predicates
// as 0/1; the rest of each 8-byte word stays as the zeroed buffer had it).
//
// Everything is a deterministic function of the seed (kernels::Rng, never std distributions),
// so the same seed gives the same text on every machine. The PTX only uses forms that
// `ptxas -arch=sm_90` accepts, and it has no undefined behaviour: every register is written
// before it is read, warp primitives run only where every lane of their member mask executes
// them (converged code, or a branch region entered by exactly the member lanes), shuffles only
// read lanes inside the member mask, and shared memory is read only after bar.sync and only
// where this exchange wrote it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace warpsim::ptxgen {

// Bumped whenever the same seed would give different PTX. Recorded cases keep their PTX text,
// so replays do not depend on it; it tells a reader which generator wrote a case.
constexpr unsigned kGeneratorVersion = 2;

struct GenOptions {
  unsigned minInstructions = 30, maxInstructions = 80;  // operations in the random body
  bool approx = false;         // also .approx/.full SFU forms (ex2 lg2 sin cos tanh rsqrt rcp...)
  bool warp = true;            // shfl vote match redux activemask elect
  bool shared = true;          // shared-memory exchanges between threads with bar.sync
  bool branches = true;        // divergent if/else regions
  unsigned guardPercent = 12;  // operations under a guard predicate (@%p / @!%p)
  bool fp8 = true;             // e4m3x2 / e5m2x2 conversions
  // The video instructions (vadd ... vset, vadd2/4 ... vset4): off by default so that a seed's
  // program stays what generator version 2 made; `--video` turns them on.
  bool video = false;
  // Contractible sequences: a mul without a rounding modifier into a scratch register, then
  // add/sub (and sometimes a neg between, a second consumer, or one that keeps the pair apart)
  // that ptxas may fuse into an fma (isa/contract.h). Off by default, as `--video`.
  bool contract = false;
  // The packed half-word integer forms (add/min/max .u16x2 and .s16x2, with .relu) and
  // mad24.hi.sat.s32: executed by the integer family since generator version 2.
  bool simulatorGaps = true;
  // Programs of one warp-level matrix instruction instead (mma.sync, ldmatrix, movmatrix; with
  // random and targeted inputs: harness/ptxgen/mma_program.cpp); the other options do not apply.
  bool mma = false;
  // Programs of one wgmma.mma_async (sm_90a) instead: one warpgroup, A and B from shared memory
  // in every layout and swizzle (harness/ptxgen/wgmma_program.cpp).
  bool wgmma = false;
};

// How a pool register's bits are meant: it decides the input generator's special values.
enum class InputKind : uint8_t {
  Int16,
  F16,
  BF16,  // b16 registers
  Int32,
  F16x2,
  BF16x2,  // b32 registers
  Int64,   // b64 registers
  F32,
  F64,   // f32 / f64 registers
  Pred,  // pred registers (the word's low bit)
};
const char* inputKindName(InputKind k);
// Throws std::invalid_argument on an unknown name.
InputKind inputKindFromName(const std::string& name);

struct OutputWord {
  std::string reg;                   // "%r3"
  std::vector<std::string> writers;  // the instructions that may have written its final value
                                     // (the last unconditional one, then guarded/divergent ones)
};

struct GeneratedProgram {
  uint64_t seed = 0;
  std::string ptx;
  std::string entry = "isa_prog";
  unsigned words = 0;  // input words = output words per thread
  unsigned blockSize = 0, gridSize = 0;
  std::vector<InputKind> inputs;      // the kind of input word i
  std::vector<OutputWord> outputs;    // output word i
  std::vector<std::string> forms;     // sorted, unique: every instruction form of the body
  std::vector<std::string> families;  // sorted, unique: the generator operations it drew
  unsigned threads() const { return blockSize * gridSize; }
};

GeneratedProgram generateProgram(uint64_t seed, const GenOptions& options = {});
// The --mma program of a seed (generateProgram with options.mma).
GeneratedProgram generateMmaProgram(uint64_t seed);
// The --wgmma program of a seed (generateProgram with options.wgmma).
GeneratedProgram generateWgmmaProgram(uint64_t seed);

// Every generator operation family (what `families` draws from), for coverage checks.
std::vector<std::string> allFamilies(const GenOptions& options = {});

// The input words of a program: threads * kinds.size() little-endian 64-bit words, drawn from
// kernels::Rng seeded by `seed` with special values weighted in per kind (NaNs of both signs
// and both kinds with payloads, infinities, zeros, subnormals, extremes, INT_MIN/INT_MAX,
// all-ones, shift amounts around the widths, small integers). Changing what this returns for
// a given (seed, kinds, threads) invalidates recorded cases: bump kInputVersion.
constexpr unsigned kInputVersion = 1;
std::vector<uint8_t> makeInputs(uint64_t seed, const std::vector<InputKind>& kinds,
                                unsigned threads);

// From the PTX text alone (so that it works on recorded cases whatever generator wrote them):
// the register stored into output word `word` and the instructions of the body that write it,
// last first. Empty register when the PTX has no store of that word.
OutputWord explainOutputWord(const std::string& ptx, unsigned word);

}  // namespace warpsim::ptxgen
