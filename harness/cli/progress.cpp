#include "harness/cli/progress.h"

#include <unistd.h>

#include <cstdio>

namespace warpsim::cli {

namespace {

std::string withCommas(uint64_t n) {
  const std::string digits = std::to_string(n);
  std::string s;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) s += ',';
    s += digits[i];
  }
  return s;
}

}  // namespace

// One CTA's counts, added to the meter in chunks: an atomic add per instruction from every
// host thread would cost more than the instruction.
class ProgressObserver final : public sim::Observer {
 public:
  explicit ProgressObserver(ProgressMeter& m) : meter_(m) {}
  void instruction(const sim::InstructionEvent&) override {
    if (++pending_ == kChunk) flush();
  }
  void ctaFinished(const sim::FaultInfo*) override {
    flush();
    meter_.ctasDone_.fetch_add(1, std::memory_order_relaxed);
  }

 private:
  static constexpr uint64_t kChunk = 4096;
  void flush() {
    meter_.warpInsns_.fetch_add(pending_, std::memory_order_relaxed);
    pending_ = 0;
  }
  ProgressMeter& meter_;
  uint64_t pending_ = 0;
};

std::unique_ptr<sim::Observer> ProgressMeter::create(const sim::CtaInfo&) {
  return std::make_unique<ProgressObserver>(*this);
}

std::string progressText(uint64_t done, uint64_t total, uint64_t insns, double seconds) {
  std::string s = "warpsim: " + withCommas(done) + "/" + withCommas(total) + " CTAs done, " +
                  withCommas(insns) + " warp-instructions";
  char b[96];
  if (seconds > 0) {
    std::snprintf(b, sizeof b, " (%.3g M/s)", double(insns) / seconds / 1e6);
    s += b;
  }
  // The ETA from the CTAs finished so far; none before the first (a CTA may be all there is).
  if (done > 0 && done < total) {
    std::snprintf(b, sizeof b, ", ETA %.0f s", seconds * double(total - done) / double(done));
    s += b;
  }
  return s;
}

ProgressLine::ProgressLine(const ProgressMeter& meter, uint64_t totalCtas, std::ostream& os)
    : meter_(meter), total_(totalCtas), os_(os) {
  thread_ = std::thread([this] {
    std::unique_lock<std::mutex> lock(mutex_);
    auto next = start_ + std::chrono::seconds(1);
    while (!wake_.wait_until(lock, next, [this] { return stop_; })) {
      draw();
      next += std::chrono::milliseconds(500);
    }
  });
}

void ProgressLine::draw() {
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  // \r and "erase to the end of the line": the line is rewritten in place.
  os_ << "\r" << progressText(meter_.ctasDone(), total_, meter_.warpInstructions(), seconds)
      << "\033[K" << std::flush;
  drawn_ = true;
}

ProgressLine::~ProgressLine() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
  if (drawn_) os_ << "\r\033[K" << std::flush;
}

uint64_t totalCtas(const kernels::Problem& p) {
  uint64_t n = 0;
  for (const kernels::Launch& l : p.launches) n += uint64_t(l.grid.x) * l.grid.y * l.grid.z;
  return n;
}

bool progressWanted(bool forced) { return forced || isatty(STDERR_FILENO); }

}  // namespace warpsim::cli
