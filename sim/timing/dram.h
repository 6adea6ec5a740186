// HBM: requests spread by an address hash over `banks` independent servers, each busy
// `bankCycles` per 32-byte sector it serves, behind one data path at `bytesPerCycle`; a read's
// data reaches the SM `latency` after its server starts it. The data path alone is a queue in
// arrival order: a burst of misses waits its turn (bandwidth), a lone miss pays the latency.
// The servers make the latency grow with the load well before the bandwidth is reached, as the
// chip's does (docs/FIDELITY.md "HBM's latency under load"): at a given rate, requests that
// hash to a busy server wait for it. They stand for whatever queues the chip's memory
// controllers have (banks, bank groups, turnarounds, refresh), fitted, not the HBM3 banks
// themselves. Without servers (banks 0) only the data path queues.
#pragma once

#include <cstdint>
#include <vector>

namespace warpsim::sim::timing {

class Dram {
 public:
  Dram(uint32_t latency, double bytesPerCycle, uint32_t banks = 0, double bankCycles = 0);
  // A read of the sector at byte address `sectorAddr` (`bytes` of it) asked for at `now`: the
  // cycle its data reaches the SM.
  uint64_t read(uint64_t now, uint64_t sectorAddr, uint32_t bytes);
  // A write-back of `bytes` at `now`: it takes bandwidth and a server per sector (their
  // addresses are not kept by the L2: spread over the servers by a count), nobody waits for it.
  void write(uint64_t now, uint32_t bytes);

 private:
  double serve(uint64_t now, uint32_t bank, uint32_t bytes);
  uint32_t latency_;
  double bytesPerCycle_, bankCycles_;
  double nextFree_ = 0;
  std::vector<double> bankFree_;
  uint64_t writes_ = 0;
};

}  // namespace warpsim::sim::timing
