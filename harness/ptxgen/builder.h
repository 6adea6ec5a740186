// The program builder the generator's operations write through (internal to ptxgen): the
// register pool, operand and immediate choice, and emission with the bookkeeping that makes
// the metadata (forms used, which instruction wrote each output register).
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "harness/ptxgen/ptxgen.h"
#include "kernels/random.h"

namespace warpsim::ptxgen {

// The register kinds of the pool, as declared: %h (.b16), %r (.b32), %rd (.b64), %f (.f32),
// %fd (.f64), %p (.pred).
enum class RK : uint8_t { B16, B32, B64, F32, F64, Pred };
constexpr unsigned kRegKinds = 6;

// What a register's bits currently mean; operands prefer a register of the flavour they
// compute on (any register of the right kind stays legal).
enum class Fl : uint8_t { Int, F16, BF16, F16x2, BF16x2, Float, Pred };

// A PTX type name and where it lives.
struct TypeInfo {
  const char* name;  // "u32"
  RK kind;
  Fl flavour;
  unsigned bits;
  bool isSigned;
};
// Looks a PTX type name up (u8/s8 live in b16 registers); throws on an unknown name.
const TypeInfo& typeInfo(const std::string& name);

// "a,b,c": an operand list. Braced lists evaluate left to right, so operands drawn inside one
// are drawn in a fixed order (function arguments and `+` operands have none).
std::string args(std::initializer_list<std::string> operands);

class Builder {
 public:
  Builder(uint64_t seed, const GenOptions& options);

  const GenOptions& options;
  kernels::Rng rng;

  // ---- randomness ----
  uint32_t below(uint32_t n) { return n <= 1 ? 0 : rng.u32(0, n - 1); }
  bool percent(unsigned p) { return below(100) < p; }
  template <class T, size_t N>
  const T& pick(const T (&a)[N]) {
    return a[below(N)];
  }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[below(uint32_t(v.size()))];
  }

  // ---- operands ----
  // A source register of kind k (preferring flavour `prefer` when one has it); marks it read.
  std::string src(RK k, Fl prefer);
  std::string src(RK k);
  // A source of PTX type `type`: a register, or with `immPercent` chance an immediate (integer
  // types and f32/f64 only).
  std::string srcT(const std::string& type, unsigned immPercent = 0);
  // A source predicate, negated ("!%p1") with `negPercent` chance.
  std::string predSrc(unsigned negPercent = 0);
  // A destination register of kind k whose bits will mean `f`; its write is recorded by the
  // next emit(). Registers named in `avoid` are not chosen (for d|p pairs and unpacks).
  std::string dst(RK k, Fl f, const std::vector<std::string>& avoid = {});
  std::string dstT(const std::string& type);
  // How many pool registers of kind k there are.
  unsigned poolSize(RK k) const { return unsigned(pool_[unsigned(k)].size()); }

  // ---- immediates ----
  std::string intImm(unsigned bits, bool isSigned);  // special-weighted, in range
  std::string shiftImm(unsigned width);              // 0 .. 2*width, weighted at the width
  std::string u32Imm(uint32_t v) const;              // decimal or hex
  std::string f32Imm();  // a finite value far from identities (0, +-1, 2) so ptxas folds nothing
  std::string f64Imm();

  // ---- emission ----
  // One instruction: "form operands;" (the form is also its entry in `forms`). The queued
  // destinations are written by it; the guard set by guardNext() applies to it.
  void emit(const std::string& form, const std::string& operands);
  // Scratch code that writes no pool register (address and mask computations).
  void emitRaw(const std::string& line);
  std::string newLabel();
  void label(const std::string& name);
  // The next emit() runs under "@pred " (a guard predicate chosen now).
  void guardNext();

  // ---- structure ----
  // Code that every thread of the CTA executes together (no enclosing divergent region).
  bool converged() const { return depth_ == 0 && memberRegion_ == 0; }
  void enterDivergent() { ++depth_; }
  void leaveDivergent() { --depth_; }
  unsigned depth() const { return depth_; }
  // A region that exactly the lanes of `mask` enter (warp primitives with that member mask).
  void enterMemberRegion() { ++memberRegion_; }
  void leaveMemberRegion() { --memberRegion_; }
  unsigned blockSize = 64, gridSize = 1;
  // Shared memory: bytes per thread reserved by exchanges so far (each exchange has its own).
  unsigned sharedSlots = 0;
  void noteFamily(const std::string& f) { families_.push_back(f); }

  // ---- result ----
  GeneratedProgram finish();

 private:
  struct RegState {
    std::string name;
    RK kind = RK::B32;
    Fl flavour = Fl::Int;
    Fl initial = Fl::Int;      // the flavour of its input word
    bool read = false;         // its current value has been read
    bool fromInstr = false;    // its current value is an instruction's result
    std::vector<int> writers;  // line indexes: the last unconditional writer, then conditional
  };
  RegState* find(const std::string& name);
  std::string pickSource(RK k, const Fl* prefer);

  std::array<std::vector<RegState>, kRegKinds> pool_;
  std::vector<std::string> pendingDst_, usedSrc_;
  std::string pendingGuard_;
  std::vector<std::string> body_;
  std::vector<std::string> forms_, families_;
  unsigned depth_ = 0, memberRegion_ = 0, labels_ = 0;
  bool immUsed_ = false;  // the instruction being built has an immediate already
  uint64_t seed_;
};

}  // namespace warpsim::ptxgen
