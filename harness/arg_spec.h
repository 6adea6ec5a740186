// The argument language of `warpsim run`: one --arg per kernel parameter, in order.
//
//   scalar:   TYPE:VALUE                 u32:1024  s32:-3  f32:0.5  f64:1e-3  u64:0x10
//   buffer:   [NAME=]TYPE[COUNT][:INIT]  x=f32[4096]:random(7,-1,1)  out=f32[4096]
//   INIT:     zeros (default) | iota | iota(START,STEP) | const(V) | random(SEED[,LO,HI])
//             | file(PATH)  (raw little-endian elements; COUNT may then be omitted:
//             f32[]:file(x.bin))
//   TYPE:     u8 s8 u16 s16 u32 s32 u64 s64 f16 bf16 f32 f64
// Buffers are passed as device pointers. Named buffers can be written out with --dump.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "isa/ir.h"
#include "kernels/card.h"
#include "sim/func/memory.h"

namespace warpsim::harness {

// A bad --arg / --dump: the message names the argument and what is wrong with it.
class ArgError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws the ArgError of --arg number `position` (1-based), written `text`, for `why`.
[[noreturn]] void badArg(size_t position, const std::string& text, const std::string& why);

// The colon-separated fields of an argument's tail, colons inside parentheses (an INIT such as
// file(a:b)) not splitting.
std::vector<std::string> splitColons(const std::string& s);

struct ParsedArg {
  bool isBuffer = false;
  kernels::ElemType type = kernels::ElemType::U8;  // the scalar's type, or the buffer's element
  kernels::KernelArg arg;                          // a scalar's bytes, or the buffer's index
  kernels::HostBuffer buffer;                      // isBuffer: name, type, initial contents
};

// Parses one --arg; `position` (1-based) names it in errors; `bufferIndex` is the index the
// buffer will take in the problem. Values must fit their type (u32:-1, u32:4294967296,
// f32:1e39 are refused); a buffer must fit `maxBufferBytes`, checked before it is allocated;
// file(PATH) reads no more than the buffer holds.
ParsedArg parseArg(const std::string& text, size_t position, size_t bufferIndex,
                   uint64_t maxBufferBytes = sim::kDefaultDeviceMemoryBytes);

// What the user gave for one parameter, for checking it against the kernel's declaration.
struct GivenArg {
  std::string text;  // the --arg as written
  bool isBuffer = false;
  bool isTensorMap = false;  // a CUtensorMap by value (harness/arg_spec_tmap.h)
  // The argument made a buffer (a buffer, a texture, a tensor map's own tensor), and whether
  // its contents were given (an INIT: y=f32[256]:zeros is initialized, y=f32[256] is not).
  bool makesBuffer = false;
  bool initialized = false;
  kernels::ElemType type = kernels::ElemType::U8;  // scalars: the value's type
};

struct ArgList {
  kernels::Problem problem;     // every buffer marked as an output
  std::vector<GivenArg> given;  // one per --arg, in order
};

// Builds the Problem of a `warpsim run`.
ArgList buildProblem(const std::vector<std::string>& args, const std::string& entry,
                     kernels::Dim3 grid, kernels::Dim3 block, uint32_t dynamicShared,
                     uint64_t maxBufferBytes = sim::kDefaultDeviceMemoryBytes);

// Checks the arguments against the parameters the kernel declares: their count, and each
// type (not only its size). A buffer is a 64-bit pointer (.u64/.s64/.b64); a .bN parameter
// takes any scalar of N bits; .uN/.sN take uN or sN (nvcc declares `int` as .u32); .fN
// takes fN only; byte arrays (structs by value) are checked by size when launched. Throws
// ArgError naming the argument, its position, the parameter's PTX type and what was given.
void checkArgTypes(const ir::Function& kernel, const std::vector<GivenArg>& given);

// "A,B,C" as integers of type T, written in decimal (a leading '-' where T is signed); `bad`
// is the first part that is not one (an empty part too). Each caller checks its own ranges
// and says what the numbers are.
template <class T>
struct IntegerList {
  std::vector<T> values;
  std::optional<std::string> bad;
};
template <class T>
IntegerList<T> parseIntegerList(std::string_view s) {
  IntegerList<T> l;
  for (size_t start = 0;;) {
    const size_t comma = s.find(',', start);
    const std::string_view part = s.substr(start, comma == s.npos ? s.npos : comma - start);
    T v{};
    const auto r = std::from_chars(part.data(), part.data() + part.size(), v);
    if (part.empty() || r.ec != std::errc() || r.ptr != part.data() + part.size()) {
      l.bad = std::string(part);
      return l;
    }
    l.values.push_back(v);
    if (comma == s.npos) return l;
    start = comma + 1;
  }
}

// "X[,Y[,Z]]" -> Dim3; throws ArgError naming `option`.
kernels::Dim3 parseDim3(const std::string& text, const std::string& option);

struct DumpSpec {
  std::string buffer;  // a buffer name
  std::string path;    // empty: print the first elements; else write raw bytes there
};
// NAME or NAME:PATH
DumpSpec parseDump(const std::string& text);

}  // namespace warpsim::harness
