// MD2 (RFC 1319) and HMAC-MD2 (RFC 2104): the CUDA runtime's start-up integrity check asks the
// driver for an HMAC-MD2 of the process, thread, driver version and device identity.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace warpsim::driver {

using Md2Digest = std::array<uint8_t, 16>;

Md2Digest md2(const uint8_t* data, size_t bytes);
// HMAC with MD2 (block size 16): H((K ^ 0x5c..) || H((K ^ 0x36..) || message)), K 16 bytes.
Md2Digest hmacMd2(const std::array<uint8_t, 16>& key, const std::vector<uint8_t>& message);

}  // namespace warpsim::driver
