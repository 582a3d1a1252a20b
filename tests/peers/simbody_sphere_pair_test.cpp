// Simbody as the oracle of the contact pairs OpenSim makes between two
// spheres: the force of a sphere on a sphere fixed in the world at a few
// hundred states, and the test model whose block lands on a welded post's
// sphere (tests/data/osim/sphere_pair.osim), simulated by both.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "bench/peers/simbody/simbody_contact.hpp"
#include "dropsim/io/osim_reader.hpp"
#include "dropsim/sim/articulated_rigid.hpp"
#include "dropsim/sim/multibody_simulate.hpp"
#include "dropsim/sim/multibody_system.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/models.hpp"

namespace dropsim {
namespace {

io::OsimModel sphere_pair_model() { return io::read_osim(test::source_path("tests/data/osim/sphere_pair.osim")); }

const ContactPair& pair_named(const ArticulatedModel& m, const std::string& name) {
  for (const ContactPair& c : m.contacts)
    if (c.name == name) return c;
  throw std::logic_error("no contact " + name);
}

// The knob (R 0.02 on a free body, its origin the sphere's centre) on the
// post's cap (R 0.03, fixed), with the law the reader combined for them.
TEST(SimbodyPeer, SpherePairForceIsSimbodys) {
  const io::OsimModel osim = sphere_pair_model();
  const ContactPair& pair = pair_named(osim.model, "contact:knob-cap");
  const double radius = 0.02, other_radius = 0.03;
  const Eigen::Vector3d cap(0.1, 0.03, 0.0);
  MultibodyModel m;
  m.gravity = 0.0;
  m.characteristic_length = pair.law.radius;
  m.bodies.push_back(test::free_body("knob", 1.0, {1.0, 1.0, 1.0}, Eigen::Vector3d::Zero()));
  m.finalize();
  Contact c;
  c.name = pair.name;
  c.type = ContactType::sphere_sphere;
  c.body = {0, ground_index};
  c.at = {Eigen::Vector3d::Zero(), cap};
  c.radius = {radius, other_radius};
  c.law = pair.law;
  m.contacts.push_back(c);
  const MultibodySystem system(m);
  std::mt19937 random(2468);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  double worst = 0.0;
  int pushing = 0;
  for (int i = 0; i < 300; ++i) {
    const double indentation = 1e-4 * pair.law.radius * std::pow(10.0, unit(random) + 1.0);  // 1e-4 .. 1e-2 R
    const Eigen::Vector3d direction = Eigen::Vector3d(unit(random), 1.0 + unit(random), unit(random)).normalized();
    const Eigen::Vector3d centre = cap + (radius + other_radius - indentation) * direction;
    const Eigen::Quaterniond turn = Eigen::Quaterniond(unit(random), unit(random), unit(random), unit(random)).normalized();
    const double slip = pair.law.friction.transition_velocity * std::pow(10.0, 2.0 * unit(random));
    const Eigen::Vector3d velocity = slip * Eigen::Vector3d(unit(random), unit(random), unit(random)) + 0.3 * unit(random) * direction;
    const Eigen::Vector3d spin = (slip / radius) * Eigen::Vector3d(unit(random), unit(random), unit(random));
    Eigen::VectorXd x(13), f(6);
    x << centre, turn.w(), turn.x(), turn.y(), turn.z(), velocity, turn.conjugate() * spin;
    system.applied_forces(x, f);
    const Eigen::Vector3d force = f.head<3>(), moment = turn * Eigen::Vector3d(f.tail<3>());
    const peers::SimbodyContactWrench theirs =
        peers::simbody_sphere_on_fixed_sphere(pair.law, radius, centre, turn, velocity, spin, other_radius, cap);
    const double scale = std::max(theirs.force.norm(), 1e-12);
    const double error = std::max((force - theirs.force).norm() / scale, (moment - theirs.moment).norm() / (scale * radius));
    worst = std::max(worst, error);
    pushing += theirs.force.norm() > 0.0;
    ASSERT_LT(error, 1e-12) << "state " << i << "\nours    F " << force.transpose() << " M " << moment.transpose()
                            << "\nSimbody F " << theirs.force.transpose() << " M " << theirs.moment.transpose();
  }
  std::printf("[measured] sphere on sphere against Simbody: worst relative difference %.3g over 300 states (%d pushing)\n", worst,
              pushing);
  EXPECT_GT(pushing, 100);
}

// The test model frozen (the block free, the post part of the ground) lands
// its knob on the cap and its foot on the floor as Simbody simulates the same
// surfaces in one HuntCrossleyForce.
TEST(SimbodyPeer, BlockLandingOnAWeldedSphereIsSimbodys) {
  const io::OsimModel osim = sphere_pair_model();
  const MultibodyModel frozen = frozen_model(osim.model, osim.model.default_coordinates());
  const Body& block = frozen.bodies.front();
  peers::SimbodyLanding landing;
  landing.law = pair_named(osim.model, "contact:foot-floor").law;
  landing.mass = block.mass;
  landing.gravity = frozen.gravity;
  landing.principal_inertia = block.inertia.diagonal();
  landing.spheres = {{-0.1, -0.05, 0.0}, {0.1, -0.05, 0.0}};
  landing.radii = {0.02, 0.02};
  landing.fixed_spheres = {{{0.1, 0.03, 0.0}, 0.03}};
  landing.position = block.position;
  // The knob lands on the cap (t 0.03 s), the foot on the floor, and the
  // block rocks between them; each impact amplifies the engines' 1e-12
  // differences some tenfold (5e-9 of the weight after the third, 2e-6
  // after the fourth at 0.3 s), so the comparison ends before the fourth.
  const double duration = 0.25, interval = 1e-3;
  const auto simbody = peers::simbody_landing(landing, duration, interval, 1e-12);
  const Trace trace = simulate(frozen, test::adaptive_run(duration, interval, 1e-12));
  ASSERT_EQ(trace.stats.status, integrators::Status::ok) << trace.stats.reason;
  ASSERT_EQ(trace.samples(), simbody.size());
  MultibodyModel contacts_only = frozen;
  contacts_only.gravity = 0.0;
  const MultibodySystem system(contacts_only);
  const double weight = block.mass * frozen.gravity;
  std::size_t pair = 0;
  for (std::size_t i = 0; i < frozen.contacts.size(); ++i)
    if (frozen.contacts[i].name == "contact:knob-cap") pair = i;
  double worst_force = 0.0, worst_position = 0.0, pair_peak = 0.0;
  const int nq = frozen.nq, nu = frozen.nu;
  Eigen::VectorXd x(nq + nu), f(nu);
  for (std::size_t k = 0; k < trace.samples(); ++k) {
    x << Eigen::Map<const Eigen::VectorXd>(&trace.q[k * nq], nq), Eigen::Map<const Eigen::VectorXd>(&trace.u[k * nu], nu);
    system.applied_forces(x, f);
    worst_force = std::max(worst_force, (f.head<3>() - simbody[k].contact.force).norm() / weight);
    worst_position = std::max(worst_position, (x.head<3>() - simbody[k].position).norm());
    pair_peak = std::max(pair_peak, trace.contact_force[k * frozen.contacts.size() + pair] / weight);
  }
  std::printf("[measured] block on a welded sphere against Simbody: contact force within %.3g of the weight, positions "
              "within %.3g m over %zu samples; the sphere pair peaked at %.3g weights\n",
              worst_force, worst_position, trace.samples(), pair_peak);
  EXPECT_LT(worst_force, 1e-6);
  EXPECT_LT(worst_position, 1e-9);
  EXPECT_GT(pair_peak, 0.5);  // the knob landed on the cap: the pair carried the landing
}

}  // namespace
}  // namespace dropsim
