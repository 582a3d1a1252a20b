// Simbody as the oracle of dropsim's contact laws: the force and moment on a
// sphere touching the ground, normal and friction, at a few hundred states,
// from SimTK::HuntCrossleyForce and SimTK::SmoothSphereHalfSpaceForce themselves.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "bench/peers/simbody/simbody_contact.hpp"
#include "dropsim/sim/multibody_system.hpp"
#include "tests/support/models.hpp"

namespace dropsim {
namespace {

struct Wrench {
  Eigen::Vector3d force, moment;
};

// dropsim's generalised force on a free body whose origin is the sphere's
// centre: its force, and its body-frame moment turned into the world.
Wrench dropsim_sphere_on_ground(const ContactLaw& law, double radius, const Eigen::VectorXd& x) {
  MultibodyModel m;
  m.gravity = 0.0;
  m.characteristic_length = radius;
  m.bodies.push_back(test::free_body("ball", 1.0, {1.0, 1.0, 1.0}, Eigen::Vector3d::Zero()));
  m.finalize();
  m.contacts.push_back(test::sphere_on_ground(0, Eigen::Vector3d::Zero(), radius, law));
  Eigen::VectorXd f(6);
  MultibodySystem(m).applied_forces(x, f);
  const Eigen::Quaterniond q(x[3], x[4], x[5], x[6]);
  return {f.head<3>(), q.normalized() * Eigen::Vector3d(f.tail<3>())};
}

void expect_laws_agree(ContactLaw law, const char* what) {
  const double radius = 0.03;
  law.radius = radius;
  std::mt19937 random(12345);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  double worst = 0.0;
  int touching = 0, slipping_slowly = 0;
  for (int i = 0; i < 300; ++i) {
    const double indentation = 1e-4 * radius * std::pow(10.0, 2.0 * (unit(random) + 1.0) / 2.0);  // 1e-4 .. 1e-2 r
    // Near the origin: Simbody's ground frame is turned by -pi/2, whose cosine
    // rounds to 6e-17, so its depth carries 6e-17 m per metre from the origin
    // (2e-11 of the smallest indentation here at 1 m; 2e-13 within 1 cm).
    const Eigen::Vector3d centre(0.01 * unit(random), radius - indentation, 0.01 * unit(random));
    const Eigen::Quaterniond turn =
        Eigen::Quaterniond(unit(random), unit(random), unit(random), unit(random)).normalized();
    // Slips from well below the transition velocity to well above it.
    const double slip_scale = law.friction.transition_velocity * std::pow(10.0, 2.0 * unit(random));
    // Normal speeds past -1 / (1.5 alpha): some states pull, and Hunt–Crossley clamps them (no friction either).
    const Eigen::Vector3d velocity(slip_scale * unit(random), 0.6 * unit(random), slip_scale * unit(random));
    const Eigen::Vector3d spin = (slip_scale / radius) * Eigen::Vector3d(unit(random), unit(random), unit(random));
    Eigen::VectorXd x(13);
    x << centre, turn.w(), turn.x(), turn.y(), turn.z(), velocity, turn.conjugate() * spin;
    const Wrench ours = dropsim_sphere_on_ground(law, radius, x);
    const peers::SimbodyContactWrench theirs =
        peers::simbody_sphere_on_ground(law, radius, centre, turn, velocity, spin);
    const double scale = std::max(theirs.force.norm(), 1e-12);  // a clamped contact: both zero
    const double error = std::max((ours.force - theirs.force).norm() / scale,
                                  (ours.moment - theirs.moment).norm() / (scale * radius));
    worst = std::max(worst, error);
    touching += theirs.force.norm() > 0.0;
    slipping_slowly += slip_scale < law.friction.transition_velocity;
    ASSERT_LT(error, 1e-12) << what << " state " << i << "\nours   F " << ours.force.transpose() << " M "
                            << ours.moment.transpose() << "\nSimbody F " << theirs.force.transpose() << " M "
                            << theirs.moment.transpose();
  }
  std::printf("[measured] %s against Simbody: worst relative difference %.3g over 300 states (%d pushing, %d "
              "slipping below v_t)\n",
              what, worst, touching, slipping_slowly);
  EXPECT_GT(touching, 100);
  EXPECT_GT(slipping_slowly, 50);
}

// OpenSim's stiffness 1e6 on both surfaces, alpha 2 s/m, mu_s 0.9, mu_d 0.6, mu_v 0.05 s/m, v_t 5 cm/s.
ContactLaw with_friction(ContactLawKind kind) {
  ContactLaw law = test::hertz(1e6 / std::pow(2.0, 1.5));
  law.kind = kind;
  law.dissipation = 2.0;
  law.friction = {0.9, 0.6, 0.05, 0.05};
  return law;
}

TEST(SimbodyPeer, HuntCrossleyWithFrictionIsSimbodys) {
  expect_laws_agree(with_friction(ContactLawKind::hunt_crossley), "HuntCrossleyForce");
}

TEST(SimbodyPeer, SmoothedLawWithFrictionIsSimbodys) {
  expect_laws_agree(with_friction(ContactLawKind::smooth_hunt_crossley), "SmoothSphereHalfSpaceForce");
}

}  // namespace
}  // namespace dropsim
