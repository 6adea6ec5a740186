// Bulk asynchronous copies and TMA (PTX ISA, "cp.async.bulk", "cp.async.bulk.tensor",
// "cp.async.bulk.commit_group / wait_group", "cp.async.bulk.prefetch"):
//   cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src], size, [mbar]
//   cp.async.bulk.global.shared::cta.bulk_group                      [dst], [src], size
//   cp.async.bulk.tensor.{1..5}d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
//                                                                 [dst], [tmap, {c, ...}], [mbar]
//   cp.async.bulk.tensor.{1..5}d.global.shared::cta.tile.bulk_group [tmap, {c, ...}], [src]
//   cp.async.bulk.tensor.{3..5}d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes
//                                         [dst], [tmap, {c, w, .., n}], [mbar], {offsets}
//   cp.async.bulk.commit_group;  cp.async.bulk.wait_group{.read} N;
//   cp.async.bulk.prefetch{.tensor.Nd}.L2.global ...               (no-ops)
// (.L2::cache_hint with its policy operand accepted). Every executing lane issues its own copy.
//
// The functional model completes a bulk copy when it is issued, a valid schedule of the
// asynchronous proxy: global -> shared copies write shared memory and then perform complete_tx
// of the copied bytes on the mbarrier (so a phase waited on with expect_tx completes when the
// bytes have arrived and the arrivals are in, in either order); shared -> global copies write
// global memory, and commit_group / wait_group have nothing left to wait for. Every byte moves
// through Machine::load/store, so faults name the instruction and observers see the accesses.
//
// The tensor forms read the 128-byte tensor map at a generic address (tensor_map.h: warpsim's
// encoding, written by cuTensorMapEncodeTiled) and move the box at the signed coordinates, tile
// mode: the box is dense in shared memory (dimension 0 innermost), each dimension traversed with
// its element stride; elements outside the tensor read as zero (or the canonical NaN with
// OOB_FILL_NAN_REQUEST_ZERO_FMA) and are not written by a store. The swizzle permutes the
// box's 16-byte units by the absolute shared address, as wgmma reads them (wgmma_layout.h).
// A load's destination and mbarrier may be another CTA's of the cluster (a shared::cluster
// address from mapa); .multicast::cluster lands the same data at the same offsets in every
// CTA of its 16-bit ctaMask and completes the mbarrier at the same offset in each.
// cp.async.bulk.shared::cluster.shared::cta copies this CTA's shared memory into a CTA of the
// cluster and completes the mbarrier there (the destination CTA's).
// im2col mode (maps from cuTensorMapEncodeIm2col): pixelsPerColumn pixels from the coordinates'
// (w, h, d, n), each the next along W within the map's bounding box (wrapping to the next H, D,
// N: im2colPixels), channelsPerPixel channels of each from c, read at the pixel's position plus
// the instruction's unsigned 16-bit im2col offsets (the filter tap); dense in shared memory,
// pixel by pixel, channels innermost; outside the tensor, the fill.
// The tensor box walk (tensorBox) also serves cp.reduce.async.bulk.tensor (bulk_reduce.cpp),
// which reduces the box into global memory; bulk_common.h holds what the two files share.
// Not executed yet (fault "not supported yet"): sm_100's modes (im2col::w, im2col_no_offs,
// tile::gather4/scatter4).
#include <vector>

#include "isa/fp.h"
#include "isa/insns/addresses.h"
#include "isa/insns/bulk_common.h"
#include "isa/insns/families.h"
#include "isa/insns/lanes.h"
#include "isa/insns/mbarrier_state.h"
#include "isa/insns/tensor_map.h"
#include "isa/insns/tensor_map_access.h"
#include "isa/insns/wgmma_layout.h"

namespace warpsim::isa::insns {
namespace {

// Copies `bytes` (a multiple of 16) between two addresses of lane l, 16 bytes per access.
void copyChunks(Exec& x, const Inst& in, unsigned l, Space from, uint64_t src, Space to,
                uint64_t dst, uint64_t bytes) {
  uint64_t a[kWarpSize] = {}, words[kWarpSize * 4] = {};
  const LaneMask one = LaneMask{1} << l;
  for (uint64_t off = 0; off < bytes; off += 16) {
    a[l] = src + off;
    x.machine->load(in, from, one, a, 4, 4, words);
    uint64_t w[kWarpSize * 4];
    for (unsigned i = 0; i < 4; ++i) w[l * 4 + i] = words[l * 4 + i];
    a[l] = dst + off;
    x.machine->store(in, to, one, a, 4, 4, w);
  }
}

// The same offset as `addr` in the CTA of rank r (multicast's destinations and mbarriers).
SharedTarget rankTarget(Exec& x, const Inst& in, uint64_t addr, uint32_t r, unsigned l) {
  const SharedTarget t = clusterTarget(x, in, addr, l);
  if (r == ownRank(x, in, l) && t.space == Space::Shared) return t;
  return {Space::SharedCluster, x.machine->mapSharedRank(in, Space::SharedCluster, addr, r, l)};
}

// The ranks a copy lands in: the CTAs of its 16-bit ctaMask (.multicast::cluster, flags bit
// kMulticast; the operand after the mbarrier), else the one its destination names.
inline constexpr uint32_t kMulticast = kOwnFlags, kFromShared = kOwnFlags << 1;
uint32_t ctaMask(Exec& x, const Inst& in, size_t maskOperand, unsigned l) {
  return (in.flags & kMulticast) ? uint32_t(x.reg(in.ops[maskOperand])[l]) & 0xFFFF : 0;
}

// Runs `land(dst, mbar)` for each CTA lane l's copy reaches: every rank of a multicast's mask
// (the same offsets in each), or the destination's own.
template <class Land>
void forDestinations(Exec& x, const Inst& in, unsigned l, uint64_t dst, uint64_t mbar,
                     size_t maskOperand, Land&& land) {
  if (!(in.flags & kMulticast))
    return land(clusterTarget(x, in, dst, l), clusterTarget(x, in, mbar, l));
  const uint32_t mask = ctaMask(x, in, maskOperand, l);
  for (uint32_t r = 0; r < 16; ++r)
    if (mask >> r & 1) land(rankTarget(x, in, dst, r, l), rankTarget(x, in, mbar, r, l));
}

void bulkLoadH(Exec& x, const Inst& in) {
  uint64_t dst[kWarpSize], src[kWarpSize], mbar[kWarpSize];
  laneAddresses(x, in.ops[0], x.mask, dst);
  laneAddresses(x, in.ops[1], x.mask, src);
  laneAddresses(x, in.ops[3], x.mask, mbar);
  forLanes(x.mask, [&](unsigned l) {
    const uint64_t n = bulkSize(x, in, in.ops[2], l);
    checkAligned(x, in, l, dst[l], 16, "destination");
    checkAligned(x, in, l, src[l], 16, "source");
    const Space from = (in.flags & kFromShared) ? Space::Shared : Space::Global;
    forDestinations(x, in, l, dst[l], mbar[l], 4, [&](SharedTarget d, SharedTarget b) {
      copyChunks(x, in, l, from, src[l], d.space, d.addr, n);
      completeTxAt(x, in, b, l, n);
    });
  });
}

void bulkStoreH(Exec& x, const Inst& in) {
  uint64_t dst[kWarpSize], src[kWarpSize];
  laneAddresses(x, in.ops[0], x.mask, dst);
  laneAddresses(x, in.ops[1], x.mask, src);
  forLanes(x.mask, [&](unsigned l) {
    const uint64_t n = bulkSize(x, in, in.ops[2], l);
    checkAligned(x, in, l, dst[l], 16, "destination");
    checkAligned(x, in, l, src[l], 16, "source");
    copyChunks(x, in, l, Space::Shared, src[l], Space::Global, dst[l], n);
  });
}

// The tensor map lane l names (the address operand's base register).
tmap::TensorMap readMap(Exec& x, const Inst& in, const Opnd& a, unsigned l) {
  const uint64_t base = x.reg(a.baseSlot)[l] + uint64_t(a.offset);
  checkAligned(x, in, l, base, 64, "tensor map");
  uint8_t bytes[128];
  tmap::loadBytes(x, in, Space::Generic, l, base, bytes);
  tmap::TensorMap m;
  if (!tmap::load(bytes, m)) {
    const std::string why =
        "the tensor map of '" + in.text +
        "' was not made by cuTensorMapEncodeTiled or cuTensorMapEncodeIm2col (warpsim's "
        "encoding)";
    x.machine->trap(in, LaneMask{1} << l, why.c_str());
  }
  return m;
}

wgmma::Swizzle sharedSwizzle(tmap::Swizzle s) {
  switch (s) {
    case tmap::Swizzle::B32:
      return wgmma::Swizzle::B32;
    case tmap::Swizzle::B64:
      return wgmma::Swizzle::B64;
    case tmap::Swizzle::B128:
      return wgmma::Swizzle::B128;
    default:
      return wgmma::Swizzle::None;
  }
}

// The im2col mode's pixels (PTX ISA, "Tensor copy: im2col mode"): pixelsPerColumn of them from
// the coordinates' (w, h, d, n); each next one steps along W by its traversal stride and, past
// the bounding box's end (dim - 1 + upperCorner), starts W again at the box's start
// (lowerCorner) and steps along H, then D, then N. Per pixel its rank - 1 coordinates.
std::vector<int64_t> im2colPixels(const tmap::TensorMap& m, const int64_t* coord) {
  const unsigned rank = m.rank, spatial = rank - 2;
  std::vector<int64_t> pos(coord + 1, coord + rank), out;
  out.reserve(size_t(tmap::pixelsPerColumn(m)) * (rank - 1));
  for (unsigned p = 0; p < tmap::pixelsPerColumn(m); ++p) {
    out.insert(out.end(), pos.begin(), pos.end());
    for (unsigned i = 0; i <= spatial; ++i) {
      pos[i] += m.elementStrides[i + 1];
      if (i == spatial) break;
      if (pos[i] <= int64_t(tmap::globalDim(m, i + 1)) - 1 + tmap::upperCorner(m, i)) break;
      pos[i] = tmap::lowerCorner(m, i);
    }
  }
  return out;
}

}  // namespace

// The box moves between global memory and the dense (swizzled) shared boxes at `shared`.
unsigned tensorBox(Exec& x, const Inst& in, const Opnd& mapOp, unsigned l,
                   const std::vector<SharedTarget>& shared, BoxMove move, ReduceFnFor reduceFn,
                   const int64_t* offsets) {
  const bool load = move == BoxMove::Load;
  const tmap::TensorMap m = readMap(x, in, mapOp, l);
  const unsigned rank = in.flags & kRankMask;
  if (m.rank != rank) {
    const std::string why = "'" + in.text + "' is " + std::to_string(rank) +
                            "d but its tensor map has rank " + std::to_string(m.rank);
    x.machine->trap(in, LaneMask{1} << l, why.c_str());
  }
  const bool im2col = in.flags & kIm2col;
  if (m.im2col != im2col) {
    const std::string why = "'" + in.text + "' needs a tensor map made by " +
                            (im2col ? "cuTensorMapEncodeIm2col" : "cuTensorMapEncodeTiled") +
                            " (its map was made by the other)";
    x.machine->trap(in, LaneMask{1} << l, why.c_str());
  }
  const AtomFn reduce = move == BoxMove::Reduce ? reduceFn(x, in, l, m) : nullptr;
  for (const SharedTarget& t : shared) checkAligned(x, in, l, t.addr, 128, "shared box");
  const Opnd& cv = mapOp.elems[0];
  int64_t coord[5] = {};
  for (unsigned d = 0; d < rank; ++d) {
    const Opnd& c = cv.kind == OpndKind::Vec ? cv.elems[d] : cv;
    coord[d] = int32_t(uint32_t(x.reg(c)[l]));
  }
  const unsigned e = tmap::elementBytes(m.dataType);
  unsigned n[5] = {1, 1, 1, 1, 1};
  for (unsigned d = 0; d < rank; ++d) n[d] = tmap::boxElements(m, d);
  // im2col: every pixel's coordinates (dimensions 1 .. rank - 1), the offsets not added.
  const std::vector<int64_t> pixels = im2col ? im2colPixels(m, coord) : std::vector<int64_t>{};
  const unsigned total = tmap::boxBytes(m);
  std::vector<uint8_t> box(total, 0);
  const LaneMask one = LaneMask{1} << l;
  uint64_t addrs[kWarpSize] = {}, v[kWarpSize] = {};
  const wgmma::Swizzle sw = sharedSwizzle(m.swizzle);
  // The swizzle permutes by the offset's low bits (a rank above them stays as it is).
  auto sharedAt = [&](const SharedTarget& t, uint64_t off) {
    const uint64_t a = t.addr + off;
    return (a & ~uint64_t(0xFFFFFFFF)) | wgmma::swizzle(sw, uint32_t(a));
  };
  if (!load) {  // the box from shared memory, 16 bytes at a time
    uint64_t words[kWarpSize * 4] = {};
    for (unsigned off = 0; off < total; off += 16) {
      addrs[l] = sharedAt(shared.front(), off);
      x.machine->load(in, shared.front().space, one, addrs, 4, 4, words);
      for (unsigned i = 0; i < 16; ++i)
        box[off + i] = uint8_t(words[l * 4 + i / 4] >> (8 * (i % 4)));
    }
  }
  // OOB_FILL_NAN_REQUEST_ZERO_FMA: the canonical NaN of the element's width (f16 and bf16
  // alike 0x7FFF), all ones below the sign.
  const uint64_t fill = (load && m.oobFillNaN) ? (~0ull >> (65 - 8 * e)) : 0;
  unsigned idx[5] = {};
  for (unsigned linear = 0; linear < total / e; ++linear) {
    bool inside = true;
    uint64_t g = m.globalAddress;
    for (unsigned d = 0; d < rank; ++d) {
      int64_t c = coord[d] + int64_t(idx[d]) * (d == 0 ? 1 : m.elementStrides[d]);
      if (im2col) {  // channel linear % channelsPerPixel of pixel linear / channelsPerPixel
        const unsigned cpp = tmap::channelsPerPixel(m);
        c = d == 0
                ? coord[0] + linear % cpp
                : pixels[(linear / cpp) * (rank - 1) + d - 1] + (d + 1 < rank ? offsets[d - 1] : 0);
      }
      if (c < 0 || uint64_t(c) >= tmap::globalDim(m, d)) inside = false;
      g += uint64_t(c) * m.globalStrides[d];
    }
    uint8_t* p = &box[size_t(linear) * e];
    if (inside) {
      addrs[l] = g;
      if (load) {
        x.machine->load(in, Space::Global, one, addrs, e, 1, v);
        for (unsigned b = 0; b < e; ++b) p[b] = uint8_t(v[l] >> (8 * b));
      } else {
        uint64_t w = 0;
        for (unsigned b = 0; b < e; ++b) w |= uint64_t(p[b]) << (8 * b);
        v[l] = w;
        if (reduce) {
          uint64_t old[kWarpSize];
          x.machine->atomic(in, Space::Global, one, addrs, e, reduce, v, nullptr, old);
        } else {
          x.machine->store(in, Space::Global, one, addrs, e, 1, v);
        }
      }
    } else if (load) {
      for (unsigned b = 0; b < e; ++b) p[b] = uint8_t(fill >> (8 * b));
    }
    for (unsigned d = 0; d < rank; ++d) {  // the next element, dimension 0 fastest
      if (++idx[d] < n[d]) break;
      idx[d] = 0;
    }
  }
  if (load) {
    uint64_t words[kWarpSize * 4] = {};
    for (const SharedTarget& t : shared)
      for (unsigned off = 0; off < total; off += 16) {
        addrs[l] = sharedAt(t, off);
        for (unsigned i = 0; i < 4; ++i) {
          uint32_t w = 0;
          for (unsigned b = 0; b < 4; ++b) w |= uint32_t(box[off + 4 * i + b]) << (8 * b);
          words[l * 4 + i] = w;
        }
        x.machine->store(in, t.space, one, addrs, 4, 4, words);
      }
  }
  return total;
}

bool isTensorAddr(const Opnd& o, unsigned rank) {
  if (o.kind != OpndKind::Addr || o.baseSlot == kNoSlot || o.elems.size() != 1) return false;
  const Opnd& c = o.elems[0];
  return c.kind == OpndKind::Vec ? c.elems.size() == rank : rank == 1;
}

namespace {

void tensorLoadH(Exec& x, const Inst& in) {
  uint64_t dst[kWarpSize], mbar[kWarpSize];
  laneAddresses(x, in.ops[0], x.mask, dst);
  laneAddresses(x, in.ops[2], x.mask, mbar);
  const bool im2col = in.flags & kIm2col;  // then ops[3] holds the im2col offsets
  forLanes(x.mask, [&](unsigned l) {
    // The box is read once and lands in every destination, then each mbarrier completes.
    std::vector<SharedTarget> dsts, bars;
    forDestinations(x, in, l, dst[l], mbar[l], im2col ? 4 : 3, [&](SharedTarget d, SharedTarget b) {
      dsts.push_back(d);
      bars.push_back(b);
    });
    if (dsts.empty()) return;  // a multicast to no CTA
    int64_t offsets[3] = {};   // unsigned 16-bit, one per spatial dimension
    if (im2col) {
      const Opnd& o = in.ops[3];
      const unsigned k = (in.flags & kRankMask) - 2;
      for (unsigned i = 0; i < k; ++i)
        offsets[i] = uint16_t(x.reg(o.kind == OpndKind::Vec ? o.elems[i] : o)[l]);
    }
    const unsigned bytes = tensorBox(x, in, in.ops[1], l, dsts, BoxMove::Load, nullptr, offsets);
    for (const SharedTarget& b : bars) completeTxAt(x, in, b, l, bytes);
  });
}

void tensorStoreH(Exec& x, const Inst& in) {
  uint64_t src[kWarpSize];
  laneAddresses(x, in.ops[1], x.mask, src);
  forLanes(x.mask, [&](unsigned l) {
    tensorBox(x, in, in.ops[0], l, {{Space::Shared, src[l]}}, BoxMove::Store);
  });
}

void noopH(Exec&, const Inst&) {}

std::string unsupportedForm(Inst& in) {
  in.run = notSupportedHandler;
  return "";
}

}  // namespace

std::string bindBulkCopy(Inst& in) {
  const Mods& m = in.mods;
  in.sync = SyncRole::BulkCopy;
  const bool hint = m.has("L2::cache_hint");
  const size_t extra = hint ? 1 : 0;
  in.cls = InsnClass::Misc;
  if (m.has("commit_group")) {
    in.run = noopH;  // every bulk copy has completed at its issue
    in.sync = SyncRole::BulkCommit;
    return in.ops.empty() ? "" : msg(in, "takes no operands");
  }
  if (m.has("wait_group")) {
    in.run = noopH;
    // .read waits until the sources have been read, not until the writes are done.
    in.sync = m.has("read") ? SyncRole::None : SyncRole::BulkWait;
    if (in.ops.size() != 1 || in.ops[0].kind != OpndKind::Reg || in.ops[0].declared)
      return msg(in, "takes one immediate operand");
    return "";
  }
  if (m.has("prefetch")) {
    in.run = noopH;  // a hint: nothing to model functionally
    return "";
  }
  const bool im2col = m.has("im2col");
  if (m.has("im2col::w") || m.has("im2col::w::128") || m.has("tile::gather4") ||
      m.has("tile::scatter4") || m.has("im2col_no_offs"))
    return unsupportedForm(in);  // sm_100's modes
  const bool multicast = m.has("multicast::cluster");
  const bool load = m.has("mbarrier::complete_tx::bytes");
  const bool store = m.has("bulk_group");
  if (load == store) return msg(in, "needs .mbarrier::complete_tx::bytes or .bulk_group");
  if (multicast && store) return msg(in, "multicasts only copies into shared memory");
  if (m.has("tensor")) {
    unsigned rank = 0;
    for (unsigned r = 1; r <= 5; ++r)
      if (m.has(std::to_string(r) + "d")) rank = r;
    if (rank == 0) return msg(in, "needs a dimension .1d .. .5d");
    in.flags = rank | (multicast ? kMulticast : 0) | (im2col ? kIm2col : 0);
    if (im2col && (!load || rank < 3))
      return msg(in, "loads .im2col into shared memory, in 3 to 5 dimensions");
    if (load) {
      if (!m.has("global") || !(m.has("shared::cluster") || m.has("shared::cta")))
        return msg(in, "copies from .global to .shared::cluster");
      const size_t k = im2col ? 1 : 0;  // the im2col offsets' operand
      const auto isOffsets = [&](const Opnd& o) {
        if (rank == 3 && o.kind == OpndKind::Reg) return true;
        return o.kind == OpndKind::Vec && o.elems.size() == rank - 2;
      };
      if (in.ops.size() != 3 + k + (multicast ? 1 : 0) + extra || !isAddr(in.ops[0]) ||
          !isTensorAddr(in.ops[1], rank) || !isAddr(in.ops[2]) ||
          (im2col && !isOffsets(in.ops[3])) || (multicast && in.ops[3 + k].kind != OpndKind::Reg))
        return msg(in, "takes [dst], [tensorMap, {" + std::to_string(rank) +
                           " coordinates}], [mbar]" +
                           (im2col ? ", {" + std::to_string(rank - 2) + " im2col offsets}" : "") +
                           (multicast ? ", ctaMask" : ""));
      in.cls = InsnClass::LoadGlobal;
      in.run = tensorLoadH;
      return "";
    }
    if (in.ops.size() != 2 + extra || !isTensorAddr(in.ops[0], rank) || !isAddr(in.ops[1]))
      return msg(in, "takes [tensorMap, {" + std::to_string(rank) + " coordinates}], [src]");
    in.cls = InsnClass::StoreGlobal;
    in.run = tensorStoreH;
    return "";
  }
  if (load) {
    // shared::cluster <- shared::cta: from this CTA's shared memory into another's (or its
    // own), completing the mbarrier in the destination CTA.
    const bool fromShared = !m.has("global");
    if (fromShared && (multicast || !m.has("shared::cta") || !m.has("shared::cluster")))
      return msg(in, "copies .shared::cta to .shared::cluster (no multicast)");
    in.flags = (multicast ? kMulticast : 0) | (fromShared ? kFromShared : 0);
    if (in.ops.size() != 4 + (multicast ? 1 : 0) + extra || !isAddr(in.ops[0]) ||
        !isAddr(in.ops[1]) || in.ops[2].kind != OpndKind::Reg || !isAddr(in.ops[3]) ||
        (multicast && in.ops[4].kind != OpndKind::Reg))
      return msg(in,
                 std::string("takes [dst], [src], size, [mbar]") + (multicast ? ", ctaMask" : ""));
    in.cls = InsnClass::LoadGlobal;
    in.run = bulkLoadH;
    return "";
  }
  if (in.ops.size() != 3 + extra || !isAddr(in.ops[0]) || !isAddr(in.ops[1]) ||
      in.ops[2].kind != OpndKind::Reg)
    return msg(in, "takes [dst], [src], size");
  in.cls = InsnClass::StoreGlobal;
  in.run = bulkStoreH;
  return "";
}

}  // namespace warpsim::isa::insns
