// Shared-memory traffic between threads (PTX ISA 9.7.9.8-9 ld/st, 9.7.13.4 bar.sync): every
// thread of the CTA stores a register into its own 8-byte slot of a fresh region, bar.sync, and
// loads part of a neighbour's slot (tid ^ k, any warp of the CTA) at another width and
// signedness. Only bytes this exchange wrote are read (shared memory starts undefined).
#include "harness/ptxgen/ops.h"

namespace warpsim::ptxgen {

namespace {

constexpr unsigned kRegions = 6;  // beyond this many exchanges, regions are reused

struct Access {
  const char* type;
  RK kind;
  Fl flavour;
  unsigned bytes;
};

constexpr Access kStores[] = {
    {"b8", RK::B16, Fl::Int, 1},    {"b16", RK::B16, Fl::Int, 2}, {"b32", RK::B32, Fl::Int, 4},
    {"f32", RK::F32, Fl::Float, 4}, {"b64", RK::B64, Fl::Int, 8}, {"f64", RK::F64, Fl::Float, 8},
};
constexpr Access kLoads[] = {
    {"u8", RK::B16, Fl::Int, 1},  {"s8", RK::B16, Fl::Int, 1},  {"s8", RK::B32, Fl::Int, 1},
    {"u8", RK::B32, Fl::Int, 1},  {"b16", RK::B16, Fl::Int, 2}, {"s16", RK::B32, Fl::Int, 2},
    {"u16", RK::B64, Fl::Int, 2}, {"b32", RK::B32, Fl::Int, 4}, {"f32", RK::F32, Fl::Float, 4},
    {"s32", RK::B64, Fl::Int, 4}, {"b64", RK::B64, Fl::Int, 8}, {"f64", RK::F64, Fl::Float, 8},
};

void exchange(Builder& b) {
  unsigned region;
  if (b.sharedSlots < kRegions) {
    region = b.sharedSlots++;
  } else {  // reuse: wait until every thread has read what the region held
    region = b.below(kRegions);
    b.emit("bar.sync", "0");
  }
  const unsigned base = region * 8 * b.blockSize;
  const bool vector = b.percent(20);
  unsigned stored;
  if (vector) {  // st.shared.v2.b32 {a, b}
    b.emit("st.shared.v2.b32", args({"[%sa+" + std::to_string(base) + "]",
                                     "{" + args({b.src(RK::B32), b.src(RK::B32)}) + "}"}));
    stored = 8;
  } else {
    const Access& s = b.pick(kStores);
    const std::string f = std::string("st.shared.") + s.type;
    b.emit(f, args({"[%sa+" + std::to_string(base) + "]", b.src(s.kind)}));
    stored = s.bytes;
  }
  b.emit("bar.sync", "0");
  const uint32_t k = 1 + b.below(b.blockSize - 1);
  b.emitRaw("xor.b32 %t1,%tx," + std::to_string(k) + ";");
  b.emitRaw("shl.b32 %t1,%t1,3;");
  b.emitRaw("add.s32 %t1,%t1,%sb;");
  if (stored == 8 && b.percent(20)) {
    const std::string d0 = b.dst(RK::B32, Fl::Int), d1 = b.dst(RK::B32, Fl::Int, {d0});
    b.emit("ld.shared.v2.b32",
           args({"{" + args({d0, d1}) + "}", "[%t1+" + std::to_string(base) + "]"}));
    return;
  }
  std::vector<const Access*> fitting;
  for (const Access& l : kLoads)
    if (l.bytes <= stored) fitting.push_back(&l);
  const Access& l = *b.pick(fitting);
  const unsigned at = base + l.bytes * b.below(stored / l.bytes);
  const std::string f = std::string("ld.shared.") + l.type;
  b.emit(f, args({b.dst(l.kind, l.flavour), "[%t1+" + std::to_string(at) + "]"}));
}

}  // namespace

std::vector<Op> memoryOps() { return {{"mem.shared_exchange", 4, kConverged | kShared, exchange}}; }

}  // namespace warpsim::ptxgen
