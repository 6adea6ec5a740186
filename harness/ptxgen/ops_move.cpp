// Moves (PTX ISA 9.7.9.x mov): pack and unpack ({%h,%h} <-> b32, {%r,%r} and {%h,%h,%h,%h} <->
// b64, with sinks), bit-pattern moves between integer and float registers, immediates, and the
// deterministic special registers (%laneid, %tid.x, %lanemask_*, %ntid.x, %ctaid.x).
#include "harness/ptxgen/ops.h"

namespace warpsim::ptxgen {

namespace {

void pack(Builder& b) {
  switch (b.below(3)) {
    case 0:
      b.emit("mov.b32",
             args({b.dst(RK::B32, Fl::Int), "{" + args({b.src(RK::B16), b.src(RK::B16)}) + "}"}));
      break;
    case 1:
      b.emit("mov.b64",
             args({b.dst(RK::B64, Fl::Int), "{" + args({b.src(RK::B32), b.src(RK::B32)}) + "}"}));
      break;
    default:
      b.emit("mov.b64",
             args({b.dst(RK::B64, Fl::Int),
                   "{" + args({b.src(RK::B16), b.src(RK::B16), b.src(RK::B16), b.src(RK::B16)}) +
                       "}"}));
  }
}

void unpack(Builder& b) {
  // Distinct destinations; a sink `_` now and then (never both).
  const unsigned r = b.below(b.poolSize(RK::B16) >= 4 ? 3 : 2);
  if (r == 0) {
    const std::string s = b.src(RK::B32);
    const unsigned sink = b.percent(20) ? 1 + b.below(2) : 0;  // 1: first, 2: second
    const std::string d0 = sink == 1 ? "_" : b.dst(RK::B16, Fl::Int);
    const std::string d1 = sink == 2 ? "_" : b.dst(RK::B16, Fl::Int, {d0});
    b.emit("mov.b32", args({"{" + args({d0, d1}) + "}", s}));
  } else if (r == 1) {
    const std::string s = b.src(RK::B64);
    const std::string d0 = b.dst(RK::B32, Fl::Int), d1 = b.dst(RK::B32, Fl::Int, {d0});
    b.emit("mov.b64", args({"{" + args({d0, d1}) + "}", s}));
  } else {
    const std::string s = b.src(RK::B64);
    std::vector<std::string> d;
    for (int i = 0; i < 4; ++i) d.push_back(b.dst(RK::B16, Fl::Int, d));
    b.emit("mov.b64", args({"{" + args({d[0], d[1], d[2], d[3]}) + "}", s}));
  }
}

void bitMove(Builder& b) {
  switch (b.below(4)) {
    case 0:
      b.emit("mov.b32", args({b.dst(RK::F32, Fl::Float), b.src(RK::B32)}));
      break;
    case 1:
      b.emit("mov.b32", args({b.dst(RK::B32, Fl::Int), b.src(RK::F32)}));
      break;
    case 2:
      b.emit("mov.b64", args({b.dst(RK::F64, Fl::Float), b.src(RK::B64)}));
      break;
    default:
      b.emit("mov.b64", args({b.dst(RK::B64, Fl::Int), b.src(RK::F64)}));
  }
}

void special(Builder& b) {
  const std::string sr =
      b.pick({"%laneid", "%tid.x", "%lanemask_eq", "%lanemask_lt", "%lanemask_le", "%lanemask_gt",
              "%lanemask_ge", "%ntid.x", "%ctaid.x"});
  b.emit("mov.u32", args({b.dst(RK::B32, Fl::Int), sr}));
}

void immediate(Builder& b) {
  switch (b.below(3)) {
    case 0:
      b.emit("mov.b32", args({b.dst(RK::B32, Fl::Int), b.intImm(32, false)}));
      break;
    case 1:
      b.emit("mov.b64", args({b.dst(RK::B64, Fl::Int), b.intImm(64, false)}));
      break;
    default:
      b.emit("mov.f32", args({b.dst(RK::F32, Fl::Float), b.f32Imm()}));
  }
}

}  // namespace

std::vector<Op> moveOps() {
  return {
      {"mov.pack", 3, kGuardable, pack},     {"mov.unpack", 3, kGuardable, unpack},
      {"mov.bits", 2, kGuardable, bitMove},  {"mov.special", 2, kGuardable, special},
      {"mov.imm", 1, kGuardable, immediate},
  };
}

}  // namespace warpsim::ptxgen
