#include "harness/driver/md2.h"

#include <cstring>

namespace warpsim::driver {

namespace {

// RFC 1319's permutation of 0..255 built from the digits of pi.
constexpr uint8_t kPi[256] = {
    41,  46,  67,  201, 162, 216, 124, 1,   61,  54,  84,  161, 236, 240, 6,   19,  98,  167, 5,
    243, 192, 199, 115, 140, 152, 147, 43,  217, 188, 76,  130, 202, 30,  155, 87,  60,  253, 212,
    224, 22,  103, 66,  111, 24,  138, 23,  229, 18,  190, 78,  196, 214, 218, 158, 222, 73,  160,
    251, 245, 142, 187, 47,  238, 122, 169, 104, 121, 145, 21,  178, 7,   63,  148, 194, 16,  137,
    11,  34,  95,  33,  128, 127, 93,  154, 90,  144, 50,  39,  53,  62,  204, 231, 191, 247, 151,
    3,   255, 25,  48,  179, 72,  165, 181, 209, 215, 94,  146, 42,  172, 86,  170, 198, 79,  184,
    56,  210, 150, 164, 125, 182, 118, 252, 107, 226, 156, 116, 4,   241, 69,  157, 112, 89,  100,
    113, 135, 32,  134, 91,  207, 101, 230, 45,  168, 2,   27,  96,  37,  173, 174, 176, 185, 246,
    28,  70,  97,  105, 52,  64,  126, 15,  85,  71,  163, 35,  221, 81,  175, 58,  195, 92,  249,
    206, 186, 197, 234, 38,  44,  83,  13,  110, 133, 40,  132, 9,   211, 223, 205, 244, 65,  129,
    77,  82,  106, 220, 55,  200, 108, 193, 171, 250, 36,  225, 123, 8,   12,  189, 177, 74,  120,
    136, 149, 139, 227, 99,  232, 109, 233, 203, 213, 254, 59,  0,   29,  57,  242, 239, 183, 14,
    102, 88,  208, 228, 166, 119, 114, 248, 235, 117, 75,  10,  49,  68,  80,  180, 143, 237, 31,
    26,  219, 153, 141, 51,  159, 17,  131, 20};

struct Md2 {
  uint8_t x[48] = {};  // the state, the block and their xor
  uint8_t checksum[16] = {};
  uint8_t block[16] = {};
  size_t filled = 0;

  void compress(const uint8_t* b) {
    for (int i = 0; i < 16; ++i) {
      x[16 + i] = b[i];
      x[32 + i] = x[i] ^ b[i];
    }
    uint8_t t = 0;
    for (int round = 0; round < 18; ++round) {
      for (uint8_t& v : x) t = v ^= kPi[t];
      t = uint8_t(t + round);
    }
  }
  void updateChecksum(const uint8_t* b) {
    uint8_t l = checksum[15];
    for (int i = 0; i < 16; ++i) l = checksum[i] ^= kPi[b[i] ^ l];
  }
  void update(const uint8_t* data, size_t n) {
    for (size_t i = 0; i < n; ++i) {
      block[filled++] = data[i];
      if (filled == 16) {
        compress(block);
        updateChecksum(block);
        filled = 0;
      }
    }
  }
  Md2Digest finish() {
    uint8_t pad[16];
    const uint8_t n = uint8_t(16 - filled);
    std::memset(pad, n, n);
    update(pad, n);
    uint8_t c[16];
    std::memcpy(c, checksum, 16);
    update(c, 16);
    Md2Digest d;
    std::memcpy(d.data(), x, 16);
    return d;
  }
};

}  // namespace

Md2Digest md2(const uint8_t* data, size_t bytes) {
  Md2 h;
  h.update(data, bytes);
  return h.finish();
}

Md2Digest hmacMd2(const std::array<uint8_t, 16>& key, const std::vector<uint8_t>& message) {
  std::vector<uint8_t> inner(16 + message.size());
  for (int i = 0; i < 16; ++i) inner[i] = key[i] ^ 0x36;
  std::memcpy(inner.data() + 16, message.data(), message.size());
  const Md2Digest in = md2(inner.data(), inner.size());
  uint8_t outer[32];
  for (int i = 0; i < 16; ++i) outer[i] = key[i] ^ 0x5c;
  std::memcpy(outer + 16, in.data(), 16);
  return md2(outer, 32);
}

}  // namespace warpsim::driver
