// Tests of sim/modes.* and sim/modes_verify.*: docs/physics.md#effective-mass, #coupled-contact-modes numbers and the notes' check.
#include "dropsim/sim/modes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numbers>

#include "dropsim/io/scenario.hpp"
#include "dropsim/sim/equilibrium.hpp"
#include "dropsim/sim/modes_verify.hpp"

namespace dropsim {
namespace {

std::string scenario_path(const std::string& name) { return std::string(DROPSIM_SOURCE_DIR) + "/scenarios/modes/" + name; }

// The analysis `dropsim modes` makes: at equilibrium or at the given state per modes_at.
ModesAnalysis analyse(const std::string& file) {
  const io::Scenario s = io::load_scenario(scenario_path(file));
  const MultibodyModel& m = *s.multibody();
  Eigen::VectorXd x = m.initial_state();
  if (s.modes_at == "equilibrium") x = static_equilibrium(m, x).x;
  return analyse_modes(m, x);
}

// docs/physics.md#coupled-contact-modes worked case: A = [[2.5, -1.5], [-1.5, 2.5]] /kg, eigenvalues 1 and 4 /kg,
// omega 316.2 (bounce) and 632.5 (rocking); each contact alone: 500 rad/s.
TEST(Modes, BarOnTwoSupports) {
  const ModesAnalysis a = analyse("bar_two_supports.json");
  ASSERT_EQ(a.A.rows(), 2);
  EXPECT_NEAR(a.A(0, 0), 2.5, 1e-9);
  EXPECT_NEAR(a.A(1, 1), 2.5, 1e-9);
  EXPECT_NEAR(a.A(0, 1), -1.5, 1e-9);
  EXPECT_NEAR(a.A(1, 0), -1.5, 1e-9);
  const Eigen::Vector2d eigen_a = Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d>(Eigen::Matrix2d(a.A)).eigenvalues();
  EXPECT_NEAR(eigen_a[0], 1.0, 1e-9);
  EXPECT_NEAR(eigen_a[1], 4.0, 1e-9);
  ASSERT_EQ(a.modes.size(), 2u);
  EXPECT_NEAR(a.modes[0].omega, 316.2, 0.05);
  EXPECT_NEAR(a.modes[1].omega, 632.5, 0.05);
  // Bounce: equal gaps; rocking: opposite gaps.
  EXPECT_NEAR(a.modes[0].gap_shape[0], a.modes[0].gap_shape[1], 1e-9);
  EXPECT_NEAR(a.modes[1].gap_shape[0], -a.modes[1].gap_shape[1], 1e-9);
  for (const auto& c : a.contacts) EXPECT_NEAR(c.omega_single, 500.0, 0.05);
  EXPECT_EQ(a.redundant, 0);
  EXPECT_NEAR(a.step_20, 2 * std::numbers::pi / 632.456 / 20, 1e-7);
}

// docs/physics.md#effective-mass: m_eff = 1 / (1/m + r^2/I).
TEST(Modes, EffectiveMasses) {
  const ModesAnalysis off = analyse("off_centre_contact.json");
  ASSERT_EQ(off.contacts.size(), 1u);
  EXPECT_NEAR(off.contacts[0].effective_mass, 1.0, 1e-9);
  EXPECT_NEAR(off.contacts[0].omega_single, 316.2, 0.05);
  EXPECT_NEAR(off.modes.at(0).omega, 316.2, 0.05);

  const ModesAnalysis centre = analyse("centred_contact.json");
  EXPECT_NEAR(centre.contacts.at(0).effective_mass, 2.0, 1e-9);
  EXPECT_NEAR(centre.contacts[0].omega_single, 223.6, 0.05);

  EXPECT_NEAR(analyse("two_particles.json").contacts.at(0).effective_mass, 1.0, 1e-9);
  EXPECT_NEAR(analyse("particle_on_wall.json").contacts.at(0).effective_mass, 2.0, 1e-9);
}

// docs/physics.md#effective-mass budget: k 1e6 N/m, 0.5 kg.
TEST(Modes, TimeScaleBudget) {
  const ModesAnalysis a = analyse("budget.json");
  EXPECT_NEAR(a.omega_max, 1414.2, 0.05);
  EXPECT_NEAR(a.t_c, 0.7071e-3, 0.00005e-3);
  EXPECT_NEAR(a.period, 4.443e-3, 0.0005e-3);
  EXPECT_NEAR(a.step_20, 0.2221e-3, 0.00005e-3);
}

// Three supports on a planar body: three gaps, two stiff motions (y, angle):
// one zero eigenvalue is a redundant gap coordinate, and sliding is free.
TEST(Modes, ThreeContactsOnAPlanarBody) {
  const io::Scenario s = io::parse_scenario(R"({"name": "three", "duration": 0.1,
    "bodies": [{"name": "bar", "joint": "planar", "mass": 2.0, "inertia": 0.005, "position": [0, 0.01]}],
    "contacts": [
      {"type": "sphere_plane", "body": "bar", "at": [-0.1, 0], "radius": 0, "law": "linear", "stiffness": 1e5},
      {"type": "sphere_plane", "body": "bar", "at": [0.02, 0], "radius": 0, "law": "linear", "stiffness": 2e5},
      {"type": "sphere_plane", "body": "bar", "at": [0.1, 0], "radius": 0, "law": "linear", "stiffness": 1e5}]})",
                                            "three.json");
  const MultibodyModel& m = *s.multibody();
  const ModesAnalysis a = analyse_modes(m, static_equilibrium(m, m.initial_state()).x);
  EXPECT_EQ(a.contacts.size(), 3u);
  EXPECT_EQ(a.redundant, 1);
  EXPECT_EQ(a.modes.size(), 2u);
  ASSERT_EQ(a.free_motions.cols(), 1);
  EXPECT_NEAR(std::abs(a.free_motions(0, 0)), 1.0, 1e-12);  // bar.x
  EXPECT_NEAR(a.free_motions(1, 0), 0.0, 1e-12);
  EXPECT_NEAR(a.free_motions(2, 0), 0.0, 1e-12);
}

// A single Hunt–Crossley contact is a damped 1-DOF oscillator: k = n 1.5 Fe/x,
// c = n 1.5 alpha Fe docs/physics.md#hunt-crossley, zeta = c / (2 sqrt(k m)), omega_d = omega sqrt(1 - zeta^2).
TEST(Modes, HuntCrossleyDampingRatio) {
  const io::Scenario s = io::parse_scenario(R"({"name": "hc", "duration": 0.1,
    "bodies": [{"name": "b", "joint": "vertical", "mass": 62, "position": [0, 0.04]}],
    "contacts": [{"type": "sphere_plane", "body": "b", "at": [0, 0], "radius": 0.032, "count": 6,
                  "law": "hunt_crossley", "stiffness": 1e6, "combining": "none", "dissipation": 2.0}]})",
                                            "hc.json");
  const MultibodyModel& m = *s.multibody();
  const ModesAnalysis a = analyse_modes(m, static_equilibrium(m, m.initial_state()).x);
  const double weight = 62 * m.gravity, x = a.contacts.at(0).indentation;
  const double k = 1.5 * weight / x, c = 1.5 * 2.0 * weight;
  const double omega = std::sqrt(k / 62), zeta = c / (2 * std::sqrt(k * 62));
  ASSERT_EQ(a.modes.size(), 1u);
  EXPECT_NEAR(a.modes[0].omega, omega, 1e-9 * omega);
  EXPECT_NEAR(a.modes[0].damping_ratio, zeta, 1e-9);
  EXPECT_NEAR(a.modes[0].damped_omega, omega * std::sqrt(1 - zeta * zeta), 1e-6 * omega);
}

// The notes' check on the bar: measured within 0.5 %, converging as amplitude and step shrink.
TEST(ModesVerify, BarFrequenciesMatchPredictions) {
  const io::Scenario s = io::load_scenario(scenario_path("bar_two_supports.json"));
  const MultibodyModel& m = *s.multibody();
  const ModesAnalysis a = analyse_modes(m, static_equilibrium(m, m.initial_state()).x);
  const auto checks = verify_modes(m, a);
  ASSERT_EQ(checks.size(), 2u);
  for (const auto& c : checks) {
    ASSERT_EQ(c.runs.size(), 3u);
    for (const auto& r : c.runs) {
      EXPECT_LT(std::abs(r.relative_error), 0.005) << "mode " << c.mode;
      EXPECT_FALSE(r.contact_opened);
    }
    EXPECT_LE(std::abs(c.runs.back().relative_error), std::abs(c.runs.front().relative_error) + 1e-9);
  }
}

// Supports a height h below the centre of mass: frozen geometry keeps the
// rocking stiffness 2 k a^2; the full tangent subtracts the load stiffness
// m g h (the contact forces' arms grow as the bar tilts):
// omega^2 = (2 k a^2 - m g h) / I.
TEST(Modes, LoadStiffnessOfSupportsBelowTheCentre) {
  const double h = 0.5;
  const io::Scenario s = io::parse_scenario(R"({"name": "high", "duration": 0.1,
    "bodies": [{"name": "bar", "joint": "planar", "mass": 2.0, "inertia": 0.005, "position": [0, 0.501]}],
    "contacts": [
      {"type": "sphere_plane", "body": "bar", "at": [-0.1, -0.5], "radius": 0, "law": "linear", "stiffness": 1e5},
      {"type": "sphere_plane", "body": "bar", "at": [0.1, -0.5], "radius": 0, "law": "linear", "stiffness": 1e5}]})",
                                            "high.json");
  const MultibodyModel& m = *s.multibody();
  const ModesAnalysis a = analyse_modes(m, static_equilibrium(m, m.initial_state()).x);
  ASSERT_EQ(a.modes.size(), 2u);
  ASSERT_EQ(a.loaded_modes.size(), 2u);
  const double frozen = std::sqrt(2 * 1e5 * 0.01 / 0.005);
  const double loaded = std::sqrt((2 * 1e5 * 0.01 - 2 * m.gravity * h) / 0.005);
  EXPECT_NEAR(a.modes[1].omega, frozen, 1e-9 * frozen);
  EXPECT_NEAR(a.loaded_modes[1].omega, loaded, 1e-6 * loaded);
  EXPECT_NEAR(a.loaded_modes[0].omega, a.modes[0].omega, 1e-6 * a.modes[0].omega);  // bounce unchanged
  EXPECT_EQ(a.unstable_loaded, 0);
}

// The quadruped rocks on a narrow diagonal support, weight 0.5 m above the feet:
// simulation must match the full linearisation (frozen geometry misses the rocking by ~30 %).
TEST(ModesVerify, QuadrupedMatchesTheFullLinearisation) {
  const io::Scenario s = io::load_scenario(scenario_path("quadruped_two_limbs.json"));
  const MultibodyModel& m = *s.multibody();
  const ModesAnalysis a = analyse_modes(m, static_equilibrium(m, m.initial_state()).x);
  VerifySettings quick;
  quick.levels = 2;
  const auto checks = verify_modes(m, a, quick);
  ASSERT_EQ(checks.size(), 3u);
  for (const auto& c : checks)
    for (const auto& r : c.runs) EXPECT_LT(std::abs(r.relative_error), 0.005) << "mode " << c.mode;
  EXPECT_LT(a.loaded_modes[0].omega, 0.8 * a.modes[0].omega);
}

// The box of scenarios/modes/box_friction_rest.json with transition velocity
// v_t: linear springs k at spheres of radius R, centres h below the centre of
// mass, at x = +-a, z = +-b.
ModesAnalysis resting_box(double transition_velocity) {
  const std::string vt = nlohmann::json(transition_velocity).dump();
  std::string contacts;
  for (const char* x : {"-0.05", "0.05"})
    for (const char* z : {"-0.04", "0.04"})
      contacts += std::string(contacts.empty() ? "" : ",") + R"({"type": "sphere_plane", "body": "box", "at": [)" + x +
                  ", -0.02, " + z + R"(], "radius": 0.01, "law": "linear", "stiffness": 1e4,
                   "static_friction": 0.8, "dynamic_friction": 0.8, "transition_velocity": )" + vt + "}";
  const io::Scenario s = io::parse_scenario(R"({"name": "box", "duration": 0.1,
    "bodies": [{"name": "box", "joint": "free", "mass": 2.0, "inertia": [0.004, 0.006, 0.004], "position": [0, 0.0295, 0]}],
    "contacts": [)" + contacts + "]}",
                                            "box.json");
  const MultibodyModel& m = *s.multibody();
  return analyse_modes(m, static_equilibrium(m, m.initial_state()).x);
}

// Friction's damping per contact, F_n (2 mu_s - mu_d) / v_t, pins the contact
// points as v_t -> 0: the box then pitches about its contact line x = +-a.
// Springs 4 k a^2 less the load stiffness m g h (sphere centres h below the
// centre of mass, docs/physics.md#load-stiffness) over the inertia about the
// contact points, at depth h + R - delta/2 (the slip is taken midway through
// the overlap delta = m g / 4 k): omega^2 = (4 k a^2 - m g h) / (I_z + m d^2).
// Rolling about z = +-b likewise with b and I_x.
TEST(FrictionModes, LargeFrictionPinsTheContactPoints) {
  const double m = 2.0, k = 1e4, h = 0.02, radius = 0.01, g = 9.80665;
  const double delta = m * g / (4 * k), depth = h + radius - 0.5 * delta;
  const double pinned_pitch = std::sqrt((4 * k * 0.05 * 0.05 - m * g * h) / (0.004 + m * depth * depth));
  const double pinned_roll = std::sqrt((4 * k * 0.04 * 0.04 - m * g * h) / (0.004 + m * depth * depth));
  const double free_pitch = std::sqrt((4 * k * 0.05 * 0.05 - m * g * h) / 0.004);  // about the centre

  const ModesAnalysis pinned = resting_box(1e-7);
  auto nearest = [](const std::vector<Mode>& modes, double omega) {
    return *std::min_element(modes.begin(), modes.end(), [&](const Mode& p, const Mode& q) {
      return std::abs(p.damped_omega - omega) < std::abs(q.damped_omega - omega);
    });
  };
  const Mode pitch = nearest(pinned.friction_modes, pinned_pitch), roll = nearest(pinned.friction_modes, pinned_roll);
  EXPECT_NEAR(pitch.damped_omega, pinned_pitch, 1e-4 * pinned_pitch);
  EXPECT_NEAR(roll.damped_omega, pinned_roll, 1e-4 * pinned_roll);
  EXPECT_LT(pitch.damping_ratio, 1e-3);  // a pinned point does not slip: the dampers do no work

  // Without friction the box turns about its centre (the loaded modes).
  EXPECT_TRUE(std::any_of(pinned.loaded_modes.begin(), pinned.loaded_modes.end(),
                          [&](const Mode& l) { return std::abs(l.omega - free_pitch) < 1e-4 * free_pitch; }));
  // At v_t = 1 cm/s friction damps the pitch but nearly pins it: between the two.
  const ModesAnalysis scenario = resting_box(0.01);
  const Mode partly = nearest(scenario.friction_modes, pinned_pitch);
  std::printf("[measured] box pitch: frictionless %.6g, v_t 1 cm/s %.6g (zeta %.3g), pinned %.6g rad/s\n", free_pitch,
              partly.damped_omega, partly.damping_ratio, pinned_pitch);
  EXPECT_GT(partly.damped_omega, 0.98 * pinned_pitch);
  EXPECT_LT(partly.damped_omega, 0.5 * (pinned_pitch + free_pitch));
  EXPECT_GT(partly.damping_ratio, 0.0);
}

// `dropsim modes --verify`'s check on that box: every friction mode measured
// within 0.5 % of its damped frequency, or too damped to count.
TEST(ModesVerify, FrictionModesOfTheRestingBox) {
  const io::Scenario s = io::load_scenario(scenario_path("box_friction_rest.json"));
  const MultibodyModel& m = *s.multibody();
  const ModesAnalysis a = analyse_modes(m, static_equilibrium(m, m.initial_state()).x);
  ASSERT_FALSE(a.friction_modes.empty());
  VerifySettings quick;
  quick.levels = 2;
  int measured = 0;
  for (const auto& c : verify_modes(m, a, quick)) {
    if (c.too_damped) {
      EXPECT_TRUE(c.runs.empty());
      continue;
    }
    ++measured;
    EXPECT_NEAR(c.predicted, a.friction_modes[static_cast<std::size_t>(c.mode)].damped_omega, 1e-12 * c.predicted);
    EXPECT_LT(std::abs(c.runs.back().relative_error), 0.005) << "mode " << c.mode;
  }
  EXPECT_GE(measured, 3);  // bounce, pitch, roll
}

// Frequency measurement on a known signal.
TEST(ModesVerify, ZeroCrossingFrequencyOfASine) {
  std::vector<double> t, s;
  for (int k = 0; k < 2000; ++k) {
    t.push_back(k * 1e-4);
    s.push_back(std::cos(123.4 * t.back() + 0.3));
  }
  EXPECT_NEAR(zero_crossing_frequency(t, s), 123.4, 1e-4);
}

}  // namespace
}  // namespace dropsim
