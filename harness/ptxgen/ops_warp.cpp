// Warp primitives (PTX ISA 9.7.13): shfl.sync (up down bfly idx, random clamp and segment
// values, d|p), vote.sync (all any uni ballot), match.sync (any all, b32 b64), redux.sync,
// activemask, elect.sync, bar.warp.sync.
//
// PTX makes a .sync primitive undefined when the executing thread is not in its member mask,
// and the H200 hangs when a member lane does not execute it. So these run only in converged
// code, either with the full mask (every lane of the full warps executes them) or inside a
// region that exactly the member lanes enter:
//
//   and.b32 %t0,%lm,MASK;  setp.eq.b32 %q,%t0,0;  @%q bra $L;  <primitive MASK>  $L:
//
// A shuffle must moreover read only lanes that execute it: with a subset mask its b and c are
// immediates and the mask is closed under "the source lane of a member" (computed here with
// the manual's pseudocode), so every source is a member.
#include <cstdio>

#include "harness/ptxgen/ops.h"

namespace warpsim::ptxgen {

namespace {

constexpr uint32_t kFull = 0xFFFFFFFFu;

std::string hex32(uint32_t v) {
  char s[16];
  std::snprintf(s, sizeof s, "0x%08X", v);
  return s;
}

// A random non-empty lane subset, in shapes that matter: ranges, halves, parity, single lanes,
// aligned segments, all but one, arbitrary bits.
uint32_t randomMask(Builder& b) {
  switch (b.below(8)) {
    case 0: {
      const uint32_t lo = b.below(32), hi = lo + b.below(32 - lo);
      return uint32_t((uint64_t(2) << hi) - (uint64_t(1) << lo));
    }
    case 1:
      return b.pick({0x0000FFFFu, 0xFFFF0000u, 0x55555555u, 0xAAAAAAAAu});
    case 2:
      return 1u << b.below(32);
    case 3: {
      const uint32_t w = b.pick({4u, 8u, 16u});
      return uint32_t(((uint64_t(1) << w) - 1) << (w * b.below(32 / w)));
    }
    case 4:
      return kFull ^ (1u << b.below(32));
    default: {
      const uint32_t m = b.rng.bits32();
      return m ? m : 1u;
    }
  }
}

enum class Mode { Up, Down, Bfly, Idx };

// The source lane of `lane` (itself when out of range): PTX ISA 9.7.13.7's pseudocode.
unsigned sourceLane(Mode mode, unsigned lane, uint32_t bImm, uint32_t cImm) {
  const int l = int(lane), bval = int(bImm & 31), cval = int(cImm & 31),
            seg = int((cImm >> 8) & 31);
  const int maxLane = (l & seg) | (cval & ~seg), minLane = l & seg;
  int j = l;
  bool p = false;
  switch (mode) {
    case Mode::Up:
      j = l - bval, p = j >= maxLane;
      break;
    case Mode::Down:
      j = l + bval, p = j <= maxLane;
      break;
    case Mode::Bfly:
      j = l ^ bval, p = j <= maxLane;
      break;
    case Mode::Idx:
      j = minLane | (bval & ~seg), p = j <= maxLane;
      break;
  }
  return p ? unsigned(j) : lane;
}

uint32_t closeUnderSources(uint32_t mask, Mode mode, uint32_t bImm, uint32_t cImm) {
  for (;;) {
    uint32_t grown = mask;
    for (unsigned l = 0; l < 32; ++l)
      if (mask >> l & 1) grown |= 1u << sourceLane(mode, l, bImm, cImm);
    if (grown == mask) return mask;
    mask = grown;
  }
}

// Emits `body` for the lanes of `mask` only (or for everyone when it is full).
template <class F>
void inMembers(Builder& b, uint32_t mask, F body) {
  if (mask == kFull) {
    body();
    return;
  }
  const std::string skip = b.newLabel();
  b.emitRaw("and.b32 %t0,%lm," + hex32(mask) + ";");
  b.emitRaw("setp.eq.b32 %q,%t0,0;");
  b.emitRaw("@%q bra " + skip + ";");
  b.enterMemberRegion();
  body();
  b.leaveMemberRegion();
  b.label(skip);
}

uint32_t chooseMask(Builder& b) { return b.percent(45) ? kFull : randomMask(b); }

void shfl(Builder& b) {
  const unsigned m = b.below(4);
  const Mode mode = Mode(m);
  static const char* const kModes[] = {"up", "down", "bfly", "idx"};
  const std::string f = std::string("shfl.sync.") + kModes[m] + ".b32";
  // c: CUDA's width convention ((32 - width) << 8 | clamp) or any 13 bits (and junk above).
  const uint32_t width = b.pick({2u, 4u, 8u, 16u, 32u});
  uint32_t cImm = ((32 - width) << 8) | (mode == Mode::Up ? 0 : 31);
  if (b.percent(50)) {
    const uint32_t bits = b.rng.bits32();
    cImm = bits & (b.percent(80) ? 0x1FFFu : 0xFFFFu);
  }
  const uint32_t bImm = b.below(b.percent(85) ? 32 : 48);
  const bool full = b.percent(50);
  const uint32_t mask = full ? kFull : closeUnderSources(randomMask(b), mode, bImm, cImm);
  inMembers(b, mask, [&] {
    // The value: a b32 or f32 register (shfl moves bits).
    const std::string a = b.percent(25) ? b.src(RK::F32) : b.src(RK::B32);
    std::string bOp = std::to_string(bImm), cOp = b.u32Imm(cImm);
    if (mask == kFull && b.percent(40)) bOp = b.src(RK::B32, Fl::Int);  // any lane is a member
    if (mask == kFull && b.percent(30)) cOp = b.src(RK::B32, Fl::Int);
    std::string d = b.percent(25) ? b.dst(RK::F32, Fl::Float) : b.dst(RK::B32, Fl::Int);
    if (b.percent(50)) d += "|" + b.dst(RK::Pred, Fl::Pred);
    b.emit(f, args({d, a, bOp, cOp, hex32(mask)}));
  });
}

void vote(Builder& b) {
  const uint32_t mask = chooseMask(b);
  inMembers(b, mask, [&] {
    const unsigned m = b.below(4);
    if (m == 3) {
      b.emit("vote.sync.ballot.b32", args({b.dst(RK::B32, Fl::Int), b.predSrc(30), hex32(mask)}));
      return;
    }
    static const char* const kModes[] = {"all", "any", "uni"};
    const std::string f = std::string("vote.sync.") + kModes[m] + ".pred";
    b.emit(f, args({b.dst(RK::Pred, Fl::Pred), b.predSrc(30), hex32(mask)}));
  });
}

void match(Builder& b) {
  const uint32_t mask = chooseMask(b);
  inMembers(b, mask, [&] {
    const std::string t = b.pick({"b32", "b64"});
    if (b.percent(50)) {
      const std::string f = "match.any.sync." + t;
      b.emit(f, args({b.dst(RK::B32, Fl::Int), b.srcT(t), hex32(mask)}));
      return;
    }
    const std::string f = "match.all.sync." + t;
    std::string d = b.dst(RK::B32, Fl::Int);
    if (b.percent(60)) d += "|" + b.dst(RK::Pred, Fl::Pred);
    b.emit(f, args({d, b.srcT(t), hex32(mask)}));
  });
}

void redux(Builder& b) {
  const uint32_t mask = chooseMask(b);
  inMembers(b, mask, [&] {
    std::string f;
    if (b.percent(50)) {
      const std::string op = b.pick({"add", "min", "max"}), t = b.pick({"u32", "s32"});
      f = "redux.sync." + op + "." + t;
    } else {
      f = "redux.sync." + std::string(b.pick({"and", "or", "xor"})) + ".b32";
    }
    b.emit(f, args({b.dst(RK::B32, Fl::Int), b.src(RK::B32, Fl::Int), hex32(mask)}));
  });
}

void activemask(Builder& b) {
  // Full warps in converged code: every lane; in a member region: the members.
  const uint32_t mask = chooseMask(b);
  inMembers(b, mask, [&] { b.emit("activemask.b32", b.dst(RK::B32, Fl::Int)); });
}

void elect(Builder& b) {
  const uint32_t mask = chooseMask(b);
  inMembers(b, mask, [&] {
    const std::string d = b.percent(20) ? "_" : b.dst(RK::B32, Fl::Int);
    b.emit("elect.sync", args({d + "|" + b.dst(RK::Pred, Fl::Pred), hex32(mask)}));
  });
}

void barWarp(Builder& b) {
  const uint32_t mask = chooseMask(b);
  inMembers(b, mask, [&] { b.emit("bar.warp.sync", hex32(mask)); });
}

}  // namespace

std::vector<Op> warpOps() {
  const unsigned f = kConverged | kWarp;
  return {
      {"warp.shfl", 6, f, shfl},
      {"warp.vote", 3, f, vote},
      {"warp.match", 2, f, match},
      {"warp.redux", 3, f, redux},
      {"warp.activemask", 1, f, activemask},
      {"warp.elect", 1, f, elect},
      {"warp.barwarp", 1, f, barWarp},
  };
}

}  // namespace warpsim::ptxgen
