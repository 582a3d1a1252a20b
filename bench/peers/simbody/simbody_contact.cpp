// One sphere on the ground through Simbody's own contact forces.
#include "bench/peers/simbody/simbody_contact.hpp"

#include <Simbody.h>

#include <cmath>
#include <cstdio>
#include <exception>
#include <memory>

#include "dropsim/sim/combining.hpp"

namespace dropsim::peers {

namespace {

Eigen::Vector3d eigen(const SimTK::Vec3& v) { return {v[0], v[1], v[2]}; }
SimTK::Vec3 simtk(const Eigen::Vector3d& v) { return {v.x(), v.y(), v.z()}; }

// HalfSpace fills x > 0 with outward normal -x; -90 degrees about z puts the ground at y < 0.
SimTK::Transform ground_frame() { return SimTK::Transform(SimTK::Rotation(-SimTK::Pi / 2, SimTK::ZAxis), SimTK::Vec3(0)); }

// OpenSim's surfaces share one stiffness, which Simbody combines by Sherman's
// rule (HuntCrossleyForce) or halves in k = E^(2/3) / 2 (the smoothed force).
double surface_stiffness(const ContactLaw& law) { return surface_modulus(CombiningRule::sherman, law.effective_modulus); }
double simbody_dissipation(const ContactLaw& law) { return law.kind == ContactLawKind::hertz ? 0.0 : law.dissipation; }

// A HuntCrossleyForce over every surface added to `set`, the ground's and the spheres' alike.
void hunt_crossley_force(SimTK::GeneralForceSubsystem& forces, SimTK::GeneralContactSubsystem& contacts,
                         SimTK::ContactSetIndex set, const ContactLaw& law) {
  using namespace SimTK;
  const Friction& f = law.friction;
  HuntCrossleyForce hc(forces, contacts, set);
  for (int i = 0; i < contacts.getNumBodies(set); ++i)
    hc.setBodyParameters(ContactSurfaceIndex(i), surface_stiffness(law), simbody_dissipation(law),
                         f.static_coefficient, f.dynamic_coefficient, f.viscous_coefficient);
  hc.setTransitionVelocity(f.transition_velocity);
}

}  // namespace

namespace {

// A free body of unit mass among Simbody's force and contact subsystems: the
// contact wrench on it at one state, once its surfaces and forces are added.
class OneBall {
 public:
  SimbodyContactWrench wrench(const Eigen::Vector3d& centre, const Eigen::Quaterniond& orientation,
                              const Eigen::Vector3d& velocity, const Eigen::Vector3d& angular_velocity) {
    using namespace SimTK;
    system.realizeTopology();
    State state = system.getDefaultState();
    const Quaternion q(orientation.w(), orientation.x(), orientation.y(), orientation.z());
    ball.setQToFitTransform(state, Transform(Rotation(q), simtk(centre)));
    ball.setUToFitVelocity(state, SpatialVec(simtk(angular_velocity), simtk(velocity)));
    system.realize(state, Stage::Dynamics);
    const SpatialVec& w = system.getRigidBodyForces(state, Stage::Dynamics)[ball.getMobilizedBodyIndex()];
    return {eigen(w[1]), eigen(w[0])};
  }

  SimTK::MultibodySystem system;
  SimTK::SimbodyMatterSubsystem matter{system};
  SimTK::GeneralForceSubsystem forces{system};
  SimTK::GeneralContactSubsystem contacts{system};
  SimTK::MobilizedBody::Free ball{matter.Ground(), SimTK::Transform(),
                                  SimTK::Body::Rigid(SimTK::MassProperties(1.0, SimTK::Vec3(0), SimTK::UnitInertia(1))),
                                  SimTK::Transform()};
};

}  // namespace

SimbodyContactWrench simbody_sphere_on_ground(const ContactLaw& law, double radius, const Eigen::Vector3d& centre,
                                              const Eigen::Quaterniond& orientation, const Eigen::Vector3d& velocity,
                                              const Eigen::Vector3d& angular_velocity) {
  using namespace SimTK;
  OneBall one;
  const double stiffness = surface_stiffness(law), alpha = simbody_dissipation(law);
  const Friction& f = law.friction;
  if (law.kind == ContactLawKind::smooth_hunt_crossley) {
    SmoothSphereHalfSpaceForce smooth(one.forces);
    smooth.setParameters(stiffness, alpha, f.static_coefficient, f.dynamic_coefficient, f.viscous_coefficient,
                         f.transition_velocity, law.cf, law.bd, law.bv);
    smooth.setContactSphereBody(one.ball);
    smooth.setContactSphereLocationInBody(Vec3(0));
    smooth.setContactSphereRadius(radius);
    smooth.setContactHalfSpaceBody(one.matter.updGround());
    smooth.setContactHalfSpaceFrame(ground_frame());
  } else {
    const ContactSetIndex set = one.contacts.createContactSet();
    one.contacts.addBody(set, one.matter.updGround(), ContactGeometry::HalfSpace(), ground_frame());
    one.contacts.addBody(set, one.ball, ContactGeometry::Sphere(radius), Transform());
    hunt_crossley_force(one.forces, one.contacts, set, law);
  }
  return one.wrench(centre, orientation, velocity, angular_velocity);
}

SimbodyContactWrench simbody_sphere_on_fixed_sphere(const ContactLaw& law, double radius, const Eigen::Vector3d& centre,
                                                    const Eigen::Quaterniond& orientation, const Eigen::Vector3d& velocity,
                                                    const Eigen::Vector3d& angular_velocity, double other_radius,
                                                    const Eigen::Vector3d& other_centre) {
  using namespace SimTK;
  OneBall one;
  const ContactSetIndex set = one.contacts.createContactSet();
  one.contacts.addBody(set, one.matter.updGround(), ContactGeometry::Sphere(other_radius), Transform(simtk(other_centre)));
  one.contacts.addBody(set, one.ball, ContactGeometry::Sphere(radius), Transform());
  hunt_crossley_force(one.forces, one.contacts, set, law);
  return one.wrench(centre, orientation, velocity, angular_velocity);
}

std::vector<SimbodyLandingSample> simbody_landing(const SimbodyLanding& landing, double duration, double interval,
                                                  double accuracy, SimbodyIntegrator which, bool interpolate_samples,
                                                  SimbodyLandingCounts* counts) {
  using namespace SimTK;
  MultibodySystem system;
  SimbodyMatterSubsystem matter(system);
  GeneralForceSubsystem forces(system);
  GeneralContactSubsystem contacts(system);
  const Eigen::Vector3d& j = landing.principal_inertia;
  const Body::Rigid body(MassProperties(landing.mass, Vec3(0), Inertia(j.x(), j.y(), j.z())));
  MobilizedBody::Free free(matter.Ground(), Transform(), body, Transform());
  Force::Gravity gravity(forces, matter, -YAxis, landing.gravity);
  const ContactSetIndex set = contacts.createContactSet();
  contacts.addBody(set, matter.updGround(), ContactGeometry::HalfSpace(), ground_frame());
  for (std::size_t i = 0; i < landing.spheres.size(); ++i)
    contacts.addBody(set, free, ContactGeometry::Sphere(landing.radii.empty() ? landing.radius : landing.radii[i]),
                     Transform(simtk(landing.spheres[i])));
  for (const FixedSphere& f : landing.fixed_spheres)
    contacts.addBody(set, matter.updGround(), ContactGeometry::Sphere(f.radius), Transform(simtk(f.centre)));
  hunt_crossley_force(forces, contacts, set, landing.law);
  system.realizeTopology();

  State state = system.getDefaultState();
  const Eigen::Quaterniond& o = landing.orientation;
  free.setQToFitTransform(state, Transform(Rotation(Quaternion(o.w(), o.x(), o.y(), o.z())), simtk(landing.position)));
  free.setUToFitVelocity(state, SpatialVec(simtk(landing.angular_velocity), simtk(landing.velocity)));
  const std::unique_ptr<Integrator> owned = make_integrator(which, system, accuracy);
  Integrator& integrator = *owned;
  integrator.setAllowInterpolation(interpolate_samples);
  integrator.initialize(state);

  std::vector<SimbodyLandingSample> out;
  const int samples = static_cast<int>(std::lround(duration / interval));
  for (int k = 0; k <= samples; ++k) {
    if (k > 0) {
      const double t = k * interval;
      try {
        // CPodes gives up after its step budget per call (mxstep): call again.
        for (int calls = 0; integrator.getTime() < t && calls < 1000; ++calls) integrator.stepTo(t);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "Simbody %s at accuracy %g gave up at t = %g s: %s\n", simbody_name(which), accuracy,
                     integrator.getTime(), e.what());
      }
      if (integrator.getTime() < t) break;  // given up: the samples so far, the run short
    }
    const State& s = integrator.getState();
    system.realize(s, Stage::Dynamics);
    const SpatialVec& w = system.getRigidBodyForces(s, Stage::Dynamics)[free.getMobilizedBodyIndex()];
    SimbodyLandingSample sample;
    sample.time = s.getTime();
    const Transform& pose = free.getBodyTransform(s);
    const Quaternion q = pose.R().convertRotationToQuaternion();
    sample.orientation = Eigen::Quaterniond(q[0], q[1], q[2], q[3]);
    sample.position = eigen(pose.p());
    sample.velocity = eigen(free.getBodyOriginVelocity(s));
    sample.angular_velocity = eigen(free.getBodyAngularVelocity(s));
    // Gravity acts at the centre of mass (the body's origin): it adds no moment.
    sample.contact.force = eigen(w[1]) + Eigen::Vector3d(0.0, landing.mass * landing.gravity, 0.0);
    sample.contact.moment = eigen(w[0]);
    out.push_back(sample);
  }
  if (counts) *counts = {integrator.getNumStepsTaken(), integrator.getNumRealizations()};
  return out;
}

}  // namespace dropsim::peers
