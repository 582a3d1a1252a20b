// Tests of sim/equilibrium.*: analytic equilibria, force and moment balance, impossible equilibria.
#include "dropsim/sim/equilibrium.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "dropsim/io/scenario.hpp"
#include "dropsim/sim/linearization.hpp"

namespace dropsim {
namespace {

MultibodyModel model_from(const std::string& json) { return *io::parse_scenario(json, "test.json").multibody(); }

// A planar bar on linear supports at x = -a and +a; `angle` tilts the start.
std::string bar(double angle, const std::string& extra_contact = "") {
  return R"({"name": "bar", "duration": 0.1,
    "bodies": [{"name": "bar", "joint": "planar", "mass": 2.0, "inertia": 0.005, "position": [0.01, 0.05], "angle": )" +
         std::to_string(angle) + R"(}],
    "contacts": [
      {"type": "sphere_plane", "body": "bar", "at": [-0.1, 0.0], "radius": 0.0, "law": "linear", "stiffness": 1e5},
      {"type": "sphere_plane", "body": "bar", "at": [0.1, 0.0], "radius": 0.0, "law": "linear", "stiffness": 1e5})" +
         extra_contact + "]}";
}

// Level bar on two equal supports: each carries m g / 2, indentation m g / (2 k),
// found from a tilted start 5 cm up (the body falls, tips onto the second support, settles).
TEST(StaticEquilibrium, BarOnTwoSupportsFromATiltedStart) {
  const MultibodyModel m = model_from(bar(0.3));
  const Equilibrium eq = static_equilibrium(m, m.initial_state());
  const Linearization lin = linearize(m, eq.x);
  ASSERT_EQ(lin.contacts.size(), 2u);
  const double expected = 2.0 * m.gravity / (2.0 * 1e5);
  EXPECT_NEAR(lin.indentation[0], expected, 1e-12 * expected + 1e-16);
  EXPECT_NEAR(lin.indentation[1], expected, 1e-12 * expected + 1e-16);
  EXPECT_NEAR(eq.x[2], 0.0, 1e-12);  // level
  EXPECT_LT(eq.residual, 1e-10);
}

// Hertz docs/physics.md#hertz-contact: n (4/3) E* sqrt(R) x^1.5 = m g gives x in closed form.
TEST(StaticEquilibrium, HertzSpheresMatchClosedForm) {
  const MultibodyModel m = model_from(R"({"name": "h", "duration": 1,
    "bodies": [{"name": "b", "joint": "vertical", "mass": 62, "position": [0, 0.2]}],
    "contacts": [{"type": "sphere_plane", "body": "b", "at": [0, 0], "radius": 0.032, "count": 6,
                  "law": "hertz", "stiffness": 1e6, "combining": "none"}]})");
  const Equilibrium eq = static_equilibrium(m, m.initial_state());
  const double x = std::pow(62 * m.gravity / (6 * (4.0 / 3.0) * 1e6 * std::sqrt(0.032)), 2.0 / 3.0);
  EXPECT_NEAR(0.032 - eq.x[0], x, 1e-12 * x);
}

// A free box on four Hertz feet with its centre of mass off the middle: the
// contact forces found must balance the weight and its moment, computed here
// from the world positions of the feet.
TEST(StaticEquilibrium, FreeBodyForcesBalanceWeightAndMoment) {
  const MultibodyModel m = model_from(R"({"name": "box", "duration": 1,
    "bodies": [{"name": "box", "joint": "free", "mass": 10, "inertia": [0.1, 0.2, 0.15],
                "position": [0, 0.1, 0], "orientation": [1, 0.02, 0.01, 0.03]}],
    "contacts": [
      {"type": "sphere_plane", "body": "box", "at": [-0.15, -0.08, -0.1], "radius": 0.01, "law": "hertz", "stiffness": 1e7},
      {"type": "sphere_plane", "body": "box", "at": [0.25, -0.08, -0.1], "radius": 0.01, "law": "hertz", "stiffness": 1e7},
      {"type": "sphere_plane", "body": "box", "at": [-0.15, -0.08, 0.12], "radius": 0.01, "law": "hertz", "stiffness": 1e7},
      {"type": "sphere_plane", "body": "box", "at": [0.25, -0.08, 0.12], "radius": 0.01, "law": "hertz", "stiffness": 1e7}]})");
  const Equilibrium eq = static_equilibrium(m, m.initial_state());
  Eigen::Vector3d force = Eigen::Vector3d::Zero(), moment = Eigen::Vector3d::Zero();
  const Eigen::Vector3d com = eq.x.head<3>();
  for (const auto& c : m.contacts) {
    const Eigen::Vector3d centre = body_point(m.bodies[0], eq.x.head(m.nq), c.at[0]);
    const double f = hertz_force(c.law.effective_modulus, c.radius[0], c.radius[0] - centre.y());
    const Eigen::Vector3d touch(centre.x(), 0.0, centre.z());  // the force acts below the sphere centre
    force.y() += f;
    moment += (touch - com).cross(Eigen::Vector3d(0, f, 0));
    EXPECT_GT(f, 0.0);
  }
  const double weight = 10 * m.gravity;
  EXPECT_NEAR(force.y(), weight, 1e-9 * weight);
  EXPECT_LT(moment.norm(), 1e-9 * weight * 0.1);
}

// Three supports on a planar body: statically indeterminate but fine.
TEST(StaticEquilibrium, ThreeSupportsOnAPlanarBody) {
  const MultibodyModel m = model_from(bar(
      0.0, R"(, {"type": "sphere_plane", "body": "bar", "at": [0.0, 0.0], "radius": 0.0, "law": "linear", "stiffness": 1e5})"));
  const Equilibrium eq = static_equilibrium(m, m.initial_state());
  const Linearization lin = linearize(m, eq.x);
  ASSERT_EQ(lin.contacts.size(), 3u);
  EXPECT_NEAR(lin.indentation.sum() * 1e5, 2.0 * m.gravity, 1e-9);
}

// docs/physics.md#effective-mass A planar body on one off-centre contact tips over: no equilibrium, and the error says why.
TEST(StaticEquilibrium, OffCentreSingleContactTipsOver) {
  const MultibodyModel m = model_from(R"({"name": "tip", "duration": 1,
    "bodies": [{"name": "body", "joint": "planar", "mass": 2, "inertia": 0.02, "position": [0, 0.01]}],
    "contacts": [{"type": "sphere_plane", "body": "body", "at": [0.1, 0], "radius": 0, "law": "linear", "stiffness": 1e5}]})");
  try {
    static_equilibrium(m, m.initial_state());
    FAIL() << "expected EquilibriumError";
  } catch (const EquilibriumError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("no static equilibrium"), std::string::npos) << what;
    EXPECT_NE(what.find("tips over"), std::string::npos) << what;
    EXPECT_NE(what.find("body.angle"), std::string::npos) << what;
  }
}

// Nothing under the body: it falls forever.
TEST(StaticEquilibrium, NoContactBelowFalls) {
  const MultibodyModel m = model_from(R"({"name": "fall", "duration": 1,
    "bodies": [{"name": "a", "joint": "vertical", "mass": 1, "position": [0, 0.5]},
               {"name": "b", "joint": "vertical", "mass": 1, "position": [0, 0.6]}],
    "contacts": [{"type": "sphere_sphere", "bodies": ["a", "b"], "at": [[0, 0], [0, 0]], "radius": [0.05, 0.05],
                  "law": "linear", "stiffness": 1e4}]})");
  EXPECT_THROW(static_equilibrium(m, m.initial_state()), EquilibriumError);
}

// Stacked particles: the bottom contact carries both weights, the top one only its own.
TEST(StaticEquilibrium, StackedParticles) {
  const MultibodyModel m = model_from(R"({"name": "stack", "duration": 1,
    "bodies": [{"name": "a", "joint": "vertical", "mass": 1, "position": [0, 0.06]},
               {"name": "b", "joint": "vertical", "mass": 3, "position": [0, 0.2]}],
    "contacts": [{"type": "sphere_plane", "body": "a", "at": [0, 0], "radius": 0.05, "law": "linear", "stiffness": 1e4},
                 {"type": "sphere_sphere", "bodies": ["a", "b"], "at": [[0, 0], [0, 0]], "radius": [0.05, 0.05],
                  "law": "linear", "stiffness": 2e4}]})");
  const Equilibrium eq = static_equilibrium(m, m.initial_state());
  const Linearization lin = linearize(m, eq.x);
  ASSERT_EQ(lin.contacts.size(), 2u);
  EXPECT_NEAR(lin.force[0], 4 * m.gravity, 1e-9);
  EXPECT_NEAR(lin.force[1], 3 * m.gravity, 1e-9);
}

}  // namespace
}  // namespace dropsim
