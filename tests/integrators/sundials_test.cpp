// The SUNDIALS methods behind dropsim's interface: tolerance, contact events,
// divergence and options (docs/integrators.md#sundials). Skipped, saying so,
// in a build without SUNDIALS.
#include "dropsim/integrators/sundials.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "dropsim/integrators/integrate.hpp"
#include "dropsim/integrators/stability.hpp"
#include "dropsim/integrators/stiffness.hpp"

namespace dropsim::integrators {
namespace {

constexpr Method sundials_methods[] = {Method::cvode_bdf, Method::cvode_adams, Method::arkode_erk, Method::arkode_dirk};

class Sundials : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!sundials_available()) GTEST_SKIP() << unavailable_message("cvode_bdf");
  }
};

const Eigen::MatrixXd one = Eigen::MatrixXd::Identity(1, 1);

Eigen::Vector2d damped_exact(double zeta, double t) {
  const double wd = std::sqrt(1.0 - zeta * zeta), decay = std::exp(-zeta * t);
  return {decay * (std::cos(wd * t) + zeta / wd * std::sin(wd * t)), -decay / wd * std::sin(wd * t)};
}

double damped_error(Method method, double rtol, IntegrationStats* stats = nullptr) {
  const double zeta = 0.1, duration = 10.0;
  const LinearSystem system(one, one, 2.0 * zeta * one);
  Eigen::VectorXd x = Eigen::Vector2d(1.0, 0.0);
  Settings settings;
  settings.method = method;
  settings.rtol = rtol;
  // atol = rtol, as dropsim's model-scaled atol on a unit-size model.
  const auto s = integrate(settings, system, x, {0.0, duration}, Eigen::VectorXd::Constant(2, rtol),
                           [](const Eigen::VectorXd&, double) { return true; });
  if (stats) *stats = s;
  return (x - damped_exact(zeta, duration)).cwiseAbs().maxCoeff();
}

// CVODE has no fixed step, so its order shows as error against tolerance: four
// decades tighter must buy at least two decades of error, and every
// tolerance must be met to within the WRMS norm's allowance (docs/integrators.md#sundials).
TEST_F(Sundials, ErrorFollowsTheTolerance) {
  for (const Method m : sundials_methods) {
    const double loose = damped_error(m, 1e-5), tight = damped_error(m, 1e-9);
    EXPECT_LT(loose, 1e-3) << info(m).name;
    EXPECT_LT(tight, 1e-7) << info(m).name;
    EXPECT_LT(tight, 1e-2 * loose) << info(m).name << ": " << loose << " -> " << tight;
  }
}

// CVODE's variable order: at a tight tolerance on a smooth problem BDF climbs to
// order 5 and Adams far above 5, and every step is counted once.
TEST_F(Sundials, CvodeClimbsInOrder) {
  IntegrationStats bdf, adams;
  damped_error(Method::cvode_bdf, 1e-10, &bdf);
  damped_error(Method::cvode_adams, 1e-10, &adams);
  long bdf_total = 0, adams_total = 0;
  for (long c : bdf.steps_by_order) bdf_total += c;
  for (long c : adams.steps_by_order) adams_total += c;
  EXPECT_EQ(bdf_total, bdf.steps);
  EXPECT_EQ(adams_total, adams.steps);
  EXPECT_GT(bdf.steps_by_order[5], bdf.steps / 2);
  for (std::size_t q = 6; q < bdf.steps_by_order.size(); ++q) EXPECT_EQ(bdf.steps_by_order[q], 0);
  long adams_above_5 = 0;
  for (std::size_t q = 6; q < adams.steps_by_order.size(); ++q) adams_above_5 += adams.steps_by_order[q];
  EXPECT_GT(adams_above_5, adams.steps / 2);
}

// Free fall onto a linear spring, q'' = -g + k max(0, -q): contact at
// t_c = sqrt(2 h / g), then q = -g/k + A cos(w (t - t_c)) + B sin(w (t - t_c)).
// The switch at q = 0 is a root SUNDIALS finds and the run restarts on.
struct SpringFloor {
  using Vector = Eigen::Vector2d;
  using Matrix = Eigen::Matrix2d;
  double g = 9.81, k = 1e4;
  int size() const { return 2; }
  int num_positions() const { return 1; }
  void operator()(const Vector& x, Vector& dxdt, double) const { dxdt = Vector(x[1], -g + k * std::max(0.0, -x[0])); }
  void position_rate(const Vector& x, Vector& dxdt) const { dxdt[0] = x[1]; }
  void jacobian(const Vector& x, double, Matrix& dfdx) const { dfdx << 0.0, 1.0, x[0] < 0.0 ? -k : 0.0, 0.0; }
  int num_switches() const { return 1; }
  void switches(const Vector& x, double* s) const { s[0] = x[0]; }
  void project(Vector&) const {}
};

TEST_F(Sundials, LandsOnContactOnset) {
  const SpringFloor floor;
  const double h = 0.1, t_c = std::sqrt(2.0 * h / floor.g), v_c = -floor.g * t_c, w = std::sqrt(floor.k);
  const double t_end = t_c + 0.01;  // inside the first contact (half a period is 0.031 s)
  const double a = floor.g / floor.k, b = v_c / w;
  const Eigen::Vector2d exact(-a + a * std::cos(w * 0.01) + b * std::sin(w * 0.01),
                              -a * w * std::sin(w * 0.01) + b * w * std::cos(w * 0.01));
  for (const Method m : sundials_methods) {
    Settings settings;
    settings.method = m;
    settings.rtol = 1e-10;
    Eigen::Vector2d x(h, 0.0);
    // atol: rtol times the scale of each component (the drop height, the impact speed).
    const auto stats = integrate(settings, floor, x, {0.0, t_end}, Eigen::Vector2d(1e-10 * h, 1e-10 * std::abs(v_c)),
                                 [](const Eigen::Vector2d&, double) { return true; });
    EXPECT_EQ(stats.status, Status::ok) << info(m).name << " " << stats.reason;
    EXPECT_EQ(stats.events, 1) << info(m).name;
    EXPECT_LT(std::abs(x[0] - exact[0]), 1e-8) << info(m).name;
    EXPECT_LT(std::abs(x[1] - exact[1]) / std::abs(v_c), 1e-6) << info(m).name;  // arkode_dirk: 1.5e-7
  }
}

// q' = q^2 from q = 1 blows up at t = 1: every method says diverged, with
// the library's reason, and hands the observer no non-finite state.
struct BlowUp {
  using Vector = Eigen::Matrix<double, 1, 1>;
  using Matrix = Eigen::Matrix<double, 1, 1>;
  int size() const { return 1; }
  int num_positions() const { return 1; }
  void operator()(const Vector& x, Vector& dxdt, double) const { dxdt[0] = x[0] * x[0]; }
  void position_rate(const Vector& x, Vector& dxdt) const { dxdt[0] = x[0] * x[0]; }
  void jacobian(const Vector& x, double, Matrix& dfdx) const { dfdx(0, 0) = 2.0 * x[0]; }
  int num_switches() const { return 0; }
  void switches(const Vector&, double*) const {}
  void project(Vector&) const {}
};

TEST_F(Sundials, BlowUpReportedAsDiverged) {
  for (const Method m : sundials_methods) {
    Settings settings;
    settings.method = m;
    settings.rtol = 1e-6;
    BlowUp::Vector x;
    x[0] = 1.0;
    bool all_finite = true;
    const auto stats = integrate(settings, BlowUp{}, x, output_grid(0.0, 2.0, 0.01), BlowUp::Vector::Constant(1e-9),
                                 [&](const BlowUp::Vector& s, double) {
                                   all_finite = all_finite && std::isfinite(s[0]);
                                   return true;
                                 });
    EXPECT_EQ(stats.status, Status::diverged) << info(m).name;
    EXPECT_FALSE(stats.reason.empty()) << info(m).name;
    EXPECT_GT(stats.end_time, 0.9) << info(m).name;
    EXPECT_LT(stats.end_time, 1.0 + 1e-6) << info(m).name;
    EXPECT_TRUE(all_finite) << info(m).name;
  }
}

// ARKODE's tables by name: Dormand-Prince is 5th order at a fixed step, and a
// run with it differs from the default 4th-order table.
TEST_F(Sundials, ButcherTableByName) {
  const ButcherTable dp = find_butcher_table(Method::arkode_erk, "ARKODE_DORMAND_PRINCE_7_4_5").value();
  ASSERT_GE(dp.id, 0);
  EXPECT_EQ(dp.order, 5);
  EXPECT_EQ(dp.stages, 7);
  EXPECT_FALSE(find_butcher_table(Method::arkode_erk, "ARKODE_SDIRK_5_3_4")) << "an implicit table is not explicit";
  EXPECT_EQ(default_butcher_table(Method::arkode_dirk).name, "ARKODE_SDIRK_5_3_4");
  const double zeta = 0.1, duration = 4.0;
  const LinearSystem system(one, one, 2.0 * zeta * one);
  auto error = [&](long n) {
    Settings settings;
    settings.method = Method::arkode_erk;
    settings.fixed = true;
    settings.step = duration / static_cast<double>(n);
    settings.sundials.butcher_table = dp.id;
    Eigen::VectorXd x = Eigen::Vector2d(1.0, 0.0);
    integrate(settings, system, x, {0.0, duration}, Eigen::VectorXd::Ones(2),
              [](const Eigen::VectorXd&, double) { return true; });
    return (x - damped_exact(zeta, duration)).cwiseAbs().maxCoeff();
  };
  EXPECT_NEAR(std::log2(error(40) / error(80)), 5.0, 0.2);
}

// ARKODE's Dormand-Prince table is dropsim's dopri5: its stability function
// from ARKODE's coefficients must bound the same region as dropsim's dopri5
// stepper's amplification matrix (Boost.Odeint's coefficients), at every
// damping ratio of the stiffness attribution's table.
TEST_F(Sundials, ButcherTableBoundaryIsTheSteppersOwn) {
  const ButcherTable table = find_butcher_table(Method::arkode_erk, "ARKODE_DORMAND_PRINCE_7_4_5").value();
  ASSERT_EQ(table.stages, 7);
  const StabilityBoundary from_table = butcher_boundary(table);
  const StabilityBoundary from_stepper = one_step_boundary(Method::dopri5);
  for (int i = 0; i < StabilityBoundary::points; ++i) {
    const double zeta = static_cast<double>(i) / (StabilityBoundary::points - 1);
    // At zeta = 1 the stepper's amplification matrix is defective: its eigenvalues carry ~1e-8.
    EXPECT_NEAR(from_table.radius(zeta) / from_stepper.radius(zeta), 1.0, i + 1 < StabilityBoundary::points ? 1e-9 : 1e-6)
        << "zeta " << zeta;
  }
  // On the negative real axis: |R(x)| = 1 at x = -3.3066 for DOPRI5's
  // R(z) = 1 + z + ... + z^5/120 + z^6/600 (Hairer, Norsett and Wanner I, IV.2).
  EXPECT_NEAR(from_table.radius(1.0), 3.3066, 1e-3);
  // ARKODE's default DIRK (SDIRK 5-3-4) is L-stable.
  EXPECT_TRUE(butcher_boundary(default_butcher_table(Method::arkode_dirk)).unconditional());
}

}  // namespace
}  // namespace dropsim::integrators
