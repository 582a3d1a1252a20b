// Fixed-order BDF and Adams-Moulton stability (integrators/multistep_stability.hpp)
// against what does not come from the code under test: the coefficient tables
// of the textbooks, the boundary locus of those tables, and the recurrences
// themselves run in the time domain on an undamped oscillator.
#include "dropsim/integrators/multistep_stability.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <cstdio>
#include <complex>
#include <numbers>
#include <random>
#include <vector>

namespace dropsim::integrators {
namespace {

using cd = std::complex<double>;

// rho, oldest value first, with sigma = zeta^k (Hairer and Wanner II, Table V.1.1 scaled to sigma = zeta^k).
const std::vector<std::vector<double>> bdf_table = {
    {-1.0, 1.0},
    {0.5, -2.0, 1.5},
    {-1.0 / 3, 1.5, -3.0, 11.0 / 6},
    {0.25, -4.0 / 3, 3.0, -4.0, 25.0 / 12},
    {-0.2, 1.25, -10.0 / 3, 5.0, -5.0, 137.0 / 60},
};

// Adams-Moulton sigma, oldest first, with rho = zeta^k - zeta^(k-1) (Hairer, Norsett and Wanner I, III.1).
const std::vector<std::vector<double>> adams_moulton_table = {
    {0.0, 1.0},
    {0.5, 0.5},
    {-1.0 / 12, 8.0 / 12, 5.0 / 12},
    {1.0 / 24, -5.0 / 24, 19.0 / 24, 9.0 / 24},
    {-19.0 / 720, 106.0 / 720, -264.0 / 720, 646.0 / 720, 251.0 / 720},
};

cd evaluate(const std::vector<double>& ascending, cd zeta) {
  cd value = 0.0;
  for (std::size_t j = ascending.size(); j-- > 0;) value = value * zeta + ascending[j];
  return value;
}

TEST(MultistepCoefficients, MatchTheTextbookTables) {
  for (int q = 1; q <= 5; ++q) {
    const MultistepMethod m = bdf_method(q);
    const auto& row = bdf_table[static_cast<std::size_t>(q - 1)];
    ASSERT_EQ(m.rho.size(), static_cast<Eigen::Index>(row.size()));
    for (std::size_t j = 0; j < row.size(); ++j) EXPECT_NEAR(m.rho(static_cast<Eigen::Index>(j)), row[j], 1e-14) << m.name();
    EXPECT_EQ(m.sigma(q), 1.0);
    const MultistepMethod a = adams_moulton_method(q);
    const auto& s = adams_moulton_table[static_cast<std::size_t>(q - 1)];
    ASSERT_EQ(a.sigma.size(), static_cast<Eigen::Index>(s.size())) << a.name();
    for (std::size_t j = 0; j < s.size(); ++j) EXPECT_NEAR(a.sigma(static_cast<Eigen::Index>(j)), s[j], 1e-14) << a.name();
  }
  // Consistency of every order CVODE runs: rho(1) = 0, rho'(1) = sigma(1).
  for (const MultistepMethod& m : cvode_orders()) {
    double rho1 = 0.0, drho1 = 0.0, sigma1 = 0.0;
    for (Eigen::Index j = 0; j < m.rho.size(); ++j) {
      rho1 += m.rho(j);
      drho1 += static_cast<double>(j) * m.rho(j);
      sigma1 += m.sigma(j);
    }
    EXPECT_NEAR(rho1, 0.0, 1e-12) << m.name();
    EXPECT_NEAR(drho1, sigma1, 1e-12) << m.name();
  }
}

// The boundary locus of a table, z(theta) = rho(e^i theta) / sigma(e^i theta):
// where it crosses the positive imaginary axis away from the origin.
double locus_crossing(const std::vector<double>& rho, const std::vector<double>& sigma) {
  auto z = [&](double theta) {
    const cd zeta = std::polar(1.0, theta);
    return evaluate(rho, zeta) / evaluate(sigma, zeta);
  };
  // Re z < 0 near the origin for BDF3-5 (not A-stable; the first terms, of order
  // theta^(p+1), vanish in rounding below 0.05): find where it turns positive.
  double lo = 0.05;
  while (z(lo).real() >= 0.0)
    if ((lo += 1e-3) > std::numbers::pi) return std::nan("");
  double hi = lo;
  while (z(hi).real() < 0.0) {
    lo = hi;
    if ((hi += 1e-3) > std::numbers::pi) return std::nan("");
  }
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (z(mid).real() < 0.0 ? lo : hi) = mid;
  }
  return z(0.5 * (lo + hi)).imag();
}

TEST(BdfStability, OrdersOneAndTwoUnconditionalThreeToFiveUnstableOnTheImaginaryAxisUpToTheLocus) {
  EXPECT_TRUE(undamped_multistep_stability(bdf_method(1)).unconditional());
  EXPECT_TRUE(undamped_multistep_stability(bdf_method(2)).unconditional());
  for (int q = 3; q <= 5; ++q) {
    // With (almost) no growth allowed the band ends at the locus: 1e-9 per radian
    // keeps rounding from flickering the verdict at small h omega. With the
    // default allowance it starts where the weak growth near the origin exceeds it.
    const MultistepStability s = undamped_multistep_stability(bdf_method(q), 1e-9);
    const MultistepStability allowed = undamped_multistep_stability(bdf_method(q));
    ASSERT_EQ(s.unstable.size(), 1u) << "BDF" << q;
    ASSERT_EQ(allowed.unstable.size(), 1u) << "BDF" << q;
    EXPECT_GT(allowed.unstable[0].from, 0.0) << "BDF" << q;
    std::vector<double> sigma(static_cast<std::size_t>(q) + 1, 0.0);
    sigma.back() = 1.0;
    const double crossing = locus_crossing(bdf_table[static_cast<std::size_t>(q - 1)], sigma);
    // Above the crossing BDF damps an undamped oscillation; below it BDF3 and BDF4 amplify it at every
    // h omega, BDF5 only from its first crossing (BdfStability.FifthOrderDampsBelow0711AndGrowsUpTo9392).
    EXPECT_TRUE(std::isfinite(s.unstable[0].to)) << "BDF" << q;
    EXPECT_NEAR(s.unstable[0].to / crossing, 1.0, 1e-7) << "BDF" << q << " locus crossing " << crossing;
    EXPECT_NEAR(allowed.unstable[0].to / crossing, 1.0, 1e-4) << "BDF" << q;
    std::printf("[measured] BDF%d on q'' = -q: unstable for h omega < %.9g (locus: %.9g); growth above 1e-6 per "
                "radian from %.4g\n",
                q, s.unstable[0].to, crossing, allowed.unstable[0].from);
  }
}

// The BDF recurrence itself on q'' = -q, x = [q, u]: (rho_k I - h A) x[n+k] = -sum_{j<k} rho_j x[n+j].
double bdf_energy_growth(int q, double h_omega, int steps) {
  const auto& rho = bdf_table[static_cast<std::size_t>(q - 1)];
  Eigen::Matrix2d a;
  a << 0.0, 1.0, -1.0, 0.0;
  const Eigen::Matrix2d lhs = rho.back() * Eigen::Matrix2d::Identity() - h_omega * a;
  const Eigen::PartialPivLU<Eigen::Matrix2d> solve(lhs);
  std::vector<Eigen::Vector2d> x;
  for (int j = 0; j < q; ++j) {  // exact start values
    const double t = j * h_omega;
    x.emplace_back(std::cos(t), -std::sin(t));
  }
  for (int n = 0; n < steps; ++n) {
    Eigen::Vector2d rhs = Eigen::Vector2d::Zero();
    for (int j = 0; j < q; ++j) rhs -= rho[static_cast<std::size_t>(j)] * x[x.size() - q + j];
    x.push_back(solve.solve(rhs));
    if (x.back().squaredNorm() > 1e6) break;  // grown beyond doubt
  }
  return x.back().squaredNorm();  // energy, 1 at the start
}

TEST(BdfStability, TheRecurrenceGrowsInsideTheBandAndDecaysAboveIt) {
  for (int q = 3; q <= 5; ++q) {
    const MultistepStability s = undamped_multistep_stability(bdf_method(q));
    const double inside = std::sqrt(s.unstable[0].from * s.unstable[0].to), above = 1.5 * s.unstable[0].to;
    EXPECT_GT(bdf_energy_growth(q, inside, 4000), 1.5) << "BDF" << q << " at h omega " << inside;
    EXPECT_LT(bdf_energy_growth(q, above, 4000), 0.5) << "BDF" << q << " at h omega " << above;
  }
}

// Every h omega in (0.05, pi) where the boundary locus of a BDF table crosses the imaginary axis.
std::vector<double> bdf_locus_crossings(int q) {
  const auto& rho = bdf_table[static_cast<std::size_t>(q - 1)];
  std::vector<double> sigma(static_cast<std::size_t>(q) + 1, 0.0);
  sigma.back() = 1.0;
  auto z = [&](double theta) {
    const cd zeta = std::polar(1.0, theta);
    return evaluate(rho, zeta) / evaluate(sigma, zeta);
  };
  std::vector<double> crossings;
  for (double theta = 0.05; theta + 1e-3 < std::numbers::pi; theta += 1e-3) {
    double lo = theta, hi = theta + 1e-3;
    if ((z(lo).real() < 0.0) == (z(hi).real() < 0.0)) continue;
    const bool lo_negative = z(lo).real() < 0.0;
    for (int i = 0; i < 200; ++i) {
      const double mid = 0.5 * (lo + hi);
      ((z(mid).real() < 0.0) == lo_negative ? lo : hi) = mid;
    }
    crossings.push_back(z(0.5 * (lo + hi)).imag());
  }
  return crossings;
}

// docs/physics.md#multistep-methods: unlike BDF3 and BDF4, BDF5 damps an undamped oscillation at small
// h omega. Its locus (from the textbook table, not the code under test) crosses the imaginary axis twice,
// at h omega = 0.711 and 9.392; the largest root of the code's characteristic polynomial is inside the
// unit circle below the first, outside between them and inside again above the second, and the
// recurrence run in the time domain decays, grows and decays there.
TEST(BdfStability, FifthOrderDampsBelow0711AndGrowsUpTo9392) {
  const std::vector<double> crossings = bdf_locus_crossings(5);
  ASSERT_EQ(crossings.size(), 2u);
  EXPECT_NEAR(crossings[0], 0.711, 5e-4);
  EXPECT_NEAR(crossings[1], 9.392, 5e-4);
  for (int q = 3; q <= 4; ++q) EXPECT_EQ(bdf_locus_crossings(q).size(), 1u) << "BDF" << q;  // grow from 0
  const MultistepMethod bdf5 = bdf_method(5);
  for (double h_omega : {0.1, 0.3, 0.5, 0.7, 9.5, 20.0})
    EXPECT_LT(largest_root(bdf5, cd(0.0, h_omega)), 1.0) << "damped at h omega " << h_omega;
  for (double h_omega : {0.72, 1.0, 2.0, 5.0, 9.3})
    EXPECT_GT(largest_root(bdf5, cd(0.0, h_omega)), 1.0) << "growing at h omega " << h_omega;
  // How weak near the origin, and how strong inside the band (the numbers docs/physics.md quotes).
  EXPECT_NEAR(std::log(largest_root(bdf5, cd(0.0, 0.1))), -1.6e-7, 0.05e-7);
  EXPECT_NEAR(std::log(largest_root(bdf_method(3), cd(0.0, 0.01))), 2.5e-9, 0.05e-9);
  double fastest = 0.0, fastest_at = 0.0;
  for (double h_omega = 0.8; h_omega < 9.3; h_omega += 1e-3)
    if (const double g = std::log(largest_root(bdf5, cd(0.0, h_omega))); g > fastest) fastest = g, fastest_at = h_omega;
  EXPECT_NEAR(fastest, 0.32, 0.005);
  EXPECT_NEAR(fastest_at, 2.38, 0.01);
  EXPECT_LT(bdf_energy_growth(5, 0.5, 4000), 1.0);
  EXPECT_GT(bdf_energy_growth(5, 2.0, 4000), 1.5);
  // The project's band search, with (almost) no growth allowed, finds the same band.
  const MultistepStability s = undamped_multistep_stability(bdf5, 1e-9);
  ASSERT_EQ(s.unstable.size(), 1u);
  EXPECT_NEAR(s.unstable[0].from / crossings[0], 1.0, 1e-6);
  EXPECT_NEAR(s.unstable[0].to / crossings[1], 1.0, 1e-6);
  std::printf("[measured] BDF5 on q'' = -q: damped below h omega %.6g, growing on (%.6g, %.6g)\n", crossings[0],
              s.unstable[0].from, s.unstable[0].to);
}

TEST(AdamsStability, BackwardEulerAndTrapezoidUnconditionalHigherOrdersBounded) {
  EXPECT_TRUE(undamped_multistep_stability(adams_moulton_method(1)).unconditional());
  EXPECT_TRUE(undamped_multistep_stability(adams_moulton_method(2)).unconditional());
  for (int q = 3; q <= 12; ++q) {
    const MultistepStability s = undamped_multistep_stability(adams_moulton_method(q));
    ASSERT_FALSE(s.unconditional()) << "Adams" << q;
    // Bounded stability regions: unstable at every large step.
    EXPECT_TRUE(std::isinf(s.unstable.back().to)) << "Adams" << q;
    EXPECT_GT(s.limit(), 0.0) << "Adams" << q;
  }
}

// Damping moves the modes off the imaginary axis: BDF3 is A(alpha)-stable with
// alpha = 86.03 degrees, so a mode with damping ratio above cos(86.03 deg) = 0.069
// is stable at every step, and one below it is not.
TEST(BdfStability, DampingRatioAboveTheWedgeIsStableAtEveryStep) {
  auto modes = [](double zeta) {
    Eigen::VectorXcd l(2);
    l << cd(-zeta, std::sqrt(1 - zeta * zeta)), cd(-zeta, -std::sqrt(1 - zeta * zeta));
    return l;
  };
  EXPECT_TRUE(multistep_stability(bdf_method(3), modes(0.08), 0.0).unconditional());
  EXPECT_FALSE(multistep_stability(bdf_method(3), modes(0.06), 0.0).unconditional());
}

// The Schur-Cohn test the stiffness attribution tabulates with agrees with
// the companion matrix's eigenvalues, for every CVODE order, over the region
// where the boundaries lie.
TEST(MultistepStability, SchurCohnAgreesWithTheCompanionEigenvalues) {
  std::mt19937 random(5);
  std::uniform_real_distribution<double> re(-12.0, 3.0), im(-8.0, 8.0);
  int agreed = 0, unstable = 0;
  for (const MultistepMethod& m : cvode_orders())
    for (int i = 0; i < 400; ++i) {
      const cd z(re(random), im(random));
      const double largest = largest_root(m, z);
      if (std::abs(largest - 1.0) < 1e-9) continue;  // on the circle: either verdict is round-off
      const bool inside = largest < 1.0;
      EXPECT_EQ(roots_inside(m, z, 1.0), inside) << m.name() << " at " << z;
      agreed += roots_inside(m, z, 1.0) == inside;
      unstable += !inside;
    }
  EXPECT_GT(unstable, 1000);  // both verdicts are exercised
  EXPECT_GT(agreed, 6000);
}

}  // namespace
}  // namespace dropsim::integrators
