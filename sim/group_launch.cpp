// Cluster and cooperative launch checks, with the CUDA driver's error names (CUDA Driver API,
// cuLaunchKernelEx / cuLaunchCooperativeKernel): a shape the chip refuses is a LaunchError.
#include "sim/group_launch.h"

#include <algorithm>

#include "sim/gpu.h"
#include "sim/timing/occupancy.h"

namespace warpsim::sim {

namespace {
std::string shape(const Dim3& d) {
  return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z);
}
bool same(const Dim3& a, const Dim3& b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
}  // namespace

void configureGroups(const LaunchConfig& config, const isa::FunctionCode& fn,
                     const DeviceLimits& limits, LaunchContext& ctx) {
  const ir::Function& src = *fn.src;
  const std::string kernel = "kernel '" + config.entry + "'";
  const bool given = config.cluster.x != 0;
  Dim3 cluster{1, 1, 1};
  if (src.reqnctapercluster[0]) {
    const Dim3 req{src.reqnctapercluster[0], std::max(1u, src.reqnctapercluster[1]),
                   std::max(1u, src.reqnctapercluster[2])};
    if (given && !same(req, config.cluster))
      throw LaunchError(kernel + " is compiled for clusters of .reqnctapercluster " + shape(req) +
                        "; the launch asks for " + shape(config.cluster) +
                        " (CUDA_ERROR_INVALID_CLUSTER_SIZE)");
    cluster = req;
  } else if (given) {
    cluster = config.cluster;
  } else if (src.explicitCluster) {
    throw LaunchError(kernel +
                      " is declared .explicitcluster: launch it with a cluster shape "
                      "(--cluster X[,Y,Z]) (CUDA_ERROR_INVALID_CLUSTER_SIZE)");
  }
  if (cluster.x == 0 || cluster.y == 0 || cluster.z == 0)
    throw LaunchError("cluster shape " + shape(cluster) +
                      " has a zero dimension (CUDA_ERROR_INVALID_CLUSTER_SIZE)");
  const uint32_t gd[3] = {ctx.grid.x, ctx.grid.y, ctx.grid.z};
  const uint32_t cd[3] = {cluster.x, cluster.y, cluster.z};
  for (int i = 0; i < 3; ++i)
    if (gd[i] % cd[i] != 0)
      throw LaunchError(std::string("grid dimension ") + "xyz"[i] + " = " + std::to_string(gd[i]) +
                        " is not a multiple of the cluster's " + std::to_string(cd[i]) +
                        " (CUDA_ERROR_INVALID_CLUSTER_SIZE)");
  const uint64_t size = cluster.count();
  const uint64_t most = config.nonPortableCluster ? 16 : 8;
  if (size > most)
    throw LaunchError("a cluster of " + std::to_string(size) + " CTAs exceeds the " +
                      (config.nonPortableCluster
                           ? std::string("H200's limit of 16")
                           : std::string("portable limit of 8 (16 with the attribute "
                                         "CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED)")) +
                      " (CUDA_ERROR_INVALID_CLUSTER_SIZE)");
  if (src.maxclusterrank && size > src.maxclusterrank)
    throw LaunchError("a cluster of " + std::to_string(size) + " CTAs exceeds " + kernel +
                      "'s .maxclusterrank of " + std::to_string(src.maxclusterrank) +
                      " (CUDA_ERROR_INVALID_CLUSTER_SIZE)");
  ctx.cluster = cluster;
  ctx.explicitCluster = given || src.reqnctapercluster[0] != 0;
  ctx.cooperative = config.cooperative;
  if (config.cooperative) {
    // Every CTA resident at once: 132 SMs x what fits on one (registers, shared memory, warps).
    timing::KernelResources k;
    k.registers = config.registersPerThread ? config.registersPerThread : 32;
    k.staticShared = fn.sharedBytes;
    uint32_t perSm = 0;
    try {
      perSm = timing::computeOccupancy(timing::TimingConfig{}, k, uint32_t(ctx.block.count()),
                                       ctx.dynamicShared)
                  .ctasPerSm;
    } catch (const std::exception&) {
      perSm = 0;
    }
    const uint64_t fit = uint64_t(perSm) * limits.smCount;
    if (ctx.grid.count() > fit)
      throw LaunchError("a cooperative grid of " + std::to_string(ctx.grid.count()) +
                        " CTAs does not fit the chip at once: " + std::to_string(limits.smCount) +
                        " SMs x " + std::to_string(perSm) + " CTAs per SM (" +
                        std::to_string(k.registers) + " registers per thread) = " +
                        std::to_string(fit) + " (CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE)");
  }
}

}  // namespace warpsim::sim
