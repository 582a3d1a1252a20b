// Simbody as the peer of the body tree: the same articulated models built
// with Simbody's function-based mobilizers and HuntCrossleyForce, run by
// both; the coordinates and the contacts' total force compared sample by sample.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "bench/peers/simbody/simbody_tree.hpp"
#include "dropsim/io/osim_reader.hpp"
#include "dropsim/sim/tree/simulate.hpp"
#include "dropsim/sim/tree/system.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/models.hpp"
#include "tests/support/tree_models.hpp"

namespace dropsim {
namespace {

struct Agreement {
  double position = 0.0;    // max |dq|, m or rad
  double force = 0.0;       // max |dF| of the contacts' total and of their force on each body, N
  double peak_force = 0.0;  // the largest contact force on a body, N
};

// dropsim at rtol 1e-10 (dopri5), Simbody's RungeKuttaMerson at accuracy 1e-12.
Agreement compare_with_simbody(const ArticulatedModel& articulated, double duration, double interval) {
  const tree::TreeModel model(articulated);
  const Trace ours = tree::simulate(model, test::adaptive_run(duration, interval, 1e-10));
  EXPECT_EQ(ours.stats.status, integrators::Status::ok) << ours.stats.reason;
  const auto theirs = peers::simbody_tree_run(articulated, duration, interval, 1e-12);
  EXPECT_EQ(ours.samples(), theirs.size());
  const tree::TreeSystem system(model);
  const int n = model.nq();
  Agreement a;
  Eigen::VectorXd x(2 * n);
  for (std::size_t k = 0; k < std::min(ours.samples(), theirs.size()); ++k) {
    x << Eigen::Map<const Eigen::VectorXd>(&ours.q[k * static_cast<std::size_t>(n)], n),
        Eigen::Map<const Eigen::VectorXd>(&ours.u[k * static_cast<std::size_t>(n)], n);
    const tree::TreeData& data = system.evaluate(x);
    // The contacts' force on each body, and their total (the ground's, where every pair has the floor on one side).
    Eigen::Vector3d total = Eigen::Vector3d::Zero();
    for (std::size_t b = 0; b < data.external.size(); ++b) {
      const Eigen::Vector3d on_body = data.external[b].tail<3>();
      total += on_body;
      a.force = std::max(a.force, (on_body - theirs[k].body_forces[b]).norm());
      a.peak_force = std::max(a.peak_force, theirs[k].body_forces[b].norm());
    }
    a.position = std::max(a.position, (x.head(n) - theirs[k].q).cwiseAbs().maxCoeff());
    a.force = std::max(a.force, (total - theirs[k].contact_force).norm());
  }
  return a;
}

TEST(SimbodyTreePeer, DoublePendulumStrikingTheFloorIsSimbodys) {
  ContactLaw law;
  law.kind = ContactLawKind::hunt_crossley;
  law.effective_modulus = 1e6;
  law.dissipation = 1.0;
  law.friction.static_coefficient = 0.8;
  law.friction.dynamic_coefficient = 0.5;
  law.friction.viscous_coefficient = 0.1;
  const double length = 0.5, radius = 0.05;
  const ArticulatedModel m = test::double_pendulum(law, length, 2.0 * length + radius - 0.02, radius, 1.2, 0.6);
  const Agreement a = compare_with_simbody(m, 0.6, 1e-3);
  const double weight = m.total_mass() * standard_gravity;
  std::printf("[measured] double pendulum against Simbody: max |dq| = %.3g rad, max |dF| = %.3g of the weight (peak %.1f)\n",
              a.position, a.force / weight, a.peak_force / weight);
  EXPECT_LE(a.position, 1e-7);
  EXPECT_LE(a.force, 1e-6 * weight);
  EXPECT_GT(a.peak_force, 2.0 * weight);  // it struck
}

// A half-space on a moving body and a pair of spheres on two bodies: a ball
// (three slides) dropped sliding onto a hinged plate, and a pendulum whose
// tip sphere strikes the sphere of another hanging beside it.
ArticulatedModel plate_and_pendulums(const ContactLaw& law) {
  using test::axis_of;
  ArticulatedModel m = {};
  m.bodies = {test::rod("striker", 1.0, 0.5), test::rod("target", 0.8, 0.5)};
  test::add_pin(m, "striker_pin", ground_body, 0, {0.0, 1.0, 0.0}, 1.0);
  test::add_pin(m, "target_pin", ground_body, 1, {-0.12, 1.0, 0.0}, 0.0);
  ArticulatedBody plate;
  plate.name = "plate";
  plate.mass = 2.0;
  plate.mass_centre = Eigen::Vector3d(0.05, -0.01, 0.0);
  plate.inertia = Eigen::Vector3d(0.01, 0.02, 0.02).asDiagonal();
  ArticulatedBody ball = plate;
  ball.name = "ball";
  ball.mass = 0.5;
  ball.mass_centre.setZero();
  ball.inertia = Eigen::Matrix3d::Identity() * 2e-4;
  m.bodies.push_back(plate);
  m.bodies.push_back(ball);
  test::add_pin(m, "hinge", ground_body, 2, {0.0, 0.0, 0.5}, 0.05);
  ArticulatedJoint slides;
  slides.name = "slides";
  slides.child = 3;
  const int joint = static_cast<int>(m.joints.size());
  slides.translations = {axis_of(Eigen::Vector3d::UnitX(), test::add_coordinate(m, "ball_x", joint, 0.15, false, -0.6)),
                         axis_of(Eigen::Vector3d::UnitY(), test::add_coordinate(m, "ball_y", joint, 0.1, false, 0.0)),
                         axis_of(Eigen::Vector3d::UnitZ(), test::add_coordinate(m, "ball_z", joint, 0.5, false, 0.2))};
  m.joints.push_back(slides);
  // The plate's top face: a half-space in the plate's frame, solid below it.
  m.half_spaces.push_back({"plate_top", 2, test::placed(Eigen::Vector3d::Zero(), {0.0, 0.0, -M_PI / 2})});
  test::add_sphere_on_floor(m, 3, Eigen::Vector3d::Zero(), 0.03, law);
  const double r = 0.05;
  m.spheres.push_back({"striker_tip", 0, {0.0, -0.5, 0.0}, r});
  m.spheres.push_back({"target_tip", 1, {0.0, -0.5, 0.0}, r});
  ContactPair pair;
  pair.name = "tips";
  pair.sphere = static_cast<int>(m.spheres.size()) - 2;
  pair.other_sphere = pair.sphere + 1;
  pair.law = law;
  pair.law.radius = 0.5 * r;  // R1 R2 / (R1 + R2)
  m.contacts.push_back(pair);
  return m;
}

TEST(SimbodyTreePeer, SpheresOnTwoBodiesAndAHalfSpaceOnABodyAreSimbodys) {
  ContactLaw law;
  law.kind = ContactLawKind::hunt_crossley;
  law.effective_modulus = 1e6;
  law.dissipation = 0.5;
  law.friction.static_coefficient = 0.6;
  law.friction.dynamic_coefficient = 0.4;
  const ArticulatedModel m = plate_and_pendulums(law);
  const Agreement a = compare_with_simbody(m, 0.5, 1e-3);
  const double weight = m.total_mass() * standard_gravity;
  std::printf("[measured] plate and pendulums against Simbody: max |dq| = %.3g, max |dF| = %.3g of the weight (peak %.2f)\n",
              a.position, a.force / weight, a.peak_force / weight);
  EXPECT_LE(a.position, 1e-7);
  EXPECT_LE(a.force, 1e-6 * weight);
  const tree::TreeModel model(m);
  const Trace trace = tree::simulate(model, test::adaptive_run(0.5, 1e-3, 1e-10));
  double tips = 0.0, plate = 0.0;
  for (std::size_t k = 0; k < trace.samples(); ++k) {
    plate = std::max(plate, trace.contact_force[2 * k]);
    tips = std::max(tips, trace.contact_force[2 * k + 1]);
  }
  EXPECT_GT(plate, 0.5 * weight);  // the ball struck the plate
  EXPECT_GT(tips, weight);         // and the pendulums each other
}

TEST(SimbodyTreePeer, BlockOnTwoPinsIsSimbodys) {
  const io::OsimModel osim = io::read_osim(test::source_path("tests/data/osim/block_two_pin.osim"));
  const Agreement a = compare_with_simbody(osim.model, 0.4, 1e-3);
  const double weight = osim.model.total_mass() * osim.model.gravity.norm();
  std::printf("[measured] block on two pins against Simbody: max |dq| = %.3g, max |dF| = %.3g of the weight (peak %.2f)\n",
              a.position, a.force / weight, a.peak_force / weight);
  EXPECT_LE(a.position, 1e-7);
  EXPECT_LE(a.force, 1e-6 * weight);
  EXPECT_GT(a.peak_force, 0.5 * weight);  // it landed
}

}  // namespace
}  // namespace dropsim
