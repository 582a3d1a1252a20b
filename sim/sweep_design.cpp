// Sweep designs: the points of a parameter sweep, cartesian or Latin hypercube.
#include "dropsim/sim/sweep_design.hpp"

#include <cmath>
#include <numeric>
#include <random>

namespace dropsim {

namespace {

// Value k of n on an axis: evenly spaced, in log space for log axes.
double axis_value(const SweepAxis& a, double fraction) {
  if (a.log) return std::exp(std::log(a.start) + fraction * (std::log(a.stop) - std::log(a.start)));
  return a.start + fraction * (a.stop - a.start);
}

}  // namespace

SweepDesign cartesian_design(std::vector<SweepAxis> axes) {
  SweepDesign d;
  d.kind = "cartesian";
  d.axes = std::move(axes);
  double total = 1.0;
  for (const auto& a : d.axes) total *= static_cast<double>(a.count);
  std::vector<long> k(d.axes.size(), 0);
  for (long run = 0; run < static_cast<long>(total); ++run) {
    std::vector<double> v(d.axes.size());
    for (std::size_t i = 0; i < d.axes.size(); ++i) {
      const auto& a = d.axes[i];
      v[i] = a.count == 1 ? a.start : axis_value(a, static_cast<double>(k[i]) / static_cast<double>(a.count - 1));
    }
    d.values.push_back(std::move(v));
    for (std::size_t i = d.axes.size(); i-- > 0;) {  // last axis fastest
      if (++k[i] < d.axes[i].count) break;
      k[i] = 0;
    }
  }
  return d;
}

SweepDesign latin_hypercube_design(std::vector<SweepAxis> axes, long samples, std::uint64_t seed) {
  SweepDesign d;
  d.kind = "latin_hypercube";
  d.seed = seed;
  d.axes = std::move(axes);
  d.values.assign(static_cast<std::size_t>(samples), std::vector<double>(d.axes.size()));
  // mt19937_64 and this explicit draw are specified bit for bit, unlike
  // std::shuffle and std::uniform_real_distribution: same seed, same design everywhere.
  std::mt19937_64 rng(seed);
  auto uniform = [&] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
  std::vector<long> strata(static_cast<std::size_t>(samples));
  for (std::size_t i = 0; i < d.axes.size(); ++i) {
    std::iota(strata.begin(), strata.end(), 0L);
    for (std::size_t j = strata.size(); j > 1; --j) std::swap(strata[j - 1], strata[rng() % j]);  // Fisher–Yates
    for (std::size_t r = 0; r < strata.size(); ++r)
      d.values[r][i] = axis_value(d.axes[i], (static_cast<double>(strata[r]) + uniform()) / static_cast<double>(samples));
  }
  return d;
}

}  // namespace dropsim
