// Comparison math: exactness on shared samples, cubic order, overlap and statistics.
#include "dropsim/sim/trace_compare.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace dropsim {
namespace {

std::vector<double> grid(double a, double b, std::size_t n) {
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = a + (b - a) * static_cast<double>(i) / static_cast<double>(n - 1);
  return x;
}

template <class F>
std::vector<double> sample(const std::vector<double>& x, F f) {
  std::vector<double> y;
  for (double v : x) y.push_back(f(v));
  return y;
}

TEST(TraceCompare, CubicIsReproducedExactlyOnAnUnevenGrid) {
  const std::vector<double> x = {0.0, 0.3, 0.35, 1.0, 1.7, 2.0, 3.1};
  auto p = [](double v) { return 2.0 - v + 0.5 * v * v - 0.25 * v * v * v; };
  const auto y = sample(x, p);
  for (double q : {0.01, 0.31, 0.9, 1.5, 2.5, 3.05}) EXPECT_NEAR(interpolate_cubic(x, y, q), p(q), 1e-13) << q;
}

TEST(TraceCompare, SharedSamplesAreTakenAsTheyAre) {
  const auto x = grid(0.0, 1.0, 11);
  // A kink at 0.5: only an exact pick returns the sample itself.
  const auto y = sample(x, [](double v) { return std::abs(v - 0.5); });
  EXPECT_EQ(interpolate_cubic(x, y, 0.5), 0.0);
  EXPECT_EQ(interpolate_cubic(x, y, 0.5 * (1.0 + 1e-14)), 0.0);
  EXPECT_EQ(interpolate_cubic(x, y, 1.0), y.back());
}

TEST(TraceCompare, FreeFlightBetweenZerosStaysZero) {
  const auto x = grid(0.0, 1.0, 11);
  const auto y = sample(x, [](double v) { return v > 0.45 ? std::pow(v - 0.45, 1.5) : 0.0; });
  EXPECT_EQ(interpolate_cubic(x, y, 0.35), 0.0);
}

// A grid ending in a sliver (the last sample at `duration`, 1e-10 after the one
// before): noise of 1e-12 in the samples must not be amplified by h / sliver.
TEST(TraceCompare, ASliverAtTheEndDoesNotAmplifyNoise) {
  auto x = grid(0.0, 1.0, 11);
  x.push_back(1.0 + 1e-10);
  auto y = sample(x, [](double v) { return std::sin(v); });
  for (std::size_t i = 0; i < y.size(); ++i) y[i] += (i % 2 ? 1e-12 : -1e-12);
  for (double q : {0.85, 0.95, 0.999, 1.0 + 5e-11}) EXPECT_NEAR(interpolate_cubic(x, y, q), std::sin(q), 1e-5) << q;
}

TEST(TraceCompare, ErrorFallsAsTheFourthPowerOfTheSpacing) {
  auto f = [](double v) { return std::sin(3.0 * v); };
  const auto xa = grid(0.0, 2.0, 97);  // never on B's grid except the ends
  double previous = 0.0;
  for (std::size_t n : {41, 81, 161}) {
    const auto xb = grid(0.0, 2.0, n);
    const CompareOutcome r = compare_curves(xa, sample(xa, f), xb, sample(xb, f), {});
    ASSERT_TRUE(r.error.empty()) << r.error;
    if (previous > 0.0) {
      EXPECT_NEAR(std::log2(previous / r.result.max_abs_diff), 4.0, 0.4) << n;
    }
    previous = r.result.max_abs_diff;
  }
}

TEST(TraceCompare, OverlapStatisticsAndTolerance) {
  const auto xa = grid(0.0, 4.0, 401), xb = grid(1.0, 10.0, 901);
  auto f = [](double v) { return std::exp(-(v - 2.0) * (v - 2.0)); };
  auto ya = sample(xa, f);
  const auto yb = sample(xb, f);
  ya[250] += 0.01;  // x = 2.5
  const CompareOutcome r = compare_curves(xa, ya, xb, yb, {1e-3, 0.0});
  ASSERT_TRUE(r.error.empty());
  const Comparison& c = r.result;
  EXPECT_EQ(c.overlap_begin, 1.0);
  EXPECT_EQ(c.overlap_end, 4.0);
  EXPECT_EQ(c.samples, 301u);
  EXPECT_NEAR(c.max_abs_diff, 0.01, 1e-12);
  EXPECT_NEAR(c.x_of_max, 2.5, 1e-12);
  EXPECT_NEAR(c.rms_diff, 0.01 / std::sqrt(301.0), 1e-12);
  EXPECT_EQ(c.failing_samples, 1u);
  EXPECT_NEAR(c.x_first_failure, 2.5, 1e-12);
  EXPECT_NEAR(c.x_peak_a, 2.0, 1e-12);
  EXPECT_NEAR(c.x_peak_b, 2.0, 1e-12);
  EXPECT_NEAR(c.peak_a - c.peak_b, 0.0, 1e-15);
  // rtol relaxes it: 0.01 <= 1e-3 + 0.1 * |a| at x = 2.5 (a ~ 0.79).
  EXPECT_TRUE(compare_curves(xa, ya, xb, yb, {1e-3, 0.1}).result.within_tolerance());
}

TEST(TraceCompare, RejectsWhatCannotBeCompared) {
  const auto x = grid(0.0, 1.0, 5), far = grid(2.0, 3.0, 5);
  const std::vector<double> y(5, 1.0);
  EXPECT_NE(compare_curves(x, y, far, y, {}).error.find("do not overlap"), std::string::npos);
  std::vector<double> back = x;
  std::swap(back[1], back[2]);
  EXPECT_NE(compare_curves(x, y, back, y, {}).error.find("not strictly increasing"), std::string::npos);
  EXPECT_NE(compare_curves(x, {1.0}, x, y, {}).error.find("differ in length"), std::string::npos);
}

}  // namespace
}  // namespace dropsim
