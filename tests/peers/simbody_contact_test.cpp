// Simbody as the oracle of dropsim's contact laws: the force and moment on a
// sphere touching the ground, normal and friction, at a few hundred states,
// from SimTK::HuntCrossleyForce and SimTK::SmoothSphereHalfSpaceForce
// themselves; and a sliding, spinning box landing on four spheres, simulated
// by both.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <string>

#include "bench/peers/simbody/simbody_contact.hpp"
#include "dropsim/sim/multibody_simulate.hpp"
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

// A 2 kg box on four Hunt–Crossley spheres with friction, tilted, thrown
// sliding (1 m/s) and spinning onto the ground from 5 mm: it lands corner
// first, slides and turns to rest within the 0.5 s.
peers::SimbodyLanding sliding_spinning_box() {
  peers::SimbodyLanding landing;
  landing.law = test::hertz(2e7);
  landing.law.kind = ContactLawKind::hunt_crossley;
  // alpha 0.5 s/m: no contact separates faster than 1 / (1.5 alpha), where
  // Hunt–Crossley pulls and Simbody would stop adding the later contacts.
  landing.law.dissipation = 0.5;
  landing.law.friction = {0.8, 0.5, 0.05, 0.05};
  landing.mass = 2.0;
  landing.radius = 0.01;
  landing.principal_inertia = {0.004, 0.006, 0.004};
  for (double x : {-0.05, 0.05})
    for (double z : {-0.05, 0.05}) landing.spheres.push_back({x, -0.02, z});
  landing.orientation = Eigen::Quaterniond(Eigen::AngleAxisd(0.15, Eigen::Vector3d(1.0, 0.3, 1.0).normalized()));
  double lowest = 1.0;
  for (const Eigen::Vector3d& at : landing.spheres)
    lowest = std::min(lowest, (landing.orientation * at).y() - landing.radius);
  landing.position = {0.0, 0.005 - lowest, 0.0};  // the lowest sphere 5 mm up
  landing.velocity = {1.0, -0.3, 0.4};
  landing.angular_velocity = {0.5, 4.0, -1.0};
  return landing;
}

// Both engines at tight tolerances (dropsim dopri5 rtol 1e-12, Simbody
// RungeKuttaMerson accuracy 1e-12); the contacts' resultant force at every
// millisecond, each from its own engine's state, agrees to 1e-6 of the weight.
TEST(SimbodyPeer, SlidingSpinningBoxLandsAsSimbodySimulatesIt) {
  const peers::SimbodyLanding landing = sliding_spinning_box();
  const double duration = 0.5, interval = 1e-3;
  const std::vector<peers::SimbodyLandingSample> simbody = peers::simbody_landing(landing, duration, interval, 1e-12);

  MultibodyModel m;
  m.gravity = landing.gravity;
  m.characteristic_length = landing.radius;
  m.bodies.push_back(test::free_body("box", landing.mass, landing.principal_inertia, landing.position));
  m.bodies[0].orientation = landing.orientation;
  m.finalize();
  for (const Eigen::Vector3d& at : landing.spheres)
    m.contacts.push_back(test::sphere_on_ground(0, at, landing.radius, landing.law));
  Eigen::VectorXd x0 = m.initial_state();
  x0.segment<3>(m.nq) = landing.velocity;
  x0.segment<3>(m.nq + 3) = landing.orientation.conjugate() * landing.angular_velocity;  // body frame
  const Trace trace = simulate_from(m, test::adaptive_run(duration, interval, 1e-12), x0);
  ASSERT_EQ(trace.stats.status, integrators::Status::ok) << trace.stats.reason;
  ASSERT_EQ(trace.samples(), simbody.size());

  MultibodyModel contacts_only = m;
  contacts_only.gravity = 0.0;
  const MultibodySystem system(contacts_only);
  const double weight = landing.mass * landing.gravity;
  double worst_force = 0.0, worst_moment = 0.0, worst_position = 0.0, peak = 0.0, travelled = 0.0;
  const double arm = landing.spheres.front().norm();  // the spheres' distance from the centre
  Eigen::VectorXd x(m.nq + m.nu), f(m.nu);
  for (std::size_t k = 0; k < trace.samples(); ++k) {
    ASSERT_NEAR(trace.time[k], simbody[k].time, 1e-12);
    x << Eigen::Map<const Eigen::VectorXd>(&trace.q[k * m.nq], m.nq),
        Eigen::Map<const Eigen::VectorXd>(&trace.u[k * m.nu], m.nu);
    system.applied_forces(x, f);
    const Eigen::Vector3d ours = f.head<3>(), theirs = simbody[k].contact.force;
    worst_force = std::max(worst_force, (ours - theirs).norm() / weight);
    // The moment about the centre of mass: dropsim's is in the body frame.
    const Eigen::Quaterniond turn(x[3], x[4], x[5], x[6]);
    const Eigen::Vector3d our_moment = turn.normalized() * Eigen::Vector3d(f.tail<3>());
    worst_moment = std::max(worst_moment, (our_moment - simbody[k].contact.moment).norm() / (weight * arm));
    worst_position = std::max(worst_position, (x.head<3>() - simbody[k].position).norm());
    peak = std::max(peak, theirs.norm() / weight);
    travelled = std::max(travelled, std::hypot(simbody[k].position.x() - landing.position.x(),
                                               simbody[k].position.z() - landing.position.z()));
  }
  const Eigen::Vector3d rest_speed = simbody.back().velocity;
  std::printf("[measured] landing box against Simbody: contact force within %.3g of the weight over %zu samples "
              "(peak %.3g weights), moment within %.3g of weight x arm, positions within %.3g m; it slid %.3g m "
              "and ends at %.3g m/s\n",
              worst_force, simbody.size(), peak, worst_moment, worst_position, travelled, rest_speed.norm());
  EXPECT_LT(worst_force, 1e-6);
  EXPECT_LT(worst_moment, 1e-6);
  EXPECT_LT(worst_position, 1e-9);
  // What makes it a test of friction and landing: the contacts took the
  // impact, friction stopped a 1 m/s slide.
  EXPECT_GT(peak, 1.5);
  EXPECT_GT(travelled, 0.05);
  EXPECT_LT(rest_speed.norm(), 0.05);
}

// Each Simbody integrator the benchmark runs as a peer is its own: it takes
// its own steps, reaches the end, and comes closer to Simbody's tight run as
// its accuracy tightens, stopping at the samples or interpolating them; the
// samples are at the report times either way, and interpolating saves steps.
TEST(SimbodyPeer, EachIntegratorLandsTheBoxAndConvergesWithAccuracy) {
  const peers::SimbodyLanding landing = sliding_spinning_box();
  const double duration = 0.5, interval = 1e-3, weight = landing.mass * landing.gravity;
  const auto tight = peers::simbody_landing(landing, duration, interval, 1e-12);
  std::vector<long> steps;
  for (const peers::SimbodyIntegrator which : peers::simbody_integrators) {
    std::array<long, 2> loose_steps{};  // at accuracy 1e-4: stopping, interpolating
    for (const bool interpolate : {false, true}) {
      const std::string what = std::string(peers::simbody_name(which)) + (interpolate ? ", interpolating" : "");
      std::array<double, 2> error{};
      const std::array<double, 2> accuracies{1e-4, 1e-8};
      for (int a = 0; a < 2; ++a) {
        peers::SimbodyLandingCounts counts;
        const auto run =
            peers::simbody_landing(landing, duration, interval, accuracies[a], which, interpolate, &counts);
        ASSERT_EQ(run.size(), tight.size()) << what;
        for (std::size_t k = 0; k < run.size(); ++k) {
          ASSERT_EQ(run[k].time, tight[k].time) << what;  // on the sample, not near it
          error[a] = std::max(error[a], (run[k].contact.force - tight[k].contact.force).norm() / weight);
        }
        if (a == 0) loose_steps[interpolate] = counts.steps;
        if (a == 1 && !interpolate) steps.push_back(counts.steps);
      }
      std::printf("[measured] Simbody %s: contact force within %.3g of the weight at accuracy 1e-4 (%ld steps), "
                  "%.3g at 1e-8\n",
                  what.c_str(), error[0], loose_steps[interpolate], error[1]);
      EXPECT_LT(error[1], 0.1 * error[0]) << what;
    }
    EXPECT_LT(loose_steps[1], loose_steps[0]) << peers::simbody_name(which) << ": interpolating saved no steps";
  }
  std::sort(steps.begin(), steps.end());
  EXPECT_EQ(std::adjacent_find(steps.begin(), steps.end()), steps.end()) << "two integrators took the same steps";
}

}  // namespace
}  // namespace dropsim
