#include "harness/correlation.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace warpsim::harness {

double MeasuredLaunch::metric(const std::string& name) const {
  auto it = metrics.find(name);
  return it == metrics.end() ? 0 : it->second;
}

double MeasuredLaunch::clockGhz() const {
  const double ns = metric("gpu__time_duration.sum"), cycles = metric("gpc__cycles_elapsed.max");
  if (ns > 0 && cycles > 0) return cycles / ns;
  return metric("sm__cycles_elapsed.avg.per_second") / 1e9;
}

namespace {

std::vector<std::string> splitTabs(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, '\t')) out.push_back(cell);
  if (!line.empty() && line.back() == '\t') out.emplace_back();
  return out;
}

uint64_t wholeNumber(const std::string& text, const std::string& where) {
  size_t used = 0;
  uint64_t v = 0;
  try {
    v = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size())
    throw std::runtime_error(where + ": '" + text + "' is not a whole number");
  return v;
}

double pearson(const std::vector<double>& x, const std::vector<double>& y) {
  const size_t n = x.size();
  if (n < 2) return 0;
  double mx = 0, my = 0;
  for (size_t i = 0; i < n; ++i) mx += x[i], my += y[i];
  mx /= double(n);
  my /= double(n);
  double sxy = 0, sxx = 0, syy = 0;
  for (size_t i = 0; i < n; ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  return sxx > 0 && syy > 0 ? sxy / std::sqrt(sxx * syy) : 0;
}

}  // namespace

std::vector<MeasuredLaunch> readMeasurements(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot read");
  std::string line;
  if (!std::getline(in, line)) throw std::runtime_error(path + ": empty");
  const std::vector<std::string> header = splitTabs(line);
  auto column = [&](const std::string& name) {
    for (size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return i;
    throw std::runtime_error(path + ":1: no column '" + name + "'");
  };
  const size_t card = column("card"), size = column("size"), seed = column("seed"),
               launch = column("launch"), kernel = column("kernel"), threads = column("threads"),
               grid = column("grid"), block = column("block"), shared = column("shared");
  std::vector<MeasuredLaunch> out;
  for (unsigned lineNo = 2; std::getline(in, line); ++lineNo) {
    if (line.empty()) continue;
    const std::string where = path + ":" + std::to_string(lineNo);
    const std::vector<std::string> cells = splitTabs(line);
    if (cells.size() != header.size())
      throw std::runtime_error(where + ": " + std::to_string(cells.size()) +
                               " columns, the header has " + std::to_string(header.size()));
    MeasuredLaunch m;
    m.card = cells[card];
    m.kernel = cells[kernel];
    m.grid = cells[grid];
    m.block = cells[block];
    m.shared = cells[shared];
    m.size = wholeNumber(cells[size], where);
    m.seed = wholeNumber(cells[seed], where);
    m.launch = wholeNumber(cells[launch], where);
    m.threads = wholeNumber(cells[threads], where);
    for (size_t i = threads + 1; i < cells.size(); ++i) {
      if (cells[i].empty()) continue;
      char* end = nullptr;
      const double v = std::strtod(cells[i].c_str(), &end);
      if (end != cells[i].c_str() + cells[i].size())
        throw std::runtime_error(where + ": column '" + header[i] + "': '" + cells[i] +
                                 "' is not a number");
      m.metrics[header[i]] = v;
    }
    out.push_back(std::move(m));
  }
  return out;
}

const std::vector<std::pair<std::string, std::string>>& designPairs() {
  static const std::vector<std::pair<std::string, std::string>> pairs = {
      {"sgemm_naive", "sgemm_tiled"},
      {"sgemm_tiled", "sgemm_regblock"},
      {"sgemm_naive", "sgemm_regblock"},
      {"transpose_naive", "transpose_tiled"},
      {"transpose_tiled", "transpose_padded"},
      {"transpose_naive", "transpose_padded"},
      {"reduce_interleaved", "reduce_sequential"},
      {"reduce_sequential", "reduce_shuffle"},
      {"reduce_shuffle", "reduce_atomic"},
      {"scan_blelloch", "scan_blelloch_padded"},
      {"scan_blelloch", "scan_shfl_up"},
      {"stencil5_naive", "stencil5_shared"},
      {"histogram_global", "histogram_shared"},
  };
  return pairs;
}

namespace {

// The work of a launch by its counters, with its kernel and geometry; false when a counter is
// missing (such a launch is nobody's repeat).
bool workKey(const MeasuredLaunch& m, std::vector<std::string>& key) {
  // (Shared wavefronts are compared within a tolerance, below: transpose_padded's vary by
  // ~0.5% between runs of the same launch.)
  static const char* const kWork[] = {
      "smsp__inst_executed.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
  };
  key = {m.kernel, m.grid, m.block, m.shared};
  for (const char* w : kWork) {
    const auto it = m.metrics.find(w);
    if (it == m.metrics.end()) return false;
    key.push_back(std::to_string(it->second));
  }
  return true;
}

}  // namespace

LaunchNoise launchNoise(const std::vector<MeasuredLaunch>& launches, double longCycles) {
  // The L2 read sectors differ a little between repeats (cold caches, replays) but a lot
  // between launches whose footprint differs (micro_chase_global at several sizes): within 5%;
  // the shared wavefronts within 1% (and by a factor of 2 or more between conflict degrees).
  constexpr double kL2Tolerance = 0.05, kSharedTolerance = 0.01;
  const std::string l2 = "lts__t_sectors_op_read.sum", cycles = "gpc__cycles_elapsed.max";
  static const char* const kShared[] = {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                                        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"};
  auto near = [](double a, double b, double tolerance) {
    return std::fabs(a - b) <= tolerance * std::max(a, b);
  };
  std::map<std::vector<std::string>, std::vector<std::vector<const MeasuredLaunch*>>> groups;
  std::vector<std::string> key;
  for (const MeasuredLaunch& m : launches) {
    if (m.metric(cycles) <= 0 || !workKey(m, key)) continue;
    auto& subs = groups[key];
    const double s = m.metric(l2);
    if (!m.metrics.count(kShared[0]) || !m.metrics.count(kShared[1])) continue;
    auto same = [&](const std::vector<const MeasuredLaunch*>& g) {
      const MeasuredLaunch& f = *g.front();
      return near(s, f.metric(l2), kL2Tolerance) &&
             near(m.metric(kShared[0]), f.metric(kShared[0]), kSharedTolerance) &&
             near(m.metric(kShared[1]), f.metric(kShared[1]), kSharedTolerance);
    };
    if (auto it = std::find_if(subs.begin(), subs.end(), same); it != subs.end())
      it->push_back(&m);
    else
      subs.push_back({&m});
  }
  // Each group's mean and sum of squared deviations, then the short groups' pooled sigma, then
  // what the long groups scatter beyond it, relative to their means.
  struct Spread {
    double mean = 0, squares = 0;
    unsigned n = 0;
  };
  std::vector<Spread> spreads;
  for (const auto& [key, subs] : groups)
    for (const auto& g : subs) {
      if (g.size() < 2) continue;
      Spread sp;
      sp.n = unsigned(g.size());
      for (const MeasuredLaunch* m : g) sp.mean += m->metric(cycles) / double(g.size());
      for (const MeasuredLaunch* m : g)
        sp.squares += (m->metric(cycles) - sp.mean) * (m->metric(cycles) - sp.mean);
      spreads.push_back(sp);
    }
  LaunchNoise n;
  double squares = 0, relSquares = 0;
  unsigned freedom = 0, relFreedom = 0;
  for (const Spread& sp : spreads) {
    ++n.groups;
    n.launches += sp.n;
    if (sp.mean < longCycles) {
      squares += sp.squares;
      freedom += sp.n - 1;
    }
  }
  n.sigmaCycles = freedom ? std::sqrt(squares / freedom) : 0;
  for (const Spread& sp : spreads) {
    if (sp.mean < longCycles) continue;
    ++n.longGroups;
    const double beyond = std::max(0.0, sp.squares - (sp.n - 1) * n.sigmaCycles * n.sigmaCycles);
    relSquares += beyond / (sp.mean * sp.mean);
    relFreedom += sp.n - 1;
  }
  n.relative = relFreedom ? std::sqrt(relSquares / relFreedom) : 0;
  return n;
}

double LaunchNoise::of(unsigned launchCount, double cycles) const {
  return std::sqrt(launchCount * sigmaCycles * sigmaCycles + relative * relative * cycles * cycles);
}

bool PairComparison::chipTie() const {
  // Two standard deviations: a difference the chip would show by chance about one time in 20.
  return std::fabs(measuredDifference) <= 2 * measuredNoise;
}

bool PairComparison::sameDirection() const {
  const double m = std::log(measuredSpeedup), p = std::log(predictedSpeedup);
  if (chipTie()) return std::fabs(p) < 0.1;
  return (m > 0) == (p > 0);
}

double PairComparison::ratioError() const {
  return measuredSpeedup > 0 ? std::fabs(predictedSpeedup / measuredSpeedup - 1) : 0;
}

std::vector<PairComparison> comparePairs(const std::vector<ProblemComparison>& problems,
                                         const LaunchNoise& noise) {
  std::vector<PairComparison> out;
  for (const auto& [a, b] : designPairs())
    for (const ProblemComparison& pa : problems) {
      if (pa.card != a || !pa.error.empty()) continue;
      for (const ProblemComparison& pb : problems) {
        if (pb.card != b || pb.size != pa.size || !pb.error.empty()) continue;
        if (pa.predictedCycles <= 0 || pb.predictedCycles <= 0) continue;
        PairComparison c;
        c.a = a;
        c.b = b;
        c.size = pa.size;
        c.measuredSpeedup = pa.measuredCycles / pb.measuredCycles;
        c.predictedSpeedup = pa.predictedCycles / pb.predictedCycles;
        c.measuredDifference = pa.measuredCycles - pb.measuredCycles;
        const double na = noise.of(pa.launches, pa.measuredCycles),
                     nb = noise.of(pb.launches, pb.measuredCycles);
        c.measuredNoise = std::sqrt(na * na + nb * nb);
        out.push_back(c);
      }
    }
  return out;
}

CorrelationSummary summarize(const std::vector<ProblemComparison>& problems,
                             const std::vector<PairComparison>& pairs, double smallCycles) {
  CorrelationSummary s;
  std::vector<double> m, p, lm, lp;
  double ape = 0;
  for (const ProblemComparison& c : problems) {
    if (!c.error.empty() || c.measuredCycles <= 0) continue;
    ++s.problems;
    if (c.measuredCycles < smallCycles) {
      ++s.small;
      continue;
    }
    ape += std::fabs(c.predictedCycles - c.measuredCycles) / c.measuredCycles;
    m.push_back(c.measuredCycles);
    p.push_back(c.predictedCycles);
    lm.push_back(std::log(c.measuredCycles));
    lp.push_back(std::log(std::max(1.0, c.predictedCycles)));
  }
  const size_t scored = m.size();
  s.mape = scored ? ape / double(scored) : 0;
  s.pearson = pearson(m, p);
  s.pearsonLog = pearson(lm, lp);
  for (const PairComparison& c : pairs) {
    ++s.pairs;
    if (c.sameDirection()) ++s.pairsSameDirection;
    if (c.chipTie()) ++s.pairsChipTie;
    if (c.ratioError() <= 0.25) ++s.pairsWithin25;
  }
  return s;
}

}  // namespace warpsim::harness
