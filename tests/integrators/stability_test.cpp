// Step limits from the amplification matrix (integrators/stability.hpp) against closed forms.
#include "dropsim/integrators/stability.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <functional>
#include <vector>

#include <boost/numeric/odeint/stepper/runge_kutta_cash_karp54.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta_fehlberg78.hpp>

namespace dropsim::integrators {
namespace {

const Eigen::MatrixXd one = Eigen::MatrixXd::Identity(1, 1);

LinearSystem unit_oscillator(double zeta) { return {one, one, 2.0 * zeta * one}; }

double limit(Method m, const LinearSystem& s, double tol = default_growth_tolerance) {
  return step_limit(m, s, tol).step;
}

// docs/physics.md#step-limits: central difference, symplectic Euler and velocity Verlet 2; rk4 2 sqrt(2).
TEST(UndampedLimit, ClosedForms) {
  EXPECT_NEAR(undamped_limit(Method::central_difference).step, 2.0, 1e-6);
  EXPECT_NEAR(undamped_limit(Method::symplectic_euler).step, 2.0, 1e-6);
  EXPECT_NEAR(undamped_limit(Method::velocity_verlet).step, 2.0, 1e-6);
  // rk4: |R(iy)|^2 = 1 - y^6/72 + y^8/576 <= 1 for y <= sqrt(8); the growth
  // tolerance moves it by ~1e-7.
  EXPECT_NEAR(undamped_limit(Method::rk4, 1e-12).step, 2.0 * std::sqrt(2.0), 1e-8);
  EXPECT_NEAR(undamped_limit(Method::rk4).step, 2.0 * std::sqrt(2.0), 1e-5);
}

TEST(UndampedLimit, EulerUnstableAtEveryStep) {
  EXPECT_EQ(undamped_limit(Method::euler).step, 0.0);
  // |1 + i h omega| > 1 however small h is.
  ForwardEuler<Eigen::VectorXd> euler;
  for (double h : {1e-4, 1e-2, 1.0})
    EXPECT_GT(spectral_radius(amplification_matrix(euler, unit_oscillator(0.0), h)), 1.0);
}

TEST(UndampedLimit, ImplicitMethodsUnconditionallyStable) {
  for (Method m : {Method::newmark, Method::implicit_euler, Method::rosenbrock4}) {
    EXPECT_TRUE(undamped_limit(m).unconditional()) << info(m).name;
    EXPECT_TRUE(step_limit(m, unit_oscillator(0.5)).unconditional()) << info(m).name;
  }
  // Newmark's average acceleration neither grows nor damps: rho = 1 at any h.
  Newmark<Eigen::VectorXd> newmark;
  EXPECT_NEAR(spectral_radius(amplification_matrix(newmark, unit_oscillator(0.0), 100.0)), 1.0, 1e-12);
}

// The largest y with |R(iy)| within the growth tolerance (log|R| <= tol y) at
// every smaller y: the undamped limit h omega of a method whose amplification
// factor on y' = lambda y is R(h lambda). Marches up from 1e-3, then bisects.
double imaginary_axis_limit(const std::function<std::complex<double>(std::complex<double>)>& stability) {
  auto grows = [&](double y) { return std::log(std::abs(stability({0.0, y}))) > default_growth_tolerance * y; };
  double y = 1e-3;
  while (!grows(y * 1.02)) y *= 1.02;
  double lo = y, hi = y * 1.02;
  for (int i = 0; i < 60; ++i) (grows(0.5 * (lo + hi)) ? hi : lo) = 0.5 * (lo + hi);
  return lo;
}

// Independent check of dopri5: its stability polynomial
// R(z) = sum_{k<=5} z^k/k! + z^6/600 on the imaginary axis.
TEST(UndampedLimit, Dopri5MatchesItsStabilityPolynomial) {
  const double oracle = imaginary_axis_limit([](std::complex<double> z) {
    std::complex<double> r = 1.0, term = 1.0;
    for (int k = 1; k <= 5; ++k) r += (term *= z / double(k));
    return r + std::pow(z, 6) / 600.0;
  });
  EXPECT_NEAR(undamped_limit(Method::dopri5).step, oracle, 1e-9);
}

// An explicit Runge–Kutta method's stability function from its Butcher
// tableau: stage values Y_i = 1 + z sum_j a_ij Y_j, R(z) = 1 + z sum_i b_i Y_i.
std::complex<double> butcher_stability(const std::vector<std::vector<double>>& a, const std::vector<double>& b,
                                       std::complex<double> z) {
  std::vector<std::complex<double>> stage{1.0};
  for (const auto& row : a) {
    std::complex<double> y = 1.0;
    for (std::size_t j = 0; j < row.size(); ++j) y += z * row[j] * stage[j];
    stage.push_back(y);
  }
  std::complex<double> r = 1.0;
  for (std::size_t i = 0; i < b.size(); ++i) r += z * b[i] * stage[i];
  return r;
}

template <class Row>
std::vector<double> row_of(const Row& row) {
  return {row.begin(), row.end()};
}

// Independent check of the odeint pairs: their tableaux (odeint's coefficient
// tables, the propagated weights) evaluated on the imaginary axis, against the
// amplification-matrix analysis of the steppers themselves.
TEST(UndampedLimit, CashKarpMatchesItsTableau) {
  namespace o = boost::numeric::odeint;
  const std::vector<std::vector<double>> a = {
      row_of(o::rk54_ck_coefficients_a1<double>()), row_of(o::rk54_ck_coefficients_a2<double>()),
      row_of(o::rk54_ck_coefficients_a3<double>()), row_of(o::rk54_ck_coefficients_a4<double>()),
      row_of(o::rk54_ck_coefficients_a5<double>())};
  const std::vector<double> b = row_of(o::rk54_ck_coefficients_b<double>());
  const double oracle = imaginary_axis_limit([&](std::complex<double> z) { return butcher_stability(a, b, z); });
  EXPECT_NEAR(undamped_limit(Method::cash_karp54).step, oracle, 1e-6);
}

TEST(UndampedLimit, Fehlberg78MatchesItsTableau) {
  namespace o = boost::numeric::odeint;
  const std::vector<std::vector<double>> a = {
      row_of(o::rk78_coefficients_a1<double>()),  row_of(o::rk78_coefficients_a2<double>()),
      row_of(o::rk78_coefficients_a3<double>()),  row_of(o::rk78_coefficients_a4<double>()),
      row_of(o::rk78_coefficients_a5<double>()),  row_of(o::rk78_coefficients_a6<double>()),
      row_of(o::rk78_coefficients_a7<double>()),  row_of(o::rk78_coefficients_a8<double>()),
      row_of(o::rk78_coefficients_a9<double>()),  row_of(o::rk78_coefficients_a10<double>()),
      row_of(o::rk78_coefficients_a11<double>()), row_of(o::rk78_coefficients_a12<double>())};
  const std::vector<double> b = row_of(o::rk78_coefficients_b<double>());
  const double oracle = imaginary_axis_limit([&](std::complex<double> z) { return butcher_stability(a, b, z); });
  EXPECT_NEAR(undamped_limit(Method::fehlberg78).step, oracle, 1e-6);
}

// Independent check of Gragg–Bulirsch–Stoer: the modified midpoint rule (with
// Gragg's final smoothing step, as odeint's modified_midpoint) on y' = lambda y
// in complex arithmetic for 2, 4, 6 and 8 substeps, extrapolated by
// Aitken–Neville in h^2 to T_33.
TEST(UndampedLimit, BulirschStoerMatchesExtrapolatedMidpoint) {
  auto midpoint = [](std::complex<double> z, int n) {
    const std::complex<double> w = z / double(n);
    std::complex<double> x0 = 1.0, x1 = 1.0 + w;
    for (int i = 1; i < n; ++i) {
      const std::complex<double> next = x0 + 2.0 * w * x1;
      x0 = x1;
      x1 = next;
    }
    return 0.5 * (x0 + x1 + w * x1);
  };
  auto extrapolated = [&](std::complex<double> z) {
    const int n[4] = {2, 4, 6, 8};
    std::complex<double> t[4][4];
    for (int j = 0; j < 4; ++j) {
      t[j][0] = midpoint(z, n[j]);
      for (int k = 1; k <= j; ++k) {
        const double ratio = double(n[j]) / n[j - k];
        t[j][k] = t[j][k - 1] + (t[j][k - 1] - t[j - 1][k - 1]) / (ratio * ratio - 1.0);
      }
    }
    return t[3][3];
  };
  EXPECT_NEAR(undamped_limit(Method::bulirsch_stoer).step, imaginary_axis_limit(extrapolated), 1e-6);
}

// Independent check of SB3A: on q'' = -q its kicks are exact, so one step is
// the product of the 2x2 drift and kick matrices; rho <= 1 iff |trace| <= 2.
TEST(UndampedLimit, McLachlanMatchesItsSplittingProduct) {
  const double a0 = 0.40518861839525227722, a1 = -0.28714404081652408900, a2 = 0.5 - (a0 + a1);
  const double b0 = -3.0 / 73.0, b1 = 17.0 / 59.0, b2 = 1.0 - 2.0 * (b0 + b1);
  const double a[6] = {a0, a1, a2, a2, a1, a0}, b[6] = {b0, b1, b2, b1, b0, 0.0};
  auto trace = [&](double h) {
    Eigen::Matrix2d g = Eigen::Matrix2d::Identity();
    for (int l = 0; l < 6; ++l) {
      Eigen::Matrix2d drift, kick;
      drift << 1, a[l] * h, 0, 1;
      kick << 1, 0, -b[l] * h, 1;
      g = kick * drift * g;
    }
    return g.trace();
  };
  double lo = 2.5, hi = 3.2;  // |trace| crosses 2 once in between
  ASSERT_LE(std::abs(trace(lo)), 2.0);
  ASSERT_GT(std::abs(trace(hi)), 2.0);
  for (int i = 0; i < 60; ++i) (std::abs(trace(0.5 * (lo + hi))) <= 2.0 ? lo : hi) = 0.5 * (lo + hi);
  EXPECT_NEAR(undamped_limit(Method::mclachlan_sb3a).step, lo, 1e-6);
}

// Damping lagged half a step (leapfrog): h omega < 2 (sqrt(1 + zeta^2) - zeta).
TEST(DampedLimit, CentralDifferenceLaggedDamping) {
  for (double zeta : {0.1, 0.5, 1.0})
    EXPECT_NEAR(limit(Method::central_difference, unit_oscillator(zeta)),
                2.0 * (std::sqrt(1.0 + zeta * zeta) - zeta), 1e-6)
        << "zeta " << zeta;
}

// Forward Euler with damping: |1 + h lambda| < 1 up to h omega = 2 zeta (zeta < 1).
TEST(DampedLimit, EulerWithDamping) {
  for (double zeta : {0.1, 0.5}) EXPECT_NEAR(limit(Method::euler, unit_oscillator(zeta)), 2.0 * zeta, 1e-5);
}

// dropsim's velocity Verlet takes the damping at the new speed (Newmark
// beta = 0, gamma = 1/2): the limit stays 2 whatever the damping.
TEST(DampedLimit, VelocityVerletKeepsTwo) {
  for (double zeta : {0.01, 0.1, 0.5}) EXPECT_NEAR(limit(Method::velocity_verlet, unit_oscillator(zeta)), 2.0, 1e-5);
}

// Confirms the limitation of Boost.Odeint's velocity_verlet: it evaluates
// a(q[n+1], v[n]), so damping lags a step and the limit falls to sqrt(2) as
// soon as there is any damping (lower still for larger damping). Its state carries the acceleration, so the
// map is taken on [q, v, a].
TEST(OdeintLimitation, VelocityVerletDampingLagsAStep) {
  namespace odeint = boost::numeric::odeint;
  auto odeint_limit = [](double zeta) {
    using V = Eigen::VectorXd;
    auto accel = [zeta](const V& q, const V& v, V& a, double) { a = -q - 2.0 * zeta * v; };
    odeint::velocity_verlet<V, V, double, V, double, double, odeint::vector_space_algebra> vv;
    return find_step_limit(
               [&](double h) {
                 const Eigen::MatrixXd g = amplification_matrix(
                     [&](Eigen::VectorXd& s) {
                       V q = s.segment(0, 1), v = s.segment(1, 1), a = s.segment(2, 1);
                       V q1 = q, v1 = v, a1 = a;
                       vv.do_step(accel, q, v, a, q1, v1, a1, 0.0, h);
                       s << q1, v1, a1;
                     },
                     3);
                 return std::log(spectral_radius(g)) <= default_growth_tolerance * h;
               },
               1.0, default_growth_tolerance)
        .step;
  };
  EXPECT_NEAR(odeint_limit(0.0), 2.0, 1e-5);
  // Any damping at all: the limit jumps to sqrt(2), and falls further as zeta grows.
  for (double zeta : {1e-4, 1e-3, 0.01}) EXPECT_NEAR(odeint_limit(zeta), std::sqrt(2.0), 0.02) << "zeta " << zeta;
  EXPECT_LT(odeint_limit(0.1), odeint_limit(0.01));
}

// docs/physics.md#coupled-contact-modes: bar on two supports, m 2 kg, I 0.005 kg m^2, a 0.1 m,
// k 1e5 N/m. Modes 316.2 and 632.5 rad/s; central difference must resolve the
// rocking mode: h < 2 / 632.5 = 3.162 ms.
TEST(ContactMatrices, BarOnTwoSupportsCentralDifference) {
  const double m = 2.0, inertia = 0.005, a = 0.1, k = 1e5;
  Eigen::MatrixXd mass = Eigen::Vector2d(m, inertia).asDiagonal();
  Eigen::MatrixXd jac(2, 2);
  jac << 1.0, -a, 1.0, a;  // gap rates on (y, theta)
  const Eigen::MatrixXd kc = Eigen::Vector2d(k, k).asDiagonal();
  const auto bar = LinearSystem::from_contacts(mass, jac, kc, Eigen::MatrixXd::Zero(2, 2));
  EXPECT_NEAR(bar.fastest_rate(), 632.4555, 1e-3);
  EXPECT_NEAR(limit(Method::central_difference, bar), 3.162e-3, 3.162e-6);
  EXPECT_NEAR(limit(Method::central_difference, bar), 2.0 / std::sqrt(4.0 * k), 1e-9);
}

}  // namespace
}  // namespace dropsim::integrators
