// The timing model's parameters: every one named, typed, with a default (the H200's value), a
// unit and its source (../shared/TIMING.md's sources; "[unverified]" marks a number no source
// confirmed for the H200, to be calibrated on the chip). configs/h200.json holds the same
// values; a file given with --timing-config overrides any subset of them. An unknown key is an
// error naming it.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace warpsim::sim::timing {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// How to run the model and what to record besides the prediction: not parameters of the chip
// (no config key, not in the parameter table); the CLI's --trace, --source-lines and
// --timing-sample set them.
struct TimingRunOptions {
  std::string traceFile;               // a Chrome/Perfetto trace of every launch ("": none)
  uint64_t traceEventLimit = 1000000;  // events written at most; the rest are counted, dropped
  bool sourceLines = false;            // attribute issue and stall cycles to source lines
  // Waves of CTAs simulated in detail (0: all); the rest run functionally and the prediction
  // is extrapolated from the detailed ones (Engine::extrapolate).
  uint64_t sampleWaves = 0;
};

struct TimingConfig {
  std::string name = "h200";
  std::string scheduler = "gto";  // a registered warp scheduler (scheduler.h): gto, lrr
  double clockGhz = 1.98;
  uint32_t smCount = 132;
  uint32_t smspPerSm = 4;
  uint32_t maxThreadsPerSm = 2048, maxWarpsPerSm = 64, maxCtasPerSm = 32;
  uint32_t registersPerSm = 65536, registerAllocUnit = 256;  // registers, per warp
  // The SMs of each GPC, in SM order: a thread-block cluster runs on the SMs of one GPC
  // (cluster_dispatch.h).
  std::string gpcs = "18,18,16,16,16,16,16,8,2,2,2,2";
  uint32_t sharedCarveoutMaxKb = 228, unifiedL1SharedKb = 256, reservedSharedPerCta = 1024;
  uint32_t launchLatency = 3000;  // cycles: launch and drain floor of every kernel
  uint32_t ctaLaunchLatency = 0;  // cycles from a CTA slot freeing to the next CTA's first issue
  // Cycles between two CTA launches on one SM: it starts its CTAs one at a time.
  uint32_t ctaLaunchInterval = 190;
  // Dependent-issue latency (cycles) and initiation interval (cycles between two warp-
  // instructions on one sub-partition's unit) per instruction class.
  uint32_t latInt = 4, latFp32 = 4, latFp64 = 8, latHalf = 4, latSfu = 17, latConvert = 13,
           latMove = 4, latPredicate = 4, latControl = 18, latBarrier = 20, latWarp = 28,
           latTensor = 27, latMisc = 4;
  // A return from a called function (RET.REL.NODEC: an indirect branch to the return address
  // in a register) to the caller's next issue; latControl covers the kernel's own ret (EXIT).
  uint32_t latReturn = 35;
  // Cycles from a predicate's producer to an instruction that it guards (`@p`, a branch's
  // condition); a predicate read as data (selp, and.pred, setp's combining operand) takes the
  // producer's class latency.
  uint32_t latPredicateGuard = 13;
  // Extra cycles when a fixed-latency result is read by an instruction on the other of the ALU
  // and FMA pipes (units.h, FixedPipe): ptxas's stall counts say 4 within a pipe, 5 across.
  uint32_t latCrossPipe = 1;
  // Initiation intervals per unit (units.h): each half of the FMA pipe and the ALU take 16
  // lanes a cycle, so a warp-instruction holds one for 2 cycles.
  // cp.async: cycles from its global data's return to its shared-memory write being complete
  // for cp.async.wait_group.
  uint32_t asyncLandLatency = 20;
  // A bulk copy (TMA): cycles from its issue to its first request at the L2.
  uint32_t bulkLatency = 100;
  uint32_t iiFma = 2, iiAlu = 2, iiFp64 = 2, iiSfu = 8, iiBranch = 2;
  // The tensor pipe (tensor_work.h): cycles per HMMA.16816 (the other mma.sync kinds' SASS
  // instructions take as long), per DMMA.884, and per 4096 operations of wgmma.
  double iiTensor = 6.5, iiTensorFp64 = 16, iiTensorWgmma = 4.4;
  // wgmma: cycles from its pipe time's end to its group's completion (wgmma.wait_group).
  uint32_t latWgmma = 55;
  // 1: 32-bit integer adds and moves issue to the ALU or the FMA pipe's heavy half, whichever
  // frees first, and integer multiplies to the heavy half (ptxas's IMAD forms); 0 (the default
  // until the model has the SASS's serialized reloads, docs/FIDELITY.md): all integer work to
  // the ALU.
  uint32_t intOnFmaHeavy = 0;
  // Memory.
  uint32_t sharedLatency = 25, sharedCyclesPerWavefront = 1, sharedAtomicLatency = 48;
  // Cycles a bank conflict's replayed wavefront (one beyond the conflict-free count) adds to
  // its request's latency; the pipe still takes sharedCyclesPerWavefront of throughput each.
  uint32_t sharedReplayLatency = 2;
  // Cycles from a shared store's last wavefront on the pipe to the store being performed (what
  // a barrier after it waits for); a store's replays pass at the pipe's pace, not
  // sharedReplayLatency apart, since no data comes back (micro_bar_store).
  uint32_t sharedStoreLatency = 4;
  // 1: a warp issues no shared access before its previous one's last wavefront at the warp's own
  // pace (AccessTiming::paced); 0: as soon as the SM's pipe is free.
  uint32_t sharedWarpPace = 1;
  uint32_t constLatency = 4;
  // A fence beyond the SM holds its warp until the warp's earlier global stores and atomics are
  // performed at the L2, and then fenceScLatency (membar.gl, fence.sc: MEMBAR.SC.GPU) or
  // fenceReleaseLatency (fence.acq_rel: MEMBAR.ALL.GPU) cycles more; a release store or atomic
  // starts as after the latter. An acquire load's data comes acquireCycles later than a relaxed
  // one's (its CCTL.IVALL).
  uint32_t fenceScLatency = 397, fenceReleaseLatency = 214, acquireCycles = 43;
  // Distributed shared memory (a load or store to another CTA of the cluster, on another SM):
  // cycles to the data (a load) or to the write performed (a store).
  uint32_t dsmemLatency = 181;
  // barrier.cluster: cycles from the phase's completion (the last thread's arrival) to a waiting
  // warp's next issue: clusterBarrierLatency + clusterBarrierPerCta x the cluster's CTAs.
  uint32_t clusterBarrierLatency = 741, clusterBarrierPerCta = 9;
  uint32_t l1HitLatency = 41, l1LineBytes = 128, l1Ways = 4;
  // A global or local request in the L1: its tag stage looks up l1TagLinesPerCycle lines a
  // cycle; a load's data leaves the 32 banks of 4 bytes one wavefront a cycle (as shared
  // memory's); each tag cycle past the first delays the data by a cycle, each wavefront past
  // the first by l1WavefrontLatency.
  uint32_t l1TagLinesPerCycle = 4;
  double l1WavefrontLatency = 2.15;
  // Whether a global store that writes a whole 32-byte sector leaves it in the L1 (a later load
  // of it hits); 0: global stores do not allocate.
  uint32_t l1StoreAllocate = 1;
  uint32_t l2HitLatency = 265, l2SizeKb = 61440, l2LineBytes = 128, l2Ways = 20;
  // The L2's halves (l2.h): each homes half the lines and keeps copies of what its SMs read of
  // the other's; 1: one cache for the chip.
  uint32_t l2Partitions = 2;
  double l2BytesPerCycle = 3500;
  uint32_t atomicL2Latency = 30;  // cycles added to an L2 access by an atomic's ALU
  // Atomics on one address at the L2 (each lane's atomic is one operation there): two warp
  // requests' pipeline `atomicL2SameAddressCycles` apart; the lanes of one request on the same
  // address replay `atomicL2LaneCycles` apart (each waits for the previous read-modify-write).
  uint32_t atomicL2SameAddressCycles = 2, atomicL2LaneCycles = 16;
  // L2 bandwidth (sectors' worth, a real number: a throughput ratio) that a store sector
  // written only in part takes.
  double l2PartialWriteSlots = 2.0;
  // Sectors' worth of L2 bandwidth an access from the far half takes when its near half cannot
  // serve it (a write, or a read missing the near copy): looked up in both halves.
  double l2FarLookupSlots = 2;
  // ptxas schedules loads and their address arithmetic ahead of the uses that the PTX
  // interleaves with them (and unrolls loops): a result counts from when its operands were ready,
  // but not before the issue of the instruction this many before it (0: PTX order).
  uint32_t ptxasHoistWindow = 16;
  // ptxas unrolls a short straight-line loop holding a barrier and read-only loads this many
  // times and schedules the copies as one block: their read-only loads and arithmetic move up
  // by as much as a trip, across barriers, but not across the block's back edge
  // (pipelined_loops.h); 0: a barrier is a floor for every result.
  uint32_t ptxasPipelineUnroll = 4;
  // ptxas unrolls that many times, too, a straight-line loop of at most this many PTX
  // instructions holding read-only loads and no barrier, store or atomic, its copies one block
  // (their loads all at its top); 0: such loops stay as written.
  uint32_t ptxasUnrollMaxBody = 16;
  // 1: a warp's shared loads of consecutive words of a 16-byte-aligned vector are one request
  // (ptxas's LDS.64/LDS.128); 0: every PTX load is a request.
  uint32_t ptxasVectorize = 1;
  // ptxas predicates a guarded forward branch over a straight-line body of at most this many
  // PTX instructions (if_convert.h); 0: every branch stays a branch.
  uint32_t ptxasIfConvertMax = 12;
  // 1: an add whose result only addresses memory, of an immediate or a symbol's address, is
  // folded into the access's addressing mode ([R+imm], [R+UR]): no latency, no unit.
  uint32_t ptxasFoldAddresses = 1;
  // A float's neg or abs read only by float arithmetic or the SFU is its readers' operand
  // modifier (-R, |R|), an integer neg read only by adds IADD3's: no instruction of its own.
  uint32_t ptxasFoldModifiers = 1;
  // 1: two dependent 32-bit adds, the first read by nothing but the second, are one IADD3: the
  // first has no instruction of its own.
  uint32_t ptxasFoldAddPairs = 1;
  // 1: a predicates' and/or/xor one of whose sources a setp makes for it alone is that
  // compare's combining operand (ISETP ... P1): no instruction of its own.
  uint32_t ptxasFoldPredicates = 1;
  // 1: a selp whose two register sources are computed in its block for it alone is those two
  // computations, one under its predicate: no instruction of its own.
  uint32_t ptxasFoldSelects = 1;
  // 1: a warp waits after each PTX instruction the fixed stall cycles that the control codes of
  // ptxas's SASS give its source line and kind (sass_stalls.h; needs ptxas and nvdisasm, and
  // without them the model runs as with 0); 0: one cycle, the model's own waits aside. Off by
  // default: measured, it moves ncu's `wait` to the chip's but not the cycles toward them
  // (docs/FIDELITY.md, 2026-12-05).
  uint32_t ptxasSassStalls = 0;
  // vprintf: the cycles a warp spends in the driver's printf handler per call.
  uint32_t printfCycles = 83000;
  // Device-side malloc and free (heap_timing.h): the calling warp's fixed time and its time per
  // calling lane, and what each lane's call holds its SM's allocator slot and the device's.
  uint32_t heapMallocWarpCycles = 8735;
  uint32_t heapMallocLaneCycles = 5001;
  uint32_t heapMallocSmCycles = 2499;
  uint32_t heapMallocCycles = 148;
  // What a lane's malloc holds the device's slot more per malloc its thread made before in the
  // launch.
  double heapMallocRepeatCycles = 135;
  // What a warp's first malloc (free) in a launch holds the device's slot more.
  uint32_t heapMallocFirstOfWarpCycles = 3700;
  uint32_t heapFreeWarpCycles = 10800;
  uint32_t heapFreeLaneCycles = 1256;
  uint32_t heapFreeSmCycles = 382;
  uint32_t heapFreeCycles = 192;
  uint32_t heapFreeFirstOfWarpCycles = 9250;
  // A device-side launch: the cycles from the parent's cudaLaunchDevice to its child grid's
  // start (in place of launch.latency, which a grid the host launches pays).
  uint32_t deviceLaunchLatency = 13000;
  // A device-side launch: the cycles the launching thread spends in cudaLaunchDevice.
  uint32_t deviceLaunchCallCycles = 30000;
  // A call's frame: cycles from one saved word's STL (or restored word's LDL) to the next.
  uint32_t frameWordCycles = 4;
  // A function with a frame: the rest of its calling convention's cost, charged at its return
  // before the restore (BSYNC of its convergence barrier, BMOV of the caller's, the stack
  // pointer).
  uint32_t frameConventionCycles = 36;
  uint32_t dramLatency = 650;
  double dramBytesPerCycle = 2180;
  // HBM's servers (dram.h): their count and how long a sector's access holds one.
  uint32_t dramBanks = 20480;
  double dramBankCycles = 200;
  // The roofline's peaks (report only: the model's timing does not read them). FLOP per cycle
  // per SM (an FMA counts 2) and the DRAM's bandwidth in TB/s.
  double peakFp32FlopPerCycle = 256, peakFp64FlopPerCycle = 128, peakFp16FlopPerCycle = 512;
  double peakTensorFlopPerCycle = 4096;
  double peakDramTbPerS = 4.8;
  // Not a parameter of the chip (no key, not printed): how this run uses the model.
  TimingRunOptions run;
};

// One parameter as documented: key, unit, source, and how to read/write it as text.
struct ParamInfo {
  std::string key, type, unit, source;
  bool verified = true;
};

// Every parameter, in config order.
const std::vector<ParamInfo>& parameterTable();

// The value of `key` in `c` as JSON text ("4", "1.98", "\"gto\"").
std::string paramValueText(const TimingConfig& c, const std::string& key);

// Reads a JSON object of "key": value over `base` (defaults when not given). Throws ConfigError
// naming the file and the key (unknown key, wrong type, value out of range, bad JSON).
TimingConfig loadTimingConfig(const std::string& path, const TimingConfig& base = {});
TimingConfig parseTimingConfig(const std::string& jsonText, const std::string& origin,
                               const TimingConfig& base = {});

// "key = value unit  (source)" lines: the effective configuration for people.
std::string formatTimingConfig(const TimingConfig& c);
// {"key": value, ...}: the effective configuration as JSON (the file format).
std::string timingConfigJson(const TimingConfig& c);

}  // namespace warpsim::sim::timing
