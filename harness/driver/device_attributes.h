// What the simulated device says it is: an NVIDIA H200 (SXM, 141 GB HBM3e, compute
// capability 9.0, 132 SMs), as cuDeviceGetAttribute and friends report it.
#pragma once

#include <cstdint>
#include <optional>

namespace warpsim::driver {

inline constexpr const char* kDeviceName = "NVIDIA H200 (warpsim)";
// nvidia-smi's 143771 MiB for an H200 SXM.
inline constexpr uint64_t kDeviceTotalMemory = 143771ull << 20;
inline constexpr int kDriverVersion = 13000;  // the CUDA version the driver API implements

// The value of CU_DEVICE_ATTRIBUTE_<attribute>, or nothing for a number outside the enum (the
// call then fails with CUDA_ERROR_INVALID_VALUE).
std::optional<int> deviceAttribute(int attribute);

}  // namespace warpsim::driver
