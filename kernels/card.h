// A kernel card: everything the project knows about one suite kernel, so that tests,
// benchmarks, differential runs and recordings pick a kernel up from its card alone.
//
//  - source: the .cu file (kernels/<family>/<source>.cu), compiled by the build with
//    `nvcc -ptx -lineinfo -arch=sm_90`; the PTX text is embedded (kernels/ptx_registry.h)
//  - make(size, seed): a Problem for a problem size: the launches (geometry, arguments) and the
//    initial contents of every device buffer, inputs drawn from a generator seeded by `seed`
//  - reference(problem): the CPU reference: writes the expected final contents of every
//    output buffer into problem.buffers[i].bytes (the inputs stay as they were)
//  - tolerance: bit-exact unless a PTX .approx operation makes it otherwise, stated in ULP
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace warpsim::kernels {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t(x) * y * z; }
};

enum class ElemType { U8, S8, U16, S16, U32, S32, U64, S64, F16, BF16, F32, F64 };
uint32_t elemBytes(ElemType t);
const char* elemName(ElemType t);

struct HostBuffer {
  std::string name;
  ElemType type = ElemType::U8;
  std::vector<uint8_t> bytes;  // the initial contents; after reference(): the expected contents
  bool isOutput = false;       // compared after the run
  uint64_t count() const { return bytes.size() / elemBytes(type); }
};

struct KernelArg {
  // TensorMap: a CUtensorMap (128 bytes, by value, for TMA) over buffer `buffer`; `scalar` holds
  // warpsim's encoding of it (isa/insns/tensor_map.h) with globalAddress 0, which the launch
  // fills in with the buffer's address (on the GPU the CUDA backend re-encodes it through
  // cuTensorMapEncodeTiled).
  enum class Kind { Buffer, Scalar, TensorMap } kind = Kind::Scalar;
  size_t buffer = 0;            // Buffer, TensorMap: index into Problem::buffers
  std::vector<uint8_t> scalar;  // Scalar: the bytes of the parameter (little endian)
  // The parameter's bytes for a launch whose buffers lie at `addresses`.
  std::vector<uint8_t> paramBytes(const std::vector<uint64_t>& addresses) const;
  static KernelArg buf(size_t index);
  static KernelArg tensorMap(size_t buffer, std::vector<uint8_t> encoded);
  static KernelArg u32(uint32_t v);
  static KernelArg s32(int32_t v);
  static KernelArg u64(uint64_t v);
  static KernelArg f32(float v);
  static KernelArg f64(double v);
};

struct Launch {
  std::string entry;  // the kernel's PTX name (extern "C" names keep PTX readable)
  Dim3 grid, block;
  uint32_t dynamicShared = 0;
  std::vector<KernelArg> args;  // in the kernel's parameter order
  // Thread-block clusters (x = 0: none) and cooperative launches (sim/func/group.h).
  Dim3 cluster{0, 0, 0};
  bool cooperative = false;
};

struct Problem {
  uint64_t size = 0;  // the problem size it was made for
  std::vector<HostBuffer> buffers;
  std::vector<Launch> launches;  // run in order on the same buffers
};

struct Tolerance {
  uint32_t maxUlp = 0;  // 0 = bit-exact
  std::string why;      // which .approx operation makes it so (empty when bit-exact)
};

struct Card {
  std::string name;          // unique, e.g. "reduce_shuffle"
  std::string family;        // folder under kernels/, e.g. "reduction"
  std::string source;        // .cu stem, e.g. "reduce" (several cards may share a source)
  std::string demonstrates;  // one line: what the kernel shows
  uint64_t defaultSize = 0;
  uint64_t minSize = 1, maxSize = 0;  // range the random-size properties draw from
  // The largest size its kernel handles (0: any that fits the device's memory); suite, bench,
  // record and measure refuse a larger one (harness::cardSizeError) rather than run a kernel
  // past its fixed arrays.
  uint64_t largestSize = 0;
  bool handles(uint64_t size) const { return !largestSize || size <= largestSize; }
  Tolerance tolerance;
  Problem (*make)(uint64_t size, uint64_t seed) = nullptr;
  void (*reference)(Problem& problem) = nullptr;
  // The card's work as the plain C++ loop a user would write, over arrays made from the
  // problem's buffers before the clock starts: the best seconds of `repeat` runs. `warpsim bench`
  // compares the simulator with it (issue 8: "the C++ loop timed without buffer copies"); null
  // where the reference is not the same work.
  double (*plainLoopSeconds)(const Problem& problem, unsigned repeat) = nullptr;
};

// Every card of the suite, in a stable order (kernels/registry.cpp).
const std::vector<Card>& allCards();
const Card* findCard(const std::string& name);

}  // namespace warpsim::kernels
