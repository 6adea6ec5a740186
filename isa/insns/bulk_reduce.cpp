// Bulk asynchronous reductions (PTX ISA 9.0, "cp.reduce.async.bulk",
// "cp.reduce.async.bulk.tensor"):
//   cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.redOp.type
//                                                              [dst], [src], size, [mbar]
//   cp.reduce.async.bulk.global.shared::cta.bulk_group{.L2::cache_hint}.redOp{.noftz}.type
//                                                              [dst], [src], size{, policy}
//   cp.reduce.async.bulk.tensor.{1..5}d.global.shared::cta.redOp{.load_mode}.bulk_group
//                                                              [tmap, {c, ...}], [src]
// Each element of the source (this CTA's shared memory) is combined into the destination's with
// one atomic read-modify-write ("each reduction ... performed atomically" per element, with
// .relaxed.gpu semantics). The pairs the manual's table allows:
//   .shared::cluster  .add .u32 .s32 .u64; .min .max .u32 .s32; .inc .dec .u32; .and .or .xor .b32
//   .global           .add .u32 .s32 .u64 .f32 .f64, .add.noftz .f16 .bf16;
//                     .min .max .u32 .s32 .u64 .s64 .f16 .bf16; .inc .dec .u32;
//                     .and .or .xor .b32 .b64
// (ptxas -arch=sm_90 accepts exactly these, checked pair by pair, and refuses the others.)
// The tensor form takes its element type from the tensor map (UINT32 .u32, INT32 .s32, UINT64
// .u64, INT64 .s64, FLOAT16 .f16, BFLOAT16 .bf16, FLOAT32{_FTZ} .f32, FLOAT64 .f64; .and .or .xor
// see 32- and 64-bit integers as .b32/.b64) and the .global row; another type traps when executed.
// The element operations are atom/red's own (atomic.cpp's table, atomElement): the same rounding
// (round to nearest even) and the same NaNs, with one difference measured on the H200
// (scripts/device_bulk_reduce.sh, 2026-12-05): .add.f32 into global memory keeps subnormal
// inputs and results, where red.global.add.f32 flushes them (40 of the probe's 256 f32 pairs
// told them apart; every other pair of every type agreed). The tensor form follows its map's
// data type: FLOAT32 keeps them, FLOAT32_FTZ flushes them (bulkGlobalFn).
//
// Like the bulk copies (bulk_copy.cpp) a reduction completes when it is issued: the shared::cluster
// form then performs complete_tx of `size` bytes on the mbarrier in the destination's CTA, and
// commit_group / wait_group have nothing left to wait for. The reads of the source are loads and
// the element updates atomics on the machine (faults name the instruction); the checkers see the
// updates as the asynchronous proxy's (SyncRole::BulkReduce).
#include <bit>
#include <string>

#include "isa/insns/addresses.h"
#include "isa/insns/bulk_common.h"
#include "isa/insns/families.h"
#include "isa/insns/lanes.h"

namespace warpsim::isa::insns {
namespace {

// Inst::flags: the tensor rank (kRankMask), the operation (4 bits from kOwnFlags), and whether
// the destination is shared::cluster (the bit above).
constexpr unsigned kOpShift = std::countr_zero(kOwnFlags);
inline constexpr uint32_t kOpMask = 0xFu << kOpShift, kToCluster = 0x10u << kOpShift;

AtomOp opOf(const Inst& in) { return AtomOp((in.flags & kOpMask) >> kOpShift); }

// The pairs the manual allows, by destination (the table above); atom/red's table has a
// function for each (and more, which these exclude).
bool allowed(AtomOp op, Type t, bool toCluster) {
  switch (op) {
    case AtomOp::Add:
      if (t == Type::U32 || t == Type::S32 || t == Type::U64) return true;
      return !toCluster && (t == Type::F32 || t == Type::F64 || t == Type::F16 || t == Type::BF16);
    case AtomOp::Min:
    case AtomOp::Max:
      if (t == Type::U32 || t == Type::S32) return true;
      return !toCluster && (t == Type::U64 || t == Type::S64 || t == Type::F16 || t == Type::BF16);
    case AtomOp::Inc:
    case AtomOp::Dec:
      return t == Type::U32;
    case AtomOp::And:
    case AtomOp::Or:
    case AtomOp::Xor:
      return t == Type::B32 || (!toCluster && t == Type::B64);
    default:
      return false;
  }
}

// The element function of a reduction into global memory: red.global's, except that the bulk
// unit keeps f32 subnormals unless the tensor map says FLOAT32_FTZ (the shared-memory add keeps
// them too: atomElement's .shared for f32 add is that very operation).
AtomFn bulkGlobalFn(const AtomElement& el, AtomOp op, Type t, bool flush) {
  return op == AtomOp::Add && t == Type::F32 && !flush ? el.shared : el.global;
}

void reduceH(Exec& x, const Inst& in) {
  const bool toCluster = in.flags & kToCluster;
  const AtomElement el = atomElement(opOf(in), in.mods.type());
  const AtomFn globalFn = bulkGlobalFn(el, opOf(in), in.mods.type(), false);
  const unsigned e = el.bytes;
  uint64_t dst[kWarpSize], src[kWarpSize], mbar[kWarpSize] = {};
  laneAddresses(x, in.ops[0], x.mask, dst);
  laneAddresses(x, in.ops[1], x.mask, src);
  if (toCluster) laneAddresses(x, in.ops[3], x.mask, mbar);
  forLanes(x.mask, [&](unsigned l) {
    const uint64_t n = bulkSize(x, in, in.ops[2], l);
    checkAligned(x, in, l, dst[l], 16, "destination");
    checkAligned(x, in, l, src[l], 16, "source");
    const SharedTarget d =
        toCluster ? clusterTarget(x, in, dst[l], l) : SharedTarget{Space::Global, dst[l]};
    const AtomFn fn = d.space == Space::Global ? globalFn : el.shared;
    const LaneMask one = LaneMask{1} << l;
    uint64_t a[kWarpSize] = {}, words[kWarpSize * 4] = {}, v[kWarpSize] = {}, old[kWarpSize];
    for (uint64_t off = 0; off < n; off += 16) {  // the source 16 bytes at a time
      a[l] = src[l] + off;
      x.machine->load(in, Space::Shared, one, a, 4, 4, words);
      uint8_t bytes[16];
      for (unsigned i = 0; i < 16; ++i) bytes[i] = uint8_t(words[l * 4 + i / 4] >> (8 * (i % 4)));
      for (unsigned k = 0; k < 16; k += e) {
        uint64_t w = 0;
        for (unsigned b = 0; b < e; ++b) w |= uint64_t(bytes[k + b]) << (8 * b);
        v[l] = w;
        a[l] = d.addr + off + k;
        x.machine->atomic(in, d.space, one, a, e, fn, v, nullptr, old);
      }
    }
    if (toCluster) completeTxAt(x, in, clusterTarget(x, in, mbar[l], l), l, n);
  });
}

// The tensor form's element type: the map's, as the reduction's PTX type.
Type reduceType(tmap::DataType t, AtomOp op) {
  const bool bits = op == AtomOp::And || op == AtomOp::Or || op == AtomOp::Xor;
  switch (t) {
    case tmap::DataType::U32:
      return bits ? Type::B32 : Type::U32;
    case tmap::DataType::S32:
      return bits ? Type::B32 : Type::S32;
    case tmap::DataType::U64:
      return bits ? Type::B64 : Type::U64;
    case tmap::DataType::S64:
      return bits ? Type::B64 : Type::S64;
    case tmap::DataType::F16:
      return Type::F16;
    case tmap::DataType::BF16:
      return Type::BF16;
    case tmap::DataType::F32:
    case tmap::DataType::F32Ftz:  // the element function flushes subnormals (bulkGlobalFn)
      return Type::F32;
    case tmap::DataType::F64:
      return Type::F64;
    default:
      return Type::None;
  }
}

const char* opName(AtomOp op) {
  static constexpr const char* kNames[] = {"add", "min", "max", "inc", "dec", "and", "or", "xor"};
  return unsigned(op) < 8 ? kNames[unsigned(op)] : "?";
}

AtomFn tensorReduceFn(Exec& x, const Inst& in, unsigned l, const tmap::TensorMap& m) {
  const AtomOp op = opOf(in);
  const Type t = reduceType(m.dataType, op);
  if (t == Type::None || !allowed(op, t, false)) {
    const std::string why = "'" + in.text + "': ." + opName(op) +
                            " is not defined for the tensor map's element type (data type " +
                            std::to_string(unsigned(m.dataType)) + ")";
    x.machine->trap(in, LaneMask{1} << l, why.c_str());
  }
  return bulkGlobalFn(atomElement(op, t), op, t, m.dataType == tmap::DataType::F32Ftz);
}

void tensorReduceH(Exec& x, const Inst& in) {
  uint64_t src[kWarpSize];
  laneAddresses(x, in.ops[1], x.mask, src);
  forLanes(x.mask, [&](unsigned l) {
    tensorBox(x, in, in.ops[0], l, {{Space::Shared, src[l]}}, BoxMove::Reduce, tensorReduceFn);
  });
}

constexpr std::pair<std::string_view, AtomOp> kOps[] = {
    {"add", AtomOp::Add}, {"min", AtomOp::Min}, {"max", AtomOp::Max}, {"inc", AtomOp::Inc},
    {"dec", AtomOp::Dec}, {"and", AtomOp::And}, {"or", AtomOp::Or},   {"xor", AtomOp::Xor},
};

std::string bindTensor(Inst& in, AtomOp op) {
  const Mods& m = in.mods;
  unsigned rank = 0;
  for (unsigned r = 1; r <= 5; ++r)
    if (m.has(std::to_string(r) + "d")) rank = r;
  if (rank == 0) return msg(in, "needs a dimension .1d .. .5d");
  if (!m.types.empty()) return msg(in, "takes no type: the element type is the tensor map's");
  if (!m.has("global") || !m.has("shared::cta") || !m.has("bulk_group"))
    return msg(in, "reduces .shared::cta into .global, completing with .bulk_group");
  if (m.has("im2col_no_offs")) {
    in.run = notSupportedHandler;  // the im2col mode is not simulated yet
    return "";
  }
  if (!m.has("tile")) return msg(in, "needs the load mode .tile (or .im2col_no_offs)");
  const size_t extra = m.has("L2::cache_hint") ? 1 : 0;
  if (in.ops.size() != 2 + extra || !isTensorAddr(in.ops[0], rank) || !isAddr(in.ops[1]))
    return msg(in, "takes [tensorMap, {" + std::to_string(rank) + " coordinates}], [src]");
  in.flags = rank | uint32_t(op) << kOpShift;
  in.cls = InsnClass::StoreGlobal;
  in.run = tensorReduceH;
  return "";
}

}  // namespace

std::string bindBulkReduce(Inst& in) {
  const Mods& m = in.mods;
  in.sync = SyncRole::BulkReduce;
  in.cls = InsnClass::Misc;
  int nOps = 0;
  AtomOp op = AtomOp::Add;
  for (const auto& [word, o] : kOps)
    if (m.has(word)) ++nOps, op = o;
  if (nOps != 1)
    return msg(in, "needs exactly one operation (.add .min .max .inc .dec .and .or .xor)");
  if (m.has("tensor")) return bindTensor(in, op);

  const bool toCluster = m.has("mbarrier::complete_tx::bytes");
  if (toCluster == m.has("bulk_group"))
    return msg(in, "needs .mbarrier::complete_tx::bytes or .bulk_group");
  if (toCluster ? !(m.has("shared::cluster") && m.has("shared::cta"))
                : !(m.has("global") && m.has("shared::cta")))
    return msg(in, toCluster ? "reduces .shared::cta into .shared::cluster"
                             : "reduces .shared::cta into .global");
  if (m.types.size() != 1) return msg(in, "needs exactly one type");
  const Type t = m.type();
  if (!allowed(op, t, toCluster))
    return msg(in, std::string(".") + opName(op) + " is not defined for ." + typeName(t) +
                       (toCluster ? " into .shared::cluster" : " into .global"));
  const bool half = t == Type::F16 || t == Type::BF16;
  if (m.has("noftz") != (half && op == AtomOp::Add))
    return half && op == AtomOp::Add ? msg(in, "requires .noftz for .add on .f16 and .bf16")
                                     : msg(in, ".noftz is only defined for .add on .f16 and .bf16");
  const bool hint = m.has("L2::cache_hint");
  if (hint && toCluster) return msg(in, ".L2::cache_hint is only defined for .global");
  if (toCluster) {
    if (in.ops.size() != 4 || !isAddr(in.ops[0]) || !isAddr(in.ops[1]) ||
        in.ops[2].kind != OpndKind::Reg || !isAddr(in.ops[3]))
      return msg(in, "takes [dst], [src], size, [mbar]");
  } else if (in.ops.size() != 3 + (hint ? 1 : 0) || !isAddr(in.ops[0]) || !isAddr(in.ops[1]) ||
             in.ops[2].kind != OpndKind::Reg || (hint && in.ops[3].kind != OpndKind::Reg)) {
    return msg(in, std::string("takes [dst], [src], size") + (hint ? ", policy" : ""));
  }
  in.flags = uint32_t(op) << kOpShift | (toCluster ? kToCluster : 0);
  in.cls = toCluster ? InsnClass::AtomicShared : InsnClass::AtomicGlobal;
  in.run = reduceH;
  return "";
}

}  // namespace warpsim::isa::insns
