// HBM: requests spread over `banks` independent servers, each busy `bankCycles` per 32-byte
// sector it serves, behind one data path at `bytesPerCycle`; a read's data reaches the SM
// `latency` after its server starts it. The data path alone is a queue in arrival order: a
// burst of misses waits its turn (bandwidth), a lone miss pays the latency. The servers make
// the latency grow with the load well before the bandwidth is reached, as the chip's does
// (docs/FIDELITY.md "HBM's latency under load"): at a given rate, requests that meet a busy
// server wait for it. Each request (each sector) goes to a server drawn by a hash of its count,
// so that which ones collide depends on the order of the requests, never on their addresses.
// The servers stand for whatever queues the chip's memory controllers have (banks, bank groups,
// turnarounds, refresh), fitted, not the HBM3 banks themselves. Without servers (banks 0) only
// the data path queues.
#pragma once

#include <cstdint>
#include <vector>

namespace warpsim::sim::timing {

class Dram {
 public:
  Dram(uint32_t latency, double bytesPerCycle, uint32_t banks = 0, double bankCycles = 0);
  // A read of `bytes` (a sector or less) asked for at `now`: the cycle its data reaches the SM.
  uint64_t read(uint64_t now, uint32_t bytes);
  // A write-back of `bytes` at `now`: it takes bandwidth and a server per sector, nobody waits
  // for it.
  void write(uint64_t now, uint32_t bytes);

 private:
  double serve(uint64_t now, uint32_t bank, uint32_t bytes);
  uint32_t latency_;
  double bytesPerCycle_, bankCycles_;
  double nextFree_ = 0;
  std::vector<double> bankFree_;
  uint64_t requests_ = 0;  // sectors asked for so far: their count draws their servers
};

}  // namespace warpsim::sim::timing
