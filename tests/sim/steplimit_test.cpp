// Predicted against measured step limits of the paper drops (sim/steplimit.cpp), and divergence as a result.
#include "dropsim/sim/steplimit.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <cstdio>
#include <string>
#include <utility>
#include <limits>

#include "dropsim/io/scenario.hpp"
#include "dropsim/sim/equilibrium.hpp"
#include "dropsim/sim/linearization.hpp"
#include "dropsim/sim/multibody_simulate.hpp"
#include "dropsim/integrators/stiffness.hpp"
#include <Eigen/Eigenvalues>

namespace dropsim {
namespace {

using integrators::Method;

std::vector<std::string> paper_files() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(std::string(DROPSIM_SOURCE_DIR) + "/scenarios/paper"))
    if (e.path().extension() == ".json") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// The drop's mode where its limits are predicted, against the Hertz stiffness
// computed here: k = n 1.5 Fe / x at equilibrium (n Fe = m g), omega^2 = k / m,
// and a Hertz contact stiffens with depth, so the peak's omega is higher.
TEST(DropModes, OmegaFromTheHertzStiffnessAtEquilibriumAndHigherAtThePeak) {
  const auto s = io::load_scenario(std::string(DROPSIM_SOURCE_DIR) + "/scenarios/paper/human62_alpha-unscaled.json");
  const DropModel& m = s.drop();
  const DropModes modes = drop_modes(m, s.run);
  const double x = modes.equilibrium.indentation;
  EXPECT_NEAR(hertz_force(m.law.effective_modulus, m.law.radius, x) * m.spheres, m.mass * m.gravity,
              1e-9 * m.mass * m.gravity);
  const double k = m.spheres * 1.5 * (m.mass * m.gravity / m.spheres) / x;
  EXPECT_NEAR(modes.equilibrium.omega, std::sqrt(k / m.mass), 1e-6 * std::sqrt(k / m.mass));
  EXPECT_GT(modes.equilibrium.damping_ratio, 0.0);  // Hunt-Crossley damps
  EXPECT_GT(modes.peak.indentation, x);
  EXPECT_GT(modes.peak.omega, modes.equilibrium.omega);
}

// A measured limit counts as between the two predictions within 2 % of either end, and never where a
// prediction is unconditional.
TEST(StepLimitReport, BetweenPredictionsWithinTwoPerCent) {
  StepLimitReport r;
  r.predicted_step = 1e-3;
  r.predicted_step_peak = 2e-3;
  for (const auto& [measured, between] : {std::pair{1.5e-3, true}, std::pair{0.985e-3, true}, std::pair{0.97e-3, false},
                                          std::pair{2.03e-3, true}, std::pair{2.05e-3, false}}) {
    r.measured_step = measured;
    EXPECT_EQ(r.between_predictions(), between) << measured;
  }
  r.predicted_step = std::numeric_limits<double>::infinity();
  r.measured_step = 1.5e-3;
  EXPECT_FALSE(r.between_predictions());
}

// Linearisation of one mode at equilibrium: n Fe = m g, K = n 1.5 Fe / x, C = n 1.5 alpha Fe (docs/physics.md#hertz-contact, #restitution, #coupled-contact-modes).
TEST(Linearize, HertzHuntCrossleyAtEquilibrium) {
  const auto s = io::load_scenario(std::string(DROPSIM_SOURCE_DIR) + "/scenarios/paper/human62_alpha-unscaled.json");
  const DropModel& m = s.drop();
  const double x = equilibrium_indentation(m);
  const double fe = m.mass * m.gravity / m.spheres;
  EXPECT_NEAR(hertz_force(m.law.effective_modulus, m.law.radius, x), fe, 1e-9 * fe);
  EXPECT_NEAR(x / m.law.radius, 0.353, 0.001);  // docs/physics.md#paper-drop-tests
  const auto a = linearize_at_rest(m, x).linear_system().matrix();
  EXPECT_NEAR(-a(1, 0) * m.mass / m.spheres, 13450.0, 50.0);  // 13.45 kN/m per sphere
  EXPECT_NEAR(-a(1, 0), m.spheres * 1.5 * fe / x / m.mass, 1e-9 * -a(1, 0));
  EXPECT_NEAR(-a(1, 1), m.spheres * 1.5 * m.law.dissipation * fe / m.mass, 1e-9 * -a(1, 1));
}

// Every paper drop: central difference's measured limit lies between the
// peak-indentation prediction (stiffest, smallest step) and the equilibrium one.
TEST(PaperDrops, CentralDifferenceMeasuredBetweenPredictions) {
  for (const auto& file : paper_files()) {
    const auto s = io::load_scenario(file);
    const double peak = peak_indentation(s.drop(), s.run);
    ASSERT_GT(peak, equilibrium_indentation(s.drop())) << file;
    const StepLimitReport r = drop_step_limit(s.drop(), s.run, Method::central_difference, peak);
    EXPECT_LT(r.predicted_step_peak, r.predicted_step) << file;
    EXPECT_GE(r.measured_step, 0.98 * r.predicted_step_peak) << file;
    EXPECT_LE(r.measured_step, 1.02 * r.predicted_step) << file;
  }
}

// The two measured limits kept apart (docs/physics.md#measured-step-limit).
// Linear regime, every paper drop and every explicit method: within 2 % of
// the prediction, never below it, unless the prediction at the run's own
// tolerance says the growth beyond it is too slow for the run to see.
TEST(PaperDrops, LinearRegimeLimitIsThePrediction) {
  int within_two_percent = 0, unseen = 0, measured = 0;
  for (const auto& file : paper_files()) {
    const auto s = io::load_scenario(file);
    const double peak = peak_indentation(s.drop(), s.run);
    for (const auto& info : integrators::methods) {
      // ARKODE's explicit table too (its prediction from the table's stability function).
      if (!integrators::has_fixed_step_limit(info) || !integrators::available(info) || info.implicit) continue;
      const StepLimitReport r = drop_step_limit(s.drop(), s.run, info.method, peak);
      if (!(r.predicted_step > 0.0) || r.measured_linear_at_cap) continue;
      ++measured;
      const double ratio = r.linear_ratio();
      // Never below it, to the search's 0.1 % precision.
      EXPECT_GE(ratio, 0.999) << file << " " << info.name;
      if (ratio <= 1.02) ++within_two_percent;
      else if (r.linear_growth_unseen()) ++unseen;
      else ADD_FAILURE() << file << " " << info.name << ": linear limit " << ratio << " of the prediction";
    }
  }
  std::printf("[measured] linear-regime limit within 2 %% of the prediction: %d of %d; growth too slow to see: %d\n",
              within_two_percent, measured, unseen);
  EXPECT_GE(measured, 150);
  EXPECT_EQ(unseen, 0) << "no paper drop's growth beyond its limit is too slow to see (docs/physics.md)";
}

// Unconditionally stable methods are reported so and measured stable far beyond the explicit limits.
TEST(PaperDrops, ImplicitUnconditional) {
  const auto s = io::load_scenario(std::string(DROPSIM_SOURCE_DIR) + "/scenarios/paper/human62_alpha-scaled.json");
  const double peak = peak_indentation(s.drop(), s.run);
  const StepLimitReport cd = drop_step_limit(s.drop(), s.run, Method::central_difference, peak);
  const StepLimitReport nm = drop_step_limit(s.drop(), s.run, Method::newmark, peak);
  EXPECT_TRUE(std::isinf(nm.predicted_step));
  EXPECT_GT(nm.measured_step, 2.0 * cd.measured_step);
}

int run_dropsim(const std::string& args) {
  const int status = std::system((std::string(DROPSIM_BINARY) + " " + args + " >/dev/null 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// euler at four times its predicted limit on every paper drop: status
// diverged, exit 1, and the file holds only finite samples. (At 2-3 times, the
// low-damping mouse bounces wildly yet stays inside the energy bound
// |E0| + 10 M g L, so it is reported ok, though it never settles.) (Below its damped limit
// 2 zeta / omega euler is stable on these damped drops, so "any step above
// 1 us" cannot diverge; and `run --step` never steps past the output interval,
// so the scenario's output interval is set to the step.)
TEST(PaperDrops, EulerDivergesAsAResult) {
  const auto dir = std::filesystem::temp_directory_path() / "dropsim_steplimit_test";
  std::filesystem::create_directories(dir);
  std::string h5_files;
  for (const auto& file : paper_files()) {
    const auto s = io::load_scenario(file);
    const double step =
        4.0 * integrators::step_limit(Method::euler, linearize_at_rest(s.drop(), equilibrium_indentation(s.drop())).linear_system()).step;
    ASSERT_GT(step, 1e-6);
    nlohmann::json doc = nlohmann::json::parse(std::ifstream(file));
    doc["integrator"] = {{"name", "euler"}, {"step", step}};
    doc["output"] = {{"interval", step}};
    const std::string scenario = (dir / (s.name + ".json")).string();
    std::ofstream(scenario) << doc.dump();
    EXPECT_EQ(run_dropsim("run " + scenario + " -o " + dir.string()), 1) << file;
    h5_files += " " + (dir / (s.name + ".h5")).string();
  }
  // One interpreter for all files: every file says diverged and holds no NaN or inf.
  const std::string check =
      "/usr/bin/python3 -c \"import h5py, numpy, sys\n"
      "bad = [p for p in sys.argv[1:] for f in [h5py.File(p)] if f.attrs['status'] not in ('diverged', b'diverged') or "
      "not all(numpy.isfinite(f[k][()]).all() for k in ('time', 'force', 'force_normalized', 'q', 'u', 'indentation'))]\n"
      "print(bad); sys.exit(1 if bad else 0)\"" + h5_files;
  EXPECT_EQ(std::system(check.c_str()), 0);
  std::filesystem::remove_all(dir);
}

// Bar on two supports (docs/physics.md#coupled-contact-modes): rocking at 632.5 rad/s is the fastest
// mode, so central difference is stable up to 2 / 632.5 = 3.162 ms. Predicted
// from linearize() at static equilibrium (the measured limit is the next test).
TEST(StepLimit, BarOnTwoSupportsCentralDifferencePredicted) {
  const auto s = io::load_scenario(std::string(DROPSIM_SOURCE_DIR) + "/scenarios/modes/bar_two_supports.json");
  ASSERT_NE(s.multibody(), nullptr);
  const MultibodyModel& m = *s.multibody();
  const auto eq = static_equilibrium(m, m.initial_state());
  const Linearization lin = linearize(m, eq.x);
  ASSERT_EQ(lin.contacts.size(), 2u);
  const auto sys = lin.linear_system();
  const double omega_rock = std::sqrt(2.0 * 1e5 * 0.1 * 0.1 / 0.005);  // 2 k a^2 / I
  EXPECT_NEAR(omega_rock, 632.5, 0.1);
  const auto limit = integrators::step_limit(Method::central_difference, sys);
  EXPECT_NEAR(limit.step, 3.162e-3, 3.162e-6);  // within 0.1 %
  EXPECT_NEAR(limit.step, 2.0 / omega_rock, 1e-3 * 2.0 / omega_rock);
}

// The nonlinear bar, kicked from equilibrium in both modes: the largest
// central-difference step that stays bounded is the rocking mode's 2/omega.
TEST(StepLimit, BarOnTwoSupportsCentralDifferenceMeasured) {
  const auto s = io::load_scenario(std::string(DROPSIM_SOURCE_DIR) + "/scenarios/modes/bar_two_supports.json");
  const StepLimitReport r = multibody_step_limit(*s.multibody(), s.run, Method::central_difference);
  std::printf("[measured] bar, central difference: predicted %.6g s, measured %.6g s (ratio %.5f)\n",
              r.predicted_step, r.measured_step, r.ratio());
  EXPECT_NEAR(r.predicted_step, 3.162e-3, 3.162e-6);
  EXPECT_NEAR(r.measured_step, r.predicted_step, 0.01 * r.predicted_step);
  EXPECT_FALSE(r.measured_at_cap);
}


}  // namespace
}  // namespace dropsim

namespace dropsim {
namespace {

// A paper drop, which comes to rest within its 2 s. At a loose tolerance an
// explicit method's step is soon held by stability alone, hovering at the
// limit predicted at equilibrium; at a tight one resolving the impact and the
// ringing takes far more, smaller steps, held by accuracy. (Started exactly at
// rest, every tolerance ends stability-bound: there is nothing to resolve.)
// integrators/stiffness.hpp, docs/integrators.md#stiffness-attribution.
TEST(StiffnessAttribution, DropComingToRestStabilityBoundLooseAccuracyBoundTight) {
  const auto s = io::load_scenario(std::string(DROPSIM_SOURCE_DIR) + "/scenarios/paper/mouse_alpha-scaled.json");
  const DropModel& model = s.drop();
  const double x_eq = equilibrium_indentation(model);
  RunSettings run = s.run;
  ASSERT_EQ(run.duration, 2.0);
  run.record_samples = false;
  const auto linear = linearize_at_rest(model, x_eq).linear_system();
  for (const Method m : {Method::dopri5, Method::bulirsch_stoer, Method::rk_merson}) {
    const std::string name(integrators::info(m).name);
    const double predicted = integrators::step_limit(m, linear).step;
    run.integrator.method = m;
    run.integrator.rtol = 1e-3;
    const Trace loose = simulate(model, run);
    ASSERT_NE(loose.stats.status, integrators::Status::diverged) << name;
    const auto& st = loose.stats;
    EXPECT_GT(2 * st.stability_bound_steps, st.steps) << name << ": most steps stability-bound";
    const double mean_bound_step = st.stability_bound_time / static_cast<double>(st.stability_bound_steps);
    EXPECT_NEAR(mean_bound_step / predicted, 1.0, 0.2) << name << ": " << st.steps << " steps";
    std::printf("[measured] %s, mouse drop, rtol 1e-3: %ld of %ld steps stability-bound, their mean %.4g s against "
                "the predicted %.4g s\n",
                name.c_str(), st.stability_bound_steps, st.steps, mean_bound_step, predicted);
    run.integrator.rtol = 1e-10;
    const Trace tight = simulate(model, run);
    EXPECT_GT(tight.stats.steps, 2 * (tight.stats.stability_bound_steps + tight.stats.cap_bound_steps))
        << name << ": mostly accuracy-bound";
    std::printf("[measured] %s, mouse drop, rtol 1e-10: %ld of %ld steps stability-bound\n", name.c_str(),
                tight.stats.stability_bound_steps, tight.stats.steps);
  }
}

// cash_karp54 and fehlberg78 run with a step cap, a sixteenth of the contact
// period (docs/integrators.md#the-adaptive-driver), far below their stability
// limit: at a loose tolerance the cap, not stability, holds their steps.
TEST(StiffnessAttribution, CappedMethodsHeldByTheirCap) {
  const auto s = io::load_scenario(std::string(DROPSIM_SOURCE_DIR) + "/scenarios/paper/mouse_alpha-scaled.json");
  RunSettings run = s.run;
  run.record_samples = false;
  run.integrator.rtol = 1e-3;
  for (const Method m : {Method::cash_karp54, Method::fehlberg78}) {
    run.integrator.method = m;
    const Trace t = simulate(s.drop(), run);
    EXPECT_GT(2 * t.stats.cap_bound_steps, t.stats.steps) << integrators::info(m).name;
    EXPECT_EQ(t.stats.stability_bound_steps, 0) << integrators::info(m).name;
  }
}


// The attribution skips a Jacobian's eigenvalues where h * rho_bound < 0.5 r_min
// (integrators/stiffness.hpp). That never changes a verdict only if
// r_min / rho_bound <= the exact limit from the eigenvalues, for every
// Jacobian: checked along the box landing on its edge (free body, eight
// spheres, friction), and on random matrices, which also check rho <= bound.
TEST(StiffnessAttribution, SkippingTheEigenvaluesNeverChangesAVerdict) {
  const auto s = io::load_scenario(std::string(DROPSIM_SOURCE_DIR) + "/scenarios/friction/box_on_edge.json");
  const MultibodyModel& m = *s.multibody();
  const MultibodySystem system(m);
  const Trace t = simulate(m, s.run);
  const auto& boundary = integrators::stability_boundary(Method::dopri5);
  ASSERT_GT(boundary.smallest_radius(), 0.0);
  Eigen::MatrixXd j;
  integrators::SpectralRadiusBound<Eigen::MatrixXd> spectral_radius_bound;
  Eigen::VectorXd x(m.nq + m.nu);
  int in_contact = 0;
  double loosest = 1.0;
  for (std::size_t i = 0; i < t.samples(); i += 5) {
    x << Eigen::Map<const Eigen::VectorXd>(t.q.data() + i * t.nq, t.nq),
        Eigen::Map<const Eigen::VectorXd>(t.u.data() + i * t.nu, t.nu);
    system.jacobian(x, 0.0, j);
    const double bound = spectral_radius_bound(j, m.nq);
    const double rho = j.eigenvalues().cwiseAbs().maxCoeff();
    EXPECT_GE(bound, rho * (1.0 - 1e-12)) << "sample " << i;
    EXPECT_LE(boundary.smallest_radius() / bound, boundary.limit(j) * (1.0 + 1e-12)) << "sample " << i;
    if (t.force_normalized[i] > 0.0) {
      ++in_contact;
      loosest = std::max(loosest, bound / rho);
    }
  }
  EXPECT_GT(in_contact, 20);
  // Useful only if not much looser than rho where the contacts act (measured: 2.08).
  EXPECT_LT(loosest, 3.0);
  std::printf("[measured] box on edge: %d samples in contact, rho bound at most %.2f x rho\n", in_contact, loosest);

  std::srand(7);
  for (int trial = 0; trial < 200; ++trial) {
    const int nq = 1 + trial % 7, n = nq + 1 + trial % 6;
    Eigen::MatrixXd r = Eigen::MatrixXd::Random(n, n);
    r.bottomLeftCorner(n - nq, nq) *= std::pow(10.0, trial % 9);  // stiffness over mass
    const double bound = spectral_radius_bound(r, nq);
    EXPECT_GE(bound, r.eigenvalues().cwiseAbs().maxCoeff() * (1.0 - 1e-12)) << "trial " << trial;
  }
}

}  // namespace
}  // namespace dropsim
