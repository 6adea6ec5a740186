// The parameter table binds each key to its field, so that reading, printing and documenting
// a parameter all come from one row.
#include "sim/timing/config.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>
#include <variant>

#include "sim/timing/cluster_dispatch.h"
#include "sim/timing/scheduler.h"

namespace warpsim::sim::timing {
namespace {

using Field =
    std::variant<uint32_t TimingConfig::*, double TimingConfig::*, std::string TimingConfig::*>;

struct Row {
  const char* key;
  Field field;
  const char* unit;
  const char* source;
  bool verified;
};

// Sources: S1 te42kyfo/gpu-benches h100_pcie; S2 HPMLL/NVIDIA-Hopper-Benchmark (H800);
// S3 Accel-Sim SM90_H100/SM90_H200 configs (tuned, not measured); S4 an H100 SXM study
// (../shared/TIMING.md, sections 1-2).
const std::vector<Row>& rows() {
  static const std::vector<Row> r = {
      {"name", &TimingConfig::name, "", "the configuration's name", true},
      {"scheduler", &TimingConfig::scheduler, "", "warp scheduler: gto or lrr (S3 uses gto)", true},
      {"clock_ghz", &TimingConfig::clockGhz, "GHz",
       "S3 -gpgpu_clock_domains 1980; converts cycles to time only", true},
      {"sm.count", &TimingConfig::smCount, "SMs", "H200 SXM spec; S3 -gpgpu_n_clusters 132", true},
      {"sm.sub_partitions", &TimingConfig::smspPerSm, "SMSPs", "S3 -gpgpu_num_sched_per_core 4",
       true},
      {"sm.max_threads", &TimingConfig::maxThreadsPerSm, "threads",
       "S3 -gpgpu_shader_core_pipeline 2048", true},
      {"sm.max_warps", &TimingConfig::maxWarpsPerSm, "warps", "CUDA sm_90: 64 warps per SM", true},
      {"sm.max_ctas", &TimingConfig::maxCtasPerSm, "CTAs", "S3 -gpgpu_shader_cta 32", true},
      {"sm.registers", &TimingConfig::registersPerSm, "registers",
       "S3 -gpgpu_shader_registers 65536", true},
      {"sm.register_alloc_unit", &TimingConfig::registerAllocUnit, "registers/warp",
       "CUDA occupancy calculator, sm_90: 256 per warp", true},
      {"sm.shared_carveout_max_kb", &TimingConfig::sharedCarveoutMaxKb, "KB",
       "CUDA tuning guide: carve-outs up to 228 KB", true},
      {"sm.unified_l1_shared_kb", &TimingConfig::unifiedL1SharedKb, "KB",
       "S3 -gpgpu_unified_l1d_size 256", true},
      {"sm.gpcs", &TimingConfig::gpcs, "SMs per GPC",
       "scripts/probes/cluster/gpc_probe.cu on an H100 SXM (132 SMs; the device lent no "
       "H200, whose dies may be floorswept otherwise): cudaOccupancyMaxActiveClusters at one "
       "CTA per SM gives 132, 66, 39, 30, 22, 17, 15, 15, 9 and 7 (k = 10..16) clusters of k = "
       "1..16, which these GPCs and no other even split give; the SMs each launched cluster "
       "ran on agree",
       true},
      {"sm.reserved_shared_per_cta", &TimingConfig::reservedSharedPerCta, "bytes",
       "CUDA sm_90: 1 KB reserved per CTA", true},
      {"launch.latency", &TimingConfig::launchLatency, "cycles",
       "S3 -gpgpu_kernel_launch_latency 3000 [unverified on H200]", false},
      {"launch.cta_latency", &TimingConfig::ctaLaunchLatency, "cycles",
       "CTA dispatch delay [unverified]", false},
      {"launch.cta_interval", &TimingConfig::ctaLaunchInterval, "cycles",
       "one SM starts its CTAs one at a time; from tests/recorded/timing/h200_ncu.tsv: "
       "sm__cycles_active.max of short-CTA streaming kernels grows by 202 (vector_add), 183 "
       "(saxpy), 180 (haxpy_half2) cycles per CTA per SM from 1M to 4M elements, and "
       "vector_add's 8 CTAs per SM at 262144 take 2926 cycles",
       true},
      {"latency.int", &TimingConfig::latInt, "cycles", "S3 -ptx_opcode_latency_int 4", true},
      {"latency.fp32", &TimingConfig::latFp32, "cycles",
       "S3 -ptx_opcode_latency_fp 4; Volta 4 (Jia et al.)", true},
      {"latency.fp64", &TimingConfig::latFp64, "cycles", "S3 -ptx_opcode_latency_dp 8", true},
      {"latency.half", &TimingConfig::latHalf, "cycles", "as fp32 [unverified]", false},
      {"latency.sfu", &TimingConfig::latSfu, "cycles",
       "micro_mufu_chain on the H200 (tests/recorded/timing/h200_ncu.tsv): 16.99 cycles per "
       "MUFU.EX2 R, -R (cuobjdump -sass: the neg folds into the operand); S3 says 23",
       true},
      {"latency.convert", &TimingConfig::latConvert, "cycles", "[unverified]", false},
      {"latency.move", &TimingConfig::latMove, "cycles", "as int [unverified]", false},
      {"latency.predicate", &TimingConfig::latPredicate, "cycles", "as int [unverified]", false},
      {"latency.predicate_guard", &TimingConfig::latPredicateGuard, "cycles",
       "ptxas's stall counts in the suite's SASS (tests/recorded/sass/h200_suite_sm90.tar.xz): "
       "from an ISETP/PLOP3/LOP3 that writes a predicate to the first instruction it guards, 13 "
       "cycles or more in every one of 838 pairs (290 of 358 ISETP -> @P BRA exactly 13), while "
       "a predicate read as an operand (SEL, PLOP3, ISETP's combining predicate) waits 4",
       true},
      {"latency.cross_pipe", &TimingConfig::latCrossPipe, "cycles",
       "extra for a result read across the ALU and FMA pipes: ptxas's stall counts in the "
       "suite's SASS (tests/recorded/sass/h200_suite_sm90.tar.xz) between an instruction and "
       "the next one reading its result wait 4 within a pipe (FMA -> FMA 556 of 566 pairs, "
       "ALU -> ALU 177 of 233) and 5 across (ALU -> FMA 147 of 156, FMA -> ALU 152 of 171); "
       "micro_branch_chain's straight round (IMAD.SHL, LOP3, SHF) 114.4 cycles on the chip, "
       "96 in the model without it",
       true},
      {"latency.control", &TimingConfig::latControl, "cycles",
       "a branch's resolution before the warp's next issue, nothing after it counting from "
       "before (Engine::issue): micro_branch_chain (H100, "
       "tests/recorded/timing/h100_branches.tsv), cycles a round, chip / model at 18: every "
       "lane left 114.4 / 112, all lanes one way by the round (a taken BRA) 121.6 / 124, odd "
       "and even lanes apart (BSSY/BSYNC) 238 / 238; at 24 the last two 136.5 / 257",
       true},
      {"latency.return", &TimingConfig::latReturn, "cycles",
       "a called function's return to the caller's next issue: micro_call_chain's leaf chain "
       "(a MOV, CALL, three IMADs and RET a call in SASS) takes 71.4 cycles a call on the "
       "chip (H100, tests/recorded/timing/h100_calls.tsv, 256 against 64 calls), 71.5 in the "
       "model with 35 (its CALL resolving in latency.control, 18); ncu's samples sit behind "
       "the RET (branch_resolving)",
       true},
      {"latency.barrier", &TimingConfig::latBarrier, "cycles",
       "bar.sync release to next issue [unverified]", false},
      {"latency.warp", &TimingConfig::latWarp, "cycles",
       "shfl/vote; micro_shfl_chain on the H200 (tests/recorded/timing/h200_ncu.tsv): 32.1 "
       "cycles per round of SHFL.IDX and a dependent add (4), the loop unrolled x4 in SASS",
       true},
      {"latency.tensor", &TimingConfig::latTensor, "cycles",
       "an mma's result to its next reader: micro_mma_chain on an H100 SXM "
       "(tests/recorded/timing/h100_tensor.tsv), a dependent chain by one warp: 26.8 cycles per "
       "HMMA.16816.F32, 26.6 .F16, 26.4 HMMA.1688.F32.TF32, 26.7 IMMA.16832, 26.2 DMMA.884 "
       "(S3 says 24)",
       true},
      {"latency.misc", &TimingConfig::latMisc, "cycles", "[unverified]", false},
      {"issue.fma", &TimingConfig::iiFma, "cycles/warp-insn",
       "each half (heavy, lite) of the FMA pipe: 128 FP32 lanes per SM = 16 per half per SMSP; "
       "micro_ffma_chain's FFMA on the lite half, sgemm_regblock's on both "
       "(tests/recorded/timing/h100_pipes.tsv)",
       true},
      {"issue.alu", &TimingConfig::iiAlu, "cycles/warp-insn",
       "64 INT32 lanes per SM = 16 per SMSP (H100 whitepaper) [unverified]", false},
      {"issue.int_on_fma_heavy", &TimingConfig::intOnFmaHeavy, "0/1",
       "ptxas balances integer work between the ALU and IMAD forms on the FMA pipe's heavy half: "
       "micro_iadd_chain's adds 0.449 ALU / 0.455 heavy, transpose_tiled's integer work evenly "
       "(tests/recorded/timing/h100_pipes.tsv); off (0) by default: whole correlate MAPE 10.5% "
       "off, 11.3% on (sgemm_naive, reduce_warpsize and stencil5_shared get faster than the chip "
       "where the model lacks the SASS's serialized reloads)",
       true},
      {"issue.fp64", &TimingConfig::iiFp64, "cycles/warp-insn",
       "64 FP64 units per SM (PMC10448217 Table 3)", true},
      {"issue.sfu", &TimingConfig::iiSfu, "cycles/warp-insn",
       "S3 initiation 8; S4 ~9 cycles/warp-insn", true},
      {"issue.tensor", &TimingConfig::iiTensor, "cycles/HMMA",
       "the tensor pipe of one sub-partition per HMMA.16816 (an m16n8k16 mma.sync of f16 or "
       "bf16; the other kinds' SASS instructions take as long, tensor_work.h): micro_mma_chain "
       "on an H100 SXM (tests/recorded/timing/h100_tensor.tsv), four chains by 16 warps, 6.46 "
       "cycles per HMMA.16816.F32, 6.74 .F16, 6.48 HMMA.1688.F32.TF32, 6.49 IMMA.16832; one warp "
       "alone issues them 6.84 apart (wmma's two HMMA each)",
       true},
      {"issue.tensor_fp64", &TimingConfig::iiTensorFp64, "cycles/DMMA",
       "per DMMA.884 (m8n8k4 f64): micro_mma_chain on an H100 SXM, 15.9 cycles by 16 warps, "
       "17.0 by one warp's four chains",
       true},
      {"issue.tensor_wgmma", &TimingConfig::iiTensorWgmma, "cycles/4096 ops",
       "wgmma.mma_async per warp (a quarter of the warpgroup's m64nNk16), per 4096 f16 "
       "operations: micro_wgmma_chain on an H100 SXM (tests/recorded/timing/h100_tensor.tsv), "
       "8 back to back into one accumulator: 4.1 + 4.24 N/8 cycles a wgmma by two warpgroups, "
       "8.9 + 4.42 N/8 by one (84-92% of the dense peak)",
       true},
      {"latency.wgmma", &TimingConfig::latWgmma, "cycles",
       "a wgmma's pipe time to its completion for wgmma.wait_group: micro_wgmma_chain, each "
       "waited for: 93.7, 127.6, 213.4 cycles at N = 64, 128, 256, ~50-70 beyond the pipe",
       true},
      {"issue.branch", &TimingConfig::iiBranch, "cycles/warp-insn", "[unverified]", false},
      {"async.land_latency", &TimingConfig::asyncLandLatency, "cycles",
       "cp.async: from its data's return to the shared write that cp.async.wait_group waits "
       "for (LDGSTS, then DEPBAR): micro_chase_async on an H100 SXM "
       "(tests/recorded/timing/h100_tensor.tsv), a step of cp.async, commit, wait_group 0 and "
       "LDS, 521 cycles over 4 MB against micro_chase_global's 475 on the H200: the model's "
       "steps differ by 47.6 with 20; within 1.3% of the chip on both launches",
       true},
      {"async.bulk_latency", &TimingConfig::bulkLatency, "cycles",
       "a bulk copy (cp.async.bulk, TMA) from its issue to its requests at the L2: S2's TMA "
       "load of an L2-resident box takes ~365-369 cycles on an H800, about 100 more than an "
       "LDG's L2 hit [unverified]",
       false},
      {"shared.latency", &TimingConfig::sharedLatency, "cycles",
       "micro_chase_shared on the H200 (h200_ncu.tsv): 29.96 cycles a step of LDS and the IMAD "
       "that makes the next address, so 25 for the LDS (S3's -gpgpu_smem_latency 29 and S4's "
       "28.6 are such steps whole)",
       true},
      {"shared.cycles_per_wavefront", &TimingConfig::sharedCyclesPerWavefront, "cycles",
       "32 banks x 4 B = 128 B/clk/SM: one wavefront per cycle", true},
      {"shared.replay_latency", &TimingConfig::sharedReplayLatency, "cycles/wavefront",
       "micro_bank_stride on the H200 (tests/recorded/timing/h200_ncu.tsv): short_scoreboard "
       "per issue x 603 issues over 64 dependent loads grows 2.08, 2.01, 1.99, 2.00, 1.99 "
       "cycles per replayed wavefront at 2-, 4-, 8-, 16- and 32-way conflicts",
       true},
      {"shared.store_latency", &TimingConfig::sharedStoreLatency, "cycles",
       "micro_bar_store on the H200 (2026-12-05): 8 warps' k-way conflicted stores then "
       "bar.sync take max(36, 8k + 4) cycles a round, one cycle per wavefront, fitted with the "
       "model's barrier",
       true},
      {"shared.warp_pace", &TimingConfig::sharedWarpPace, "0 or 1",
       "micro_store_burst (tests/recorded/timing/h100_probes.tsv): one warp's 32-way stores take "
       "37.2k cycles at 64 rounds, 2 cycles a wavefront, and two warps' the same 37.3k",
       true},
      {"shared.atomic_latency", &TimingConfig::sharedAtomicLatency, "cycles", "[unverified]",
       false},
      {"dsmem.latency", &TimingConfig::dsmemLatency, "cycles",
       "micro_dsmem_chase on an H100 SXM (the same SM as the H200; tests/recorded/timing/"
       "h100_sync.tsv): 190.3 and 189.9 cycles per dependent load through the other CTA's "
       "shared memory (256 -> 1024 -> 4096 steps), less the model's 9 cycles of the chain's "
       "other instructions; S2 measured 181-213 SM to SM",
       true},
      {"cluster.barrier_latency", &TimingConfig::clusterBarrierLatency, "cycles",
       "micro_cluster_bar on an H100 SXM (tests/recorded/timing/h100_sync.tsv): a round of "
       "cluster.sync() (barrier.cluster.arrive.release + wait.acquire) takes 767.7, 782.9 and "
       "823.1 cycles in clusters of 2, 4 and 8 CTAs (64 -> 1024 rounds), less the model's 9 "
       "cycles of the loop: 741 + 9 per CTA",
       true},
      {"cluster.barrier_cycles_per_cta", &TimingConfig::clusterBarrierPerCta, "cycles/CTA",
       "the same fit: 759, 774 and 814 cycles at 2, 4 and 8 CTAs", true},
      {"fence.sc_latency", &TimingConfig::fenceScLatency, "cycles",
       "micro_fence on an H100 SXM (tests/recorded/timing/h100_sync.tsv): a round of a store "
       "and __threadfence() (STG, MEMBAR.SC.GPU, ERRBAR, CGAERRBAR, CCTL.IVALL) takes 668.4 "
       "cycles (256 -> 1024 rounds), the model's store-to-L2 wait and loop 271: 397 more",
       true},
      {"fence.release_latency", &TimingConfig::fenceReleaseLatency, "cycles",
       "micro_fence: a round of a store and atom.add.release.gpu (STG, MEMBAR.ALL.GPU, "
       "ERRBAR, CGAERRBAR, ATOMG) takes 779.2 cycles, the model without it 565: 214 more",
       true},
      {"fence.acquire_cycles", &TimingConfig::acquireCycles, "cycles",
       "micro_fence: a chain of ld.acquire.gpu (LDG.E.STRONG.GPU, CCTL.IVALL) takes 323.1 "
       "cycles a load, of ld.relaxed.gpu 280.3: 43 more",
       true},
      {"const.latency", &TimingConfig::constLatency, "cycles",
       "ld.param/ld.const: constant-bank operands [unverified]", false},
      {"l1.hit_latency", &TimingConfig::l1HitLatency, "cycles", "S3 41; S4 40.2; S1 34; S2 32",
       true},
      {"l1.line_bytes", &TimingConfig::l1LineBytes, "bytes", "S3 L1D S:4:128:64, 32 B sectors",
       true},
      {"l1.ways", &TimingConfig::l1Ways, "ways", "[unverified]", false},
      {"l1.store_allocate", &TimingConfig::l1StoreAllocate, "0/1",
       "a global store of whole sectors leaves them in the L1: softmax_fast on an H100 "
       "(h100_newer.tsv), 131,072 of its 196,608 load sectors hit at 4096 (its second pass "
       "over x and its third over the y it stored), exactly 2 of 3 at 256, 1024 and 4096",
       true},
      {"l1.tag_lines_per_cycle", &TimingConfig::l1TagLinesPerCycle, "lines/cycle",
       "tests/recorded/timing/h100_l1.tsv (micro_l1_lines, 32 warps): requests of 32 sectors "
       "in 9 and 32 lines without bank conflicts take 3.2 and 8.2 cycles each; NVIDIA's "
       "forum: the L1TEX tag stage resolves 4 sets x 4 sectors a cycle",
       true},
      {"l1.wavefront_latency", &TimingConfig::l1WavefrontLatency, "cycles",
       "a load's data delay per bank-conflict wavefront past the first: tests/recorded/timing/"
       "h100_l1.tsv (micro_l1_lines, one warp's dependent loads at lane strides 2, 4, 8, 16, "
       "32 words: 2.07-2.23 cycles a wavefront; 32 warps: one wavefront a cycle)",
       true},
      {"l2.hit_latency", &TimingConfig::l2HitLatency, "cycles",
       "near partition: S1, S2 264-266; S4 259.9", true},
      {"l2.size_kb", &TimingConfig::l2SizeKb, "KB",
       "S3 SM90_H200: 48 x 2 x 640 KiB = 60 MiB [unverified: check l2CacheSize]", false},
      {"l2.partitions", &TimingConfig::l2Partitions, "partitions",
       "two halves of l2.size_kb; a read from the far half leaves a copy in the near one "
       "(S3 -gpgpu_n_chiplet_partition 2; NVIDIA's A100 whitepaper; tests/recorded/timing/"
       "h200_ncu.tsv: transpose_tiled/padded at 4096 count 1.49 L2 read sectors per sector "
       "read from DRAM, a far read's two lookups, and write 31.4 of their 50.8 MB output to "
       "DRAM, where one 60 MiB LRU keeps all but 17.8 MB)",
       true},
      {"l2.line_bytes", &TimingConfig::l2LineBytes, "bytes", "S3 -gpgpu_cache:dl2 S:256:128:20",
       true},
      {"l2.ways", &TimingConfig::l2Ways, "ways", "S3 -gpgpu_cache:dl2 S:256:128:20", true},
      {"l2.bytes_per_cycle", &TimingConfig::l2BytesPerCycle, "bytes/cycle",
       "sector lookups (a far access's two counted): micro_copy at 256 MB made 26.0M "
       "lts__t_sectors in 259.2k SM cycles (100 a cycle, DRAM-bound) at 87% of "
       "lts__throughput's peak, transpose_padded at 4096 5.42M in 69.7k at 75% "
       "(tests/recorded/timing/h200_probes.tsv): ~110 sectors = 3500 B a cycle",
       true},
      {"l2.atomic_latency", &TimingConfig::atomicL2Latency, "cycles",
       "added to an L2 access by an atomic [unverified]", false},
      {"l2.atomic_same_address_cycles", &TimingConfig::atomicL2SameAddressCycles, "cycles",
       "between two warp requests' atomics on one address; from tests/recorded/timing/"
       "h200_ncu.tsv: reduce_atomic (16384 one-lane atomics on one address in <= 31266 active "
       "cycles at 4M: <= 1.9 each)",
       true},
      {"l2.atomic_lane_cycles", &TimingConfig::atomicL2LaneCycles, "cycles",
       "between two lanes of one warp request on one address (replayed); from "
       "tests/recorded/timing/h200_ncu.tsv: histogram_global (19.8 cycles per request per hot "
       "bin, Binomial(32, 1/16) lanes on it: 0.873 x 2 + 1.127 x 16, 64K-4M elements)",
       true},
      {"l2.far_lookup_slots", &TimingConfig::l2FarLookupSlots, "sectors",
       "ncu counts 1.50 L2 sector lookups per L1 sector, reads and writes alike, in the "
       "transposes and micro_copy (tests/recorded/timing/h200_probes.tsv): half the SMs' "
       "accesses, the far half's, are looked up in both halves",
       true},
      {"l2.partial_write_slots", &TimingConfig::l2PartialWriteSlots, "sectors",
       "fitted with l2.far_lookup_slots 2 and l2.bytes_per_cycle 3500 to micro_store_stride's "
       "stream of one 4-byte store per sector over 128 MB (122.1k cycles; model 0.97) and "
       "transpose_naive at 2048 and 4096 (0.96): tests/recorded/timing/h200_probes.tsv",
       true},
      {"ptxas.hoist_window", &TimingConfig::ptxasHoistWindow, "instructions",
       "how far ptxas moves loads and their address arithmetic ahead of their uses (across an "
       "unrolled loop's iterations); fitted to tests/recorded/timing/h200_ncu.tsv: sgemm_naive, "
       "gemv_warp, softmax_row, layernorm_row (long_scoreboard per issue)",
       true},
      {"ptxas.pipeline_unroll", &TimingConfig::ptxasPipelineUnroll, "copies",
       "how many times ptxas unrolls a short straight-line loop with a barrier and read-only "
       "loads, its copies one block (their LDG.E.CONSTANT move up into the copy before, across "
       "its BAR.SYNCs): cuobjdump -sass of sgemm_tiled (tests/recorded/sass/"
       "h200_suite_sm90.tar.xz: four copies of the tile loop, the next tile's LDGs among this "
       "tile's FFMAs in three of them)",
       true},
      {"ptxas.unroll_max_body", &TimingConfig::ptxasUnrollMaxBody, "instructions",
       "the longest loop without barriers (PTX instructions, read-only loads and no store or "
       "atomic, stepped by an immediate) that ptxas unrolls ptxas.pipeline_unroll times with "
       "every copy's loads at the block's top: cuobjdump -sass (tests/recorded/sass/"
       "h200_suite_sm90.tar.xz) of softmax_row's, gemv_warp's and layernorm_row's 9-12 "
       "instruction row loops (four LDG.E.CONSTANT a trip); sgemm_naive's 40-instruction loop, "
       "already unrolled by nvcc, is not",
       true},
      {"call.printf_cycles", &TimingConfig::printfCycles, "cycles",
       "a warp's vprintf call (the handler's ~7,200 SASS instructions); from "
       "tests/recorded/timing/h200_ncu.tsv: printf_lanes (a CTA whose 4 warps each print once "
       "is active 84.8k-86.6k cycles, one that does not print ~2k; 2 such SMs busy at once)",
       true},
      {"heap.malloc_warp_cycles", &TimingConfig::heapMallocWarpCycles, "cycles",
       "a device-side malloc's fixed time in the calling warp (heap_timing.h); from "
       "tests/recorded/timing/h100_micro.tsv: micro_heap_calls, one thread's call 13,736 "
       "cycles and one warp's 168,778 (the difference between 4 and 16 calls a thread) give "
       "13,736 - heap.malloc_lane_cycles",
       true},
      {"heap.malloc_lane_cycles", &TimingConfig::heapMallocLaneCycles, "cycles",
       "a device-side malloc's time in the calling warp per calling lane (its lanes' calls one "
       "after another); from tests/recorded/timing/h100_micro.tsv: micro_heap_calls, one "
       "warp's round 168,778 and one thread's 13,736 cycles: (168,778 - 13,736) / 31",
       true},
      {"heap.malloc_sm_cycles", &TimingConfig::heapMallocSmCycles, "cycles",
       "what each lane's malloc holds its SM's allocator slot; from "
       "tests/recorded/timing/h100_micro.tsv: micro_heap_calls, four warps of one SM take "
       "319,930 cycles a round of 128 calls (1.9 times one warp's)",
       true},
      {"heap.malloc_cycles", &TimingConfig::heapMallocCycles, "cycles",
       "what each lane's malloc holds the device's allocator slot, which every SM's calls "
       "share, for its thread's first malloc in the launch; fitted with "
       "heap.malloc_repeat_cycles to the 23 launches of 32 CTAs of 128 threads in "
       "tests/recorded/timing/h100_heap.tsv and h100_micro.tsv (micro_heap_calls at 1-16 "
       "mallocs a thread, micro_heap_lanes by 32, 31, 16, 4 and 1 lanes a warp at 2, 8, 16)",
       true},
      {"heap.malloc_repeat_cycles", &TimingConfig::heapMallocRepeatCycles, "cycles per call",
       "what each lane's malloc holds the device's allocator slot more per malloc its thread "
       "made before in the launch (the chip's: about 150 cycles a call for the first, "
       "1,500-2,200 for the ninth to sixteenth, whatever the lanes calling; the allocator's L2 "
       "atomics a call grow alike, 77 to 1,362); fitted with heap.malloc_cycles. heap_list "
       "(lists of 0-24 nodes a thread, 1,700 cycles a call at 8, 16 and 32 SMs) reads 0.7 "
       "of h100_newer.tsv's chip with it and 0.88 of a later run's (h100_heap_repeat.tsv)",
       true},
      {"heap.malloc_first_of_warp_cycles", &TimingConfig::heapMallocFirstOfWarpCycles, "cycles",
       "what a warp's first malloc in a launch holds the device's allocator slot more: fitted "
       "with heap.malloc_cycles and heap.malloc_repeat_cycles (a launch of 32 CTAs of 128 "
       "threads spends about 450,000 cycles on its mallocs beyond its calls' costs: "
       "micro_heap_lanes' one lane a warp takes 559,546 cycles for 256 mallocs)",
       true},
      {"heap.free_warp_cycles", &TimingConfig::heapFreeWarpCycles, "cycles",
       "a device-side free's fixed time in the calling warp; from "
       "tests/recorded/timing/h100_micro.tsv: micro_heap_calls, one thread's free 12,056 "
       "cycles, one warp's round 50,993: 12,056 - heap.free_lane_cycles",
       true},
      {"heap.free_lane_cycles", &TimingConfig::heapFreeLaneCycles, "cycles",
       "a device-side free's time in the calling warp per calling lane; from "
       "tests/recorded/timing/h100_micro.tsv: micro_heap_calls, (50,993 - 12,056) / 31",
       true},
      {"heap.free_sm_cycles", &TimingConfig::heapFreeSmCycles, "cycles",
       "what each lane's free holds its SM's allocator slot; from "
       "tests/recorded/timing/h100_micro.tsv: micro_heap_calls, four warps of one SM free 128 "
       "blocks in 48,913 cycles (an upper bound: one warp's own time, 50,993, is no less)",
       true},
      {"heap.free_cycles", &TimingConfig::heapFreeCycles, "cycles",
       "what each lane's free holds the device's allocator slot; fitted with "
       "heap.free_first_of_warp_cycles to heap_list's sum launches at 1024, 2048 and 4096 "
       "(tests/recorded/timing/h100_heap.tsv, h100_newer.tsv: 49,812 frees on 32 SMs in "
       "10,669,243 cycles) and micro_heap_calls' 32-CTA frees (144-250 a free beyond the first "
       "launch's fixed part)",
       true},
      {"heap.free_first_of_warp_cycles", &TimingConfig::heapFreeFirstOfWarpCycles, "cycles",
       "what a warp's first free in a launch holds the device's allocator slot more (one thread "
       "alone frees in 26,071 cycles, so it is a warp's, not an SM's): a launch of 32 CTAs of "
       "128 threads spends about 1.2M cycles on its frees beyond their calls' costs "
       "(micro_heap_lanes' one lane a warp frees 256 blocks in 1,207,189 cycles, 2,048 in "
       "1,400,671)",
       true},
      {"launch.device_latency", &TimingConfig::deviceLaunchLatency, "cycles",
       "a device-side launch (cudaLaunchDevice) to its child grid's start; the children run "
       "alongside their parent and each other: fitted to cdp_quicksort 4096 and 16384 in "
       "tests/recorded/timing/h100_newer.tsv (its critical path 16 launches deep at both; "
       "0.99 and 0.96 of the chip, 0.94 and 0.94 at 3,000) [one fit, not a measured latency]",
       true},
      {"launch.device_call_cycles", &TimingConfig::deviceLaunchCallCycles, "cycles",
       "a thread's device-side launch (cudaGetParameterBuffer and cudaLaunchDevice): the time "
       "it spends in the device runtime; from tests/recorded/timing/h100_newer.tsv: "
       "cdp_quicksort's SMs are active 30.6k (4096: 455 grids) and 29.5k (16384: 1,648 grids) "
       "cycles a launch more than the model's, and execute 1,870 and 1,883 warp-instructions a "
       "launch more",
       true},
      {"call.frame_word_cycles", &TimingConfig::frameWordCycles, "cycles",
       "the stall count ptxas gives each STL of a callee's prologue and each LDL of its "
       "epilogue (the frame's words): 4 on all but the last of each run in calls_recursive's "
       "SASS (tests/recorded/sass/h200_suite_sm90.tar.xz, nvdisasm's control bits)",
       true},
      {"call.frame_convention_cycles", &TimingConfig::frameConventionCycles, "cycles",
       "the calling convention of a function with a stack frame beyond its STL/LDL (VIADD R1 "
       "at both ends, BMOV.32.CLEAR/BMOV.32 of the caller's convergence barrier, its own "
       "BSSY/BSYNC, the return address in R20/R21): micro_call_chain's frame chain (two calls "
       "of callDeep a round) takes 440 cycles a round on the chip (H100, "
       "tests/recorded/timing/h100_calls.tsv), 441 in the model with 36; ncu's samples "
       "put branch_resolving after the BSYNC",
       true},
      {"ptxas.vectorize_shared", &TimingConfig::ptxasVectorize, "0/1",
       "ptxas merges shared loads of consecutive words of a 16-byte-aligned vector into "
       "LDS.64/LDS.128 (cuobjdump -sass of sgemm_tiled: 4 LDS.128 for As[ty][0..15]; ncu: "
       "20.97M shared load instructions at 1024, not the PTX's 33.5M)",
       true},
      {"ptxas.if_convert_max", &TimingConfig::ptxasIfConvertMax, "instructions",
       "the longest branch body (PTX instructions) that ptxas predicates: cuobjdump -sass of "
       "scan_blelloch (its 9-instruction `if (tid < d)` down-sweep bodies are predicated, its "
       "15-instruction `if (tid == 0)` body with a global store stays a branch), "
       "reduce_interleaved and reduce_sequential (4-instruction bodies predicated)",
       true},
      {"ptxas.fold_addresses", &TimingConfig::ptxasFoldAddresses, "0/1",
       "ptxas folds an add that only addresses memory into the access ([R+imm], [R+UR]): "
       "micro_lds_chain's `add %r, %idx, table` is `LDS R6, [R6+UR4]` in cuobjdump -sass "
       "(scripts/device_lds_width.sh's sass_lds.txt)",
       true},
      {"ptxas.fold_modifiers", &TimingConfig::ptxasFoldModifiers, "0/1",
       "ptxas folds a float's neg or abs read only by float arithmetic or the SFU into its "
       "readers' operands (-R, |R|), an integer neg read only by adds into IADD3: "
       "micro_mufu_chain's `neg.f32 t, x; ex2.approx.ftz.f32 x, t` is `MUFU.EX2 R4, -R5` "
       "(tests/recorded/sass/h200_suite_sm90.tar.xz)",
       true},
      {"ptxas.fold_add_pairs", &TimingConfig::ptxasFoldAddPairs, "0/1",
       "ptxas makes two dependent 32-bit adds, the first read only by the second, one "
       "three-input IADD3 (LEA or IMAD x, k, 2 when both add k): micro_iadd_chain's 32 "
       "`add.u32 x, x, k` a round are 16 SASS instructions "
       "(tests/recorded/sass/h200_suite_sm90.tar.xz, alu_chains.sass), 2,166 warp-instructions "
       "executed on the chip where the PTX has 4,219",
       true},
      {"ptxas.fold_predicates", &TimingConfig::ptxasFoldPredicates, "0/1",
       "ptxas makes a predicates' and/or/xor, one of whose sources a setp makes for it alone, "
       "that compare's combining operand: calls_noinline's collatz loop `setp.ne.s32 %p3, ...; "
       "and.pred %p5, %p3, %p4; @%p5 bra` is two ISETPs and `@P0 BRA P1` "
       "(tests/recorded/sass/h100_all_sm90.tar.xz, calls_noinline.sass)",
       true},
      {"ptxas.fold_selects", &TimingConfig::ptxasFoldSelects, "0/1",
       "ptxas writes a selp's two sources, computed in its block for it alone, into its "
       "destination, the second under its predicate: the same loop's `mad.lo.s32 %r10, %r13, 3, "
       "1; shr.u32 %r11, %r13, 1; selp.b32 %r13, %r10, %r11, %p2` is `IMAD R3, R5, 0x3, R6; @P0 "
       "SHF.R.U32.HI R3, RZ, 0x1, R5` (calls_noinline.sass)",
       true},
      {"ptxas.sass_stalls", &TimingConfig::ptxasSassStalls, "0/1",
       "the fixed stall counts of the control codes of ptxas's SASS (bits 41-44 of each "
       "instruction's second word; nvdisasm -c -g -hex of a -lineinfo cubin), per source line "
       "and kind spread over its PTX: ncu's `wait` per issue 0.57 (sgemm_regblock), 1.75 "
       "(sgemm_tiled), 1.88 (sgemm_naive) in tests/recorded/timing/h200_ncu.tsv; off (0) by "
       "default: correlate MAPE 12.0% -> 12.2%, pairs within 25% 41 -> 39 with it on",
       true},
      {"dram.latency", &TimingConfig::dramLatency, "cycles",
       "load-to-use from HBM: S1 650-658, S2 600-656", true},
      {"dram.bytes_per_cycle", &TimingConfig::dramBytesPerCycle, "bytes/cycle",
       "4.8 TB/s spec x 0.9 sustained / 1.98 GHz [unverified]", false},
      {"dram.banks", &TimingConfig::dramBanks, "servers",
       "the independent queues HBM requests are drawn to (dram.h; 0: none, the data path alone "
       "queues), 1.5 x dram.bytes_per_cycle x dram.bank_cycles / 32: fitted with "
       "dram.bank_cycles to the DRAM-bound cards of tests/recorded/timing/h200_ncu.tsv (gemv_warp, "
       "daxpy, saxpy, vector_add, micro_copy, ddot, bf16_fma_relu: MAPE 11.7% -> 5.8%) and "
       "micro_dram_streams on the H100 (h100_dram.tsv: 0.71 -> 0.96 of the chip at 64 MiB)",
       true},
      {"dram.bank_cycles", &TimingConfig::dramBankCycles, "cycles per sector",
       "how long a 32-byte DRAM access holds its server (dram.banks): with them, a load's "
       "wait grows with HBM's load as the chip's does (docs/FIDELITY.md \"HBM's latency under "
       "load\"); fitted with dram.banks (100-400 tried)",
       true},
      {"peak.fp32_flop_per_cycle", &TimingConfig::peakFp32FlopPerCycle, "FLOP/cycle/SM",
       "roofline only: 128 FP32 lanes per SM x 2 (FMA) (NVIDIA H100 whitepaper, GH100 SM; "
       "66.9 TFLOP/s at 132 SMs x 1.98 GHz)",
       true},
      {"peak.fp64_flop_per_cycle", &TimingConfig::peakFp64FlopPerCycle, "FLOP/cycle/SM",
       "roofline only: 64 FP64 lanes per SM x 2 (H100 whitepaper; H200 datasheet 34 TFLOP/s)",
       true},
      {"peak.fp16_flop_per_cycle", &TimingConfig::peakFp16FlopPerCycle, "FLOP/cycle/SM",
       "roofline only: half2 FMA, 2x FP32 (H100 whitepaper: 133.8 TFLOP/s FP16 non-tensor)", true},
      {"peak.tensor_flop_per_cycle", &TimingConfig::peakTensorFlopPerCycle, "FLOP/cycle/SM",
       "roofline only: dense FP16/BF16 MMA, 1024 FMA per cycle per SM (H100 whitepaper: "
       "989.4 TFLOP/s dense at the tensor boost clock)",
       true},
      {"peak.dram_tb_per_s", &TimingConfig::peakDramTbPerS, "TB/s",
       "roofline only: H200 SXM datasheet, HBM3e 4.8 TB/s", true},
  };
  return r;
}

const Row* findRow(const std::string& key) {
  for (const Row& r : rows())
    if (key == r.key) return &r;
  return nullptr;
}

std::string formatDouble(double d) {
  std::ostringstream s;
  s << d;
  return s.str();
}

void check(const TimingConfig& c, const std::string& origin) {
  auto fail = [&](const std::string& why) { throw ConfigError(origin + ": " + why); };
  if (!findScheduler(c.scheduler))
    fail("scheduler: unknown scheduler '" + c.scheduler + "' (known: " + schedulerNames() + ")");
  if (!(c.clockGhz > 0)) fail("clock_ghz: must be positive");
  if (c.smCount == 0 || c.smCount > 4096) fail("sm.count: must be 1..4096");
  if (c.smspPerSm == 0 || c.smspPerSm > 16) fail("sm.sub_partitions: must be 1..16");
  if (c.maxWarpsPerSm == 0 || c.maxCtasPerSm == 0 || c.maxThreadsPerSm == 0)
    fail("sm.max_*: must be positive");
  if (c.registerAllocUnit == 0) fail("sm.register_alloc_unit: must be positive");
  if (c.sharedCarveoutMaxKb > c.unifiedL1SharedKb)
    fail("sm.shared_carveout_max_kb: larger than sm.unified_l1_shared_kb");
  for (uint32_t v : {c.iiFma, c.iiAlu, c.iiFp64, c.iiSfu, c.iiBranch})
    if (v == 0) fail("issue.*: initiation intervals must be at least 1");
  for (double v : {c.iiTensor, c.iiTensorFp64, c.iiTensorWgmma})
    if (!(v >= 1)) fail("issue.tensor*: must be at least 1 cycle");
  if (c.intOnFmaHeavy > 1) fail("issue.int_on_fma_heavy: must be 0 or 1");
  auto pow2 = [](uint32_t v) { return v >= 32 && (v & (v - 1)) == 0; };
  if (!pow2(c.l1LineBytes) || c.l1LineBytes > 128) fail("l1.line_bytes: must be 32, 64 or 128");
  if (!pow2(c.l2LineBytes) || c.l2LineBytes > 128) fail("l2.line_bytes: must be 32, 64 or 128");
  if (c.l1Ways == 0 || c.l2Ways == 0) fail("l1.ways / l2.ways: must be positive");
  if (c.l1TagLinesPerCycle == 0) fail("l1.tag_lines_per_cycle: must be positive");
  if (!(c.l1WavefrontLatency >= 0) || c.l1WavefrontLatency > 1000)
    fail("l1.wavefront_latency: must be 0..1000");
  if (c.l2SizeKb == 0) fail("l2.size_kb: must be positive");
  try {
    parseGpcs(c.gpcs, c.smCount);
  } catch (const ConfigError& e) {
    fail(e.what());
  }
  if (c.ptxasHoistWindow > 128) fail("ptxas.hoist_window: must be 0..128");
  if (c.ptxasPipelineUnroll > 64) fail("ptxas.pipeline_unroll: must be 0..64");
  if (c.ptxasUnrollMaxBody > 128) fail("ptxas.unroll_max_body: must be 0..128");
  if (c.ptxasVectorize > 1) fail("ptxas.vectorize_shared: must be 0 or 1");
  if (c.l2Partitions == 0 || c.l2Partitions > 8) fail("l2.partitions: must be 1..8");
  if (c.ptxasIfConvertMax > 64) fail("ptxas.if_convert_max: must be 0..64");
  if (c.ptxasFoldAddresses > 1) fail("ptxas.fold_addresses: must be 0 or 1");
  if (c.ptxasFoldModifiers > 1) fail("ptxas.fold_modifiers: must be 0 or 1");
  if (c.ptxasFoldAddPairs > 1) fail("ptxas.fold_add_pairs: must be 0 or 1");
  if (c.ptxasFoldPredicates > 1) fail("ptxas.fold_predicates: must be 0 or 1");
  if (c.ptxasFoldSelects > 1) fail("ptxas.fold_selects: must be 0 or 1");
  if (c.ptxasSassStalls > 1) fail("ptxas.sass_stalls: must be 0 or 1");
  if (!(c.l2PartialWriteSlots >= 1)) fail("l2.partial_write_slots: must be at least 1");
  if (!(c.l2FarLookupSlots >= 1)) fail("l2.far_lookup_slots: must be at least 1");
  if (c.dramBanks > (1u << 20)) fail("dram.banks: must be 0..1048576");
  if (!(c.dramBankCycles >= 0) || c.dramBankCycles > 1e6)
    fail("dram.bank_cycles: must be 0..1000000");
  if (!(c.l2BytesPerCycle > 0) || !(c.dramBytesPerCycle > 0))
    fail("bytes_per_cycle: must be positive");
  for (double v : {c.peakFp32FlopPerCycle, c.peakFp64FlopPerCycle, c.peakFp16FlopPerCycle,
                   c.peakTensorFlopPerCycle, c.peakDramTbPerS})
    if (!(v > 0)) fail("peak.*: must be positive");
}

}  // namespace

const std::vector<ParamInfo>& parameterTable() {
  static const std::vector<ParamInfo> t = [] {
    std::vector<ParamInfo> out;
    for (const Row& r : rows()) {
      const char* type = std::holds_alternative<uint32_t TimingConfig::*>(r.field) ? "integer"
                         : std::holds_alternative<double TimingConfig::*>(r.field) ? "number"
                                                                                   : "string";
      out.push_back({r.key, type, r.unit, r.source, r.verified});
    }
    return out;
  }();
  return t;
}

std::string paramValueText(const TimingConfig& c, const std::string& key) {
  const Row* r = findRow(key);
  if (!r) throw ConfigError("unknown timing parameter '" + key + "'");
  if (auto u = std::get_if<uint32_t TimingConfig::*>(&r->field)) return std::to_string(c.**u);
  if (auto d = std::get_if<double TimingConfig::*>(&r->field)) return formatDouble(c.**d);
  return nlohmann::json(c.*std::get<std::string TimingConfig::*>(r->field)).dump();
}

TimingConfig parseTimingConfig(const std::string& text, const std::string& origin,
                               const TimingConfig& base) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw ConfigError(origin + ": not valid JSON: " + e.what());
  }
  if (!j.is_object()) throw ConfigError(origin + ": expected a JSON object of \"key\": value");
  TimingConfig c = base;
  for (const auto& [key, v] : j.items()) {
    const Row* r = findRow(key);
    if (!r) throw ConfigError(origin + ": unknown key '" + key + "'");
    if (auto u = std::get_if<uint32_t TimingConfig::*>(&r->field)) {
      if (!v.is_number_unsigned() || v.get<uint64_t>() > 0xFFFFFFFFull)
        throw ConfigError(origin + ": '" + key + "' must be a non-negative integer (" + r->unit +
                          ")");
      c.** u = v.get<uint32_t>();
    } else if (auto d = std::get_if<double TimingConfig::*>(&r->field)) {
      if (!v.is_number() || !std::isfinite(v.get<double>()))
        throw ConfigError(origin + ": '" + key + "' must be a number (" + r->unit + ")");
      c.** d = v.get<double>();
    } else {
      if (!v.is_string()) throw ConfigError(origin + ": '" + key + "' must be a string");
      c.*std::get<std::string TimingConfig::*>(r->field) = v.get<std::string>();
    }
  }
  check(c, origin);
  return c;
}

TimingConfig loadTimingConfig(const std::string& path, const TimingConfig& base) {
  std::ifstream f(path);
  if (!f) throw ConfigError(path + ": cannot read the timing configuration");
  std::ostringstream s;
  s << f.rdbuf();
  return parseTimingConfig(s.str(), path, base);
}

std::string formatTimingConfig(const TimingConfig& c) {
  std::string out;
  for (const Row& r : rows()) {
    std::string line = "  " + std::string(r.key) + " = " + paramValueText(c, r.key);
    if (*r.unit) line += std::string(" ") + r.unit;
    line.resize(std::max<size_t>(line.size() + 1, 44), ' ');
    out += line + "(" + r.source + ")\n";
  }
  return out;
}

std::string timingConfigJson(const TimingConfig& c) {
  std::string out = "{";
  bool first = true;
  for (const Row& r : rows()) {
    out += first ? "\n  " : ",\n  ";
    first = false;
    out += "\"" + std::string(r.key) + "\": " + paramValueText(c, r.key);
  }
  return out + "\n}\n";
}

}  // namespace warpsim::sim::timing
