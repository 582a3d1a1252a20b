// Coordinate functions against values computed by hand: polynomials, the two spline ends, scaling.
#include "dropsim/sim/coordinate_function.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace dropsim {
namespace {

using Ends = CoordinateFunction::SplineEnds;

TEST(CoordinateFunction, PolynomialsTakeTheHighestPowerFirst) {
  const auto p = CoordinateFunction::polynomial({2.0, -3.0, 0.5, 7.0});  // 2q^3 - 3q^2 + q/2 + 7
  EXPECT_DOUBLE_EQ(p.value(1.5), 2 * 3.375 - 3 * 2.25 + 0.75 + 7);
  EXPECT_DOUBLE_EQ(p.derivative(1.5), 6 * 2.25 - 6 * 1.5 + 0.5);
  EXPECT_DOUBLE_EQ(CoordinateFunction::linear(-2.0, 1.0).value(3.0), -5.0);
  EXPECT_TRUE(CoordinateFunction::constant(4.0).is_constant());
  EXPECT_FALSE(CoordinateFunction::linear(1.0, 0.0).is_constant());
}

// Forsythe–Malcolm–Moler's end conditions match the third derivative of the
// cubic through the end four points, so data from any cubic gives that cubic back.
TEST(CoordinateFunction, DividedDifferenceEndsReproduceACubic) {
  const auto cubic = [](double x) { return 0.3 * x * x * x - x * x + 2 * x - 1; };
  const std::vector<double> x{-1.0, -0.2, 0.5, 1.1, 2.0, 3.2};
  std::vector<double> y;
  for (double v : x) y.push_back(cubic(v));
  const auto s = CoordinateFunction::spline(x, y, Ends::divided_differences);
  for (double q = -1.0; q <= 3.2; q += 0.137) {
    EXPECT_NEAR(s.value(q), cubic(q), 1e-12) << q;
    EXPECT_NEAR(s.derivative(q), 0.9 * q * q - 2 * q + 2, 1e-11) << q;
  }
}

TEST(CoordinateFunction, NaturalEndsHaveNoCurvature) {
  const std::vector<double> x{0.0, 0.4, 1.0, 1.3, 2.0}, y{0.0, 0.8, 0.1, -0.5, 0.3};
  const auto s = CoordinateFunction::spline(x, y, Ends::natural);
  for (std::size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(s.value(x[i]), y[i], 1e-15);
  // Second derivative by differences of the first, just inside each end.
  const double h = 1e-6;
  EXPECT_NEAR((s.derivative(h + h) - s.derivative(h)) / h, 0.0, 1e-4);
  EXPECT_NEAR((s.derivative(2.0 - h) - s.derivative(2.0 - 2 * h)) / h, 0.0, 1e-4);
  // Slope continuous at an interior knot.
  EXPECT_NEAR(s.derivative(1.0 - 1e-9), s.derivative(1.0 + 1e-9), 1e-7);
}

TEST(CoordinateFunction, SplinesContinueAlongTheirEndSlopes) {
  const auto s = CoordinateFunction::spline({0.0, 1.0, 2.0}, {0.0, 1.0, 0.0}, Ends::divided_differences);
  // Three points: a parabola y = 2x - x^2 (the ends force equal curvature).
  EXPECT_NEAR(s.value(0.5), 0.75, 1e-14);
  EXPECT_NEAR(s.derivative(0.0), 2.0, 1e-14);
  EXPECT_NEAR(s.value(-1.0), -2.0, 1e-14);
  EXPECT_NEAR(s.value(3.0), -2.0, 1e-14);
  EXPECT_NEAR(s.derivative(5.0), -2.0, 1e-14);
  const auto line = CoordinateFunction::spline({1.0, 3.0}, {2.0, 6.0}, Ends::divided_differences);
  EXPECT_DOUBLE_EQ(line.value(2.0), 4.0);
}

TEST(CoordinateFunction, AMultiplierScalesValueAndSlope) {
  const auto f = CoordinateFunction::multiplied(CoordinateFunction::polynomial({1.0, 0.0, 0.0}), -0.5);
  EXPECT_DOUBLE_EQ(f.value(2.0), -2.0);
  EXPECT_DOUBLE_EQ(f.derivative(2.0), -2.0);
}

TEST(CoordinateFunction, BadKnotsAreRefusedWithASentence) {
  EXPECT_THROW(CoordinateFunction::spline({0.0}, {1.0}, Ends::natural), std::invalid_argument);
  EXPECT_THROW(CoordinateFunction::spline({0.0, 1.0}, {1.0}, Ends::natural), std::invalid_argument);
  try {
    CoordinateFunction::spline({0.0, 1.0, 1.0}, {0.0, 1.0, 2.0}, Ends::natural);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("increase strictly"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace dropsim
