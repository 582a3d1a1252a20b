// Tests of sim/quadratic_modes.*: the damped eigenproblem against closed forms (docs/physics.md#modes-with-friction).
#include "dropsim/sim/quadratic_modes.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace dropsim {
namespace {

Eigen::MatrixXd one(double v) { return Eigen::MatrixXd::Constant(1, 1, v); }

// m x'' + c x' + k x = 0: s = -zeta omega +- i omega sqrt(1 - zeta^2),
// omega = sqrt(k / m), zeta = c / (2 sqrt(k m)); started at x = 1 on the mode
// alone, x = e^(-zeta omega t) cos(omega_d t), so x'(0) = -zeta omega.
TEST(QuadraticModes, MassSpringDamper) {
  const double m = 3.0, k = 1.2e4, c = 30.0;
  const double omega = std::sqrt(k / m), zeta = c / (2.0 * std::sqrt(k * m));
  const QuadraticModes q = quadratic_modes(one(m), one(k), one(c));
  ASSERT_EQ(q.oscillating.size(), 1u);
  EXPECT_TRUE(q.decay_rates.empty());
  EXPECT_EQ(q.neutral, 0);
  const ComplexMode& mode = q.oscillating[0];
  EXPECT_NEAR(mode.s.real(), -zeta * omega, 1e-10 * omega);
  EXPECT_NEAR(mode.s.imag(), omega * std::sqrt(1.0 - zeta * zeta), 1e-10 * omega);
  EXPECT_NEAR(mode.shape[0], 1.0, 1e-12);
  EXPECT_NEAR(mode.rate_shape[0], -zeta * omega, 1e-9 * omega);
}

// Beyond critical damping both roots are real: omega (zeta -+ sqrt(zeta^2 - 1)).
TEST(QuadraticModes, OverdampedRootsAreDecayRates) {
  const double m = 2.0, k = 800.0, zeta = 1.5;
  const double omega = std::sqrt(k / m), c = 2.0 * zeta * std::sqrt(k * m);
  const QuadraticModes q = quadratic_modes(one(m), one(k), one(c));
  EXPECT_TRUE(q.oscillating.empty());
  ASSERT_EQ(q.decay_rates.size(), 2u);
  EXPECT_NEAR(q.decay_rates[0], omega * (zeta + std::sqrt(zeta * zeta - 1.0)), 1e-9 * omega);
  EXPECT_NEAR(q.decay_rates[1], omega * (zeta - std::sqrt(zeta * zeta - 1.0)), 1e-9 * omega);
}

// Two masses on springs to the ground, one damper on the second: the mode
// shape's real part and rate_shape start x(t) = Re(v e^(s t)) exactly; check
// it solves M x'' + D x' + K x = 0 at t = 0 through the eigen-relation
// (M s^2 + D s + K) v = 0, which Re v and Re(s v) alone fix up to Im v.
TEST(QuadraticModes, ShapesSolveTheQuadraticProblem) {
  Eigen::Matrix2d M{{1.0, 0.0}, {0.0, 2.0}}, K{{300.0, -100.0}, {-100.0, 200.0}}, D{{0.0, 0.0}, {0.0, 8.0}};
  const QuadraticModes q = quadratic_modes(M, K, D);
  ASSERT_EQ(q.oscillating.size(), 2u);
  EXPECT_LT(q.oscillating[0].s.imag(), q.oscillating[1].s.imag());
  for (const ComplexMode& mode : q.oscillating) {
    EXPECT_NEAR(mode.shape.cwiseAbs().maxCoeff(), 1.0, 1e-12);
    // v = shape + i w with Re(s v) = rate_shape: w = (Re s shape - rate_shape) / Im s.
    const Eigen::Vector2d w = (mode.s.real() * mode.shape - mode.rate_shape) / mode.s.imag();
    const Eigen::Vector2cd v = mode.shape.cast<std::complex<double>>() + std::complex<double>(0, 1) * w;
    using C = std::complex<double>;
    const Eigen::Matrix2cd Q = M.cast<C>() * (mode.s * mode.s) + D.cast<C>() * mode.s + K.cast<C>();
    const Eigen::Vector2cd residual = Q * v;
    EXPECT_LT(residual.norm(), 1e-9 * K.norm());
  }
}

}  // namespace
}  // namespace dropsim
