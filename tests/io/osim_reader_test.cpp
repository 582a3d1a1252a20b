// The OpenSim reader against values computed by hand from the files: OpenSim's
// own models (from DROPSIM_OPENSIM_MODELS, skipped with a message when absent) and the
// small models written for these tests (tests/data/osim).
#include "dropsim/io/osim_reader.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>

#include "dropsim/io/input_error.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/opensim_models.hpp"

namespace dropsim::io {
namespace {

namespace fs = std::filesystem;
using test::opensim_model;
using test::slurp;
using test::source_path;

const double root_8 = std::pow(2.0, 1.5);  // OpenSim's E* = E / 2^1.5 for two equal surfaces


const ContactPair& contact(const OsimModel& m, const std::string& name) {
  for (const auto& c : m.model.contacts)
    if (c.name == name) return c;
  throw std::out_of_range("no contact " + name);
}

// The sum of the file's <mass> elements, read with a regular expression: not through the reader.
double masses_in(const std::string& path) {
  const std::string text = slurp(path);
  const std::regex mass("<mass>\\s*([-+0-9.eE]+)\\s*</mass>");
  double sum = 0.0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), mass); it != std::sregex_iterator(); ++it)
    sum += std::stod((*it)[1].str());
  return sum;
}

TEST(OsimReader, BouncingBallHuntCrossleyLegacyLayout) {
  REQUIRE_OPENSIM_MODEL("ball_hc.osim");
  const OsimModel m = read_osim(opensim_model("ball_hc.osim"));
  EXPECT_TRUE(m.legacy);
  EXPECT_TRUE(m.gravity_given);
  EXPECT_DOUBLE_EQ(m.model.gravity.y(), -9.8065);  // as written, not the standard value
  ASSERT_EQ(m.model.bodies.size(), 1u);
  EXPECT_DOUBLE_EQ(m.model.total_mass(), 1.0);
  EXPECT_EQ(m.model.coordinates.size(), 6u);
  const auto& c = contact(m, "contact");
  EXPECT_EQ(c.law.kind, ContactLawKind::hunt_crossley);
  EXPECT_DOUBLE_EQ(c.law.radius, 0.5);
  EXPECT_NEAR(c.law.effective_modulus, 1e4 / root_8, 1e-12 * 1e4);
  EXPECT_DOUBLE_EQ(c.law.dissipation, 0.75);
  EXPECT_DOUBLE_EQ(c.law.friction.static_coefficient, 0.3);
  EXPECT_DOUBLE_EQ(c.law.friction.viscous_coefficient, 0.3);
  EXPECT_DOUBLE_EQ(c.law.friction.transition_velocity, 0.1);
}

TEST(OsimReader, BouncingBallSmoothTakesOpenSimsDefaultsForAbsentSmoothing) {
  REQUIRE_OPENSIM_MODEL("ball_sshsf.osim");
  const OsimModel m = read_osim(opensim_model("ball_sshsf.osim"));
  EXPECT_FALSE(m.legacy);
  EXPECT_DOUBLE_EQ(m.model.gravity.y(), -9.8064999999999998);
  const auto& c = contact(m, "contact");
  EXPECT_EQ(c.law.kind, ContactLawKind::smooth_hunt_crossley);
  EXPECT_NEAR(c.law.effective_modulus, 1e4 / root_8, 1e-12 * 1e4);
  EXPECT_DOUBLE_EQ(c.law.cf, 1e-5);
  EXPECT_DOUBLE_EQ(c.law.bd, 300.0);
  EXPECT_DOUBLE_EQ(c.law.bv, 50.0);
  const auto& set = m.forces.front().sets.front();
  for (const char* e : {"constant_contact_force", "hertz_smoothing", "hunt_crossley_smoothing"}) EXPECT_TRUE(set.find(e)->defaulted) << e;
  EXPECT_FALSE(set.find("stiffness")->defaulted);
}

TEST(OsimReader, BouncingBlockFreeRootAndTwoPins) {
  REQUIRE_OPENSIM_MODEL("bouncing_block.osim");
  const std::string file = opensim_model("bouncing_block.osim");
  const OsimModel m = read_osim(file);
  EXPECT_DOUBLE_EQ(m.model.total_mass(), masses_in(file));
  EXPECT_DOUBLE_EQ(m.model.total_mass(), 30.0);
  ASSERT_EQ(m.model.joints.size(), 3u);
  EXPECT_EQ(m.model.joints[0].type, "FreeJoint");
  EXPECT_EQ(m.model.coordinates.size(), 8u);
  EXPECT_DOUBLE_EQ(m.model.gravity.y(), -9.8066499999999994);
  ASSERT_EQ(m.model.contacts.size(), 1u);
  const auto& c = m.model.contacts.front();
  EXPECT_DOUBLE_EQ(c.law.radius, 0.05);
  EXPECT_NEAR(c.law.effective_modulus, 1e8 / root_8, 1e-12 * 1e8);
  EXPECT_DOUBLE_EQ(c.law.friction.static_coefficient, 0.9);
  EXPECT_DOUBLE_EQ(c.law.friction.viscous_coefficient, 0.6);
  EXPECT_NE(m.skipped.find("2 PointOnLineConstraint"), std::string::npos) << m.skipped;
  // The heel hangs off link2; its origin is where the two Pins put it.
  const ArticulatedKinematics kin = articulated_kinematics(m.model, m.model.default_coordinates());
  EXPECT_EQ(m.model.spheres.front().body, 2);
  EXPECT_TRUE(std::isfinite(sphere_centre(m.model, kin, 0).y()));
}

TEST(OsimReader, Gait2dWalkerHasFourSmoothSpheresAndTheDefaultGravity) {
  REQUIRE_OPENSIM_MODEL("gait2d_moco.osim");
  const std::string file = opensim_model("gait2d_moco.osim");
  const OsimModel m = read_osim(file);
  EXPECT_FALSE(m.gravity_given);
  EXPECT_DOUBLE_EQ(m.model.gravity.y(), -9.80665);
  EXPECT_EQ(m.model.bodies.size(), 12u);
  EXPECT_NEAR(m.model.total_mass(), masses_in(file), 1e-12);
  ASSERT_EQ(m.model.contacts.size(), 4u);
  EXPECT_DOUBLE_EQ(contact(m, "contactHeel_r").law.radius, 0.035);
  EXPECT_DOUBLE_EQ(contact(m, "contactFront_l").law.radius, 0.015);
  for (const auto& c : m.model.contacts) {
    EXPECT_NEAR(c.law.effective_modulus, 3067776.0 / root_8, 1e-9);
    EXPECT_DOUBLE_EQ(c.law.dissipation, 2.0);
    EXPECT_DOUBLE_EQ(c.law.cf, 1e-5);  // absent: the default, not derivative_smoothing
    EXPECT_DOUBLE_EQ(c.law.bd, 300.0);
    EXPECT_DOUBLE_EQ(c.law.friction.transition_velocity, 0.2);
  }
  EXPECT_EQ(m.notes.size(), 4u);  // derivative_smoothing, once per force
  EXPECT_NE(m.skipped.find("18 DeGrooteFregly2016Muscle"), std::string::npos) << m.skipped;
}

TEST(OsimReader, FramesResolveThroughOffsetsRelativePathsAndBareBodies) {
  const OsimModel m = read_osim(source_path("tests/data/osim/block_two_pin.osim"));
  const ArticulatedKinematics kin = articulated_kinematics(m.model, m.model.default_coordinates());
  const auto rz = [](double a) { return Eigen::AngleAxisd(a, Eigen::Vector3d::UnitZ()).toRotationMatrix(); };
  const auto rx = [](double a) { return Eigen::AngleAxisd(a, Eigen::Vector3d::UnitX()).toRotationMatrix(); };
  // link1 on the block's top (0.2 above its centre at 0.3), turned 0.3 about z.
  EXPECT_NEAR((kin.pose[1].translation() - Eigen::Vector3d(0.0, 0.5, 0.0)).norm(), 0.0, 1e-15);
  EXPECT_NEAR((kin.pose[1].linear() - rz(0.3)).norm(), 0.0, 1e-15);
  // link2 at link1's tip, whose frame is tilted 0.1 about x, turned -0.6 about that frame's z.
  EXPECT_NEAR((kin.pose[2].translation() - (Eigen::Vector3d(0.0, 0.5, 0.0) + rz(0.3) * Eigen::Vector3d(0.0, 0.5, 0.0))).norm(), 0.0, 1e-15);
  EXPECT_NEAR((kin.pose[2].linear() - rz(0.3) * rx(0.1) * rz(-0.6)).norm(), 0.0, 1e-15);
  EXPECT_EQ(m.model.contacts.size(), 4u);
  EXPECT_EQ(m.skipped, "1 PointToPointSpring");
}

TEST(OsimReader, LegacyCustomJointFunctionsAndPerSurfaceParameters) {
  const OsimModel m = read_osim(source_path("tests/data/osim/legacy_custom_knee.osim"));
  EXPECT_TRUE(m.legacy);
  EXPECT_DOUBLE_EQ(m.model.gravity.y(), -9.81);
  ASSERT_EQ(m.model.coordinates.size(), 2u);
  EXPECT_TRUE(m.model.coordinates[0].locked);
  EXPECT_EQ(free_coordinates(m.model), std::vector<int>{1});
  const ArticulatedKinematics kin = articulated_kinematics(m.model, m.model.default_coordinates());
  const auto rz = [](double a) { return Eigen::AngleAxisd(a, Eigen::Vector3d::UnitZ()).toRotationMatrix(); };
  // Knee at -0.5: the spline is the line 0.01 q, the multiplier 0.5 (0.02 q - 0.4), a constant 0.001 along z.
  const Eigen::Vector3d knee = Eigen::Vector3d(0.0, 1.0, 0.0) + rz(0.2) * Eigen::Vector3d(0.0, -0.4, 0.0);
  const Eigen::Vector3d shank = knee + rz(0.2) * Eigen::Vector3d(-0.005, 0.5 * (0.02 * -0.5 - 0.4), 0.001);
  EXPECT_NEAR((kin.pose[1].translation() - shank).norm(), 0.0, 1e-15);
  EXPECT_NEAR((kin.pose[1].linear() - rz(-0.3)).norm(), 0.0, 1e-15);
  // Each surface's own parameters, combined as Simbody does.
  const double k1 = std::pow(2e6, 2.0 / 3.0), k2 = std::pow(5e7, 2.0 / 3.0), s1 = k2 / (k1 + k2);
  const auto& c = m.model.contacts.front();
  EXPECT_NEAR(c.law.effective_modulus, std::pow(s1 * k1, 1.5), 1e-12 * 2e6);
  EXPECT_NEAR(c.law.dissipation, s1 * 1.0 + (1.0 - s1) * 0.2, 1e-15);
  EXPECT_NEAR(c.law.friction.static_coefficient, 2 * 0.8 * 0.4 / 1.2, 1e-15);
  EXPECT_NEAR(c.law.friction.dynamic_coefficient, 2 * 0.6 * 0.3 / 0.9, 1e-15);
  EXPECT_EQ(c.law.friction.viscous_coefficient, 0.0);
  EXPECT_EQ(c.law.friction.transition_velocity, 0.01);  // HuntCrossleyForce's default
  EXPECT_EQ(m.skipped, "2 Thelen2003Muscle");
}

// OpenSim 4 lets a body list its own contact geometry; a socket finds it by its
// path, and a sphere of the same name in the set is another sphere.
TEST(OsimReader, GeometryAmongABodysComponentsIsFoundByItsPath) {
  std::string text = slurp(source_path("tests/data/osim/block_two_pin.osim"));
  const auto insert = [&](const std::string& before, const std::string& what) {
    const auto at = text.find(before);
    ASSERT_NE(at, std::string::npos) << before;
    text.insert(at, what);
  };
  insert("<mass>4</mass>", "<components><ContactSphere name=\"corner_a\"><socket_frame>/bodyset/link2</socket_frame>"
                           "<location>0 0.4 0</location><radius>0.03</radius></ContactSphere></components>");
  insert("<PointToPointSpring", "<SmoothSphereHalfSpaceForce name=\"tip\"><socket_sphere>../../bodyset/link2/corner_a"
                                "</socket_sphere><socket_half_space>/contactgeometryset/floor</socket_half_space>"
                                "<stiffness>1e6</stiffness></SmoothSphereHalfSpaceForce>");
  const OsimModel m = read_osim_bytes("components.osim", text);
  const ContactPair& tip = contact(m, "tip");
  const ContactSphereGeometry& sphere = m.model.spheres[static_cast<std::size_t>(tip.sphere)];
  EXPECT_EQ(sphere.body, 2);  // link2, not the block's corner_a
  EXPECT_EQ(sphere.radius, 0.03);
  EXPECT_EQ(sphere.centre, Eigen::Vector3d(0.0, 0.4, 0.0));
  EXPECT_EQ(m.model.contacts.size(), 5u);  // the four corners of the set still pair with the floor
}

TEST(OsimReader, ForwardSetupStepBudgetMustBeAWholeNumber) {
  const fs::path dir = test::fresh_directory("forward-setup");
  for (const std::string budget : {"2.5", "1e12", "0"}) {
    const fs::path setup = dir / "setup.xml";
    std::ofstream(setup) << "<OpenSimDocument><ForwardTool><final_time>1</final_time><maximum_number_of_integrator_steps>"
                         << budget << "</maximum_number_of_integrator_steps></ForwardTool></OpenSimDocument>";
    try {
      (void)read_forward_setup(setup.string());
      ADD_FAILURE() << budget << " was taken";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("maximum_number_of_integrator_steps (line 1): maximum_number_of_integrator_steps must be a whole number"),
                std::string::npos) << e.what();
    }
  }
  fs::remove_all(dir);
}

TEST(OsimReader, ForwardSetupGivesTheRunsBounds) {
  REQUIRE_OPENSIM_MODEL("bouncing_block_forward_setup.xml");
  const ForwardSettings s = read_forward_setup(opensim_model("bouncing_block_forward_setup.xml"));
  EXPECT_DOUBLE_EQ(s.final_time - s.initial_time, 10.0);
  EXPECT_DOUBLE_EQ(s.accuracy, 1e-5);
  EXPECT_DOUBLE_EQ(s.min_step, 1e-8);
  EXPECT_DOUBLE_EQ(s.max_step, 1.0);
  EXPECT_EQ(s.max_steps, 20000);
}

}  // namespace
}  // namespace dropsim::io
