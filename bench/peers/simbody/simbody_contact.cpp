// One sphere on the ground through Simbody's own contact forces.
#include "bench/peers/simbody/simbody_contact.hpp"

#include <Simbody.h>

#include "dropsim/sim/combining.hpp"

namespace dropsim::peers {

SimbodyContactWrench simbody_sphere_on_ground(const ContactLaw& law, double radius, const Eigen::Vector3d& centre,
                                              const Eigen::Quaterniond& orientation, const Eigen::Vector3d& velocity,
                                              const Eigen::Vector3d& angular_velocity) {
  using namespace SimTK;
  MultibodySystem system;
  SimbodyMatterSubsystem matter(system);
  GeneralForceSubsystem forces(system);
  GeneralContactSubsystem contacts(system);
  Body::Rigid body(MassProperties(1.0, Vec3(0), UnitInertia(1)));
  MobilizedBody::Free ball(matter.Ground(), Transform(), body, Transform());
  // OpenSim's surfaces share one stiffness, which Simbody combines by Sherman's
  // rule (HuntCrossleyForce) or halves in k = E^(2/3) / 2 (the smoothed force).
  const double stiffness = surface_modulus(CombiningRule::sherman, law.effective_modulus);
  const double alpha = law.kind == ContactLawKind::hertz ? 0.0 : law.dissipation;
  const Friction& f = law.friction;
  // HalfSpace fills x > 0 with outward normal -x; -90 degrees about z puts the ground at y < 0.
  const Transform ground_frame(Rotation(-Pi / 2, ZAxis), Vec3(0));
  if (law.kind == ContactLawKind::smooth_hunt_crossley) {
    SmoothSphereHalfSpaceForce smooth(forces);
    smooth.setParameters(stiffness, alpha, f.static_coefficient, f.dynamic_coefficient, f.viscous_coefficient,
                         f.transition_velocity, law.cf, law.bd, law.bv);
    smooth.setContactSphereBody(ball);
    smooth.setContactSphereLocationInBody(Vec3(0));
    smooth.setContactSphereRadius(radius);
    smooth.setContactHalfSpaceBody(matter.updGround());
    smooth.setContactHalfSpaceFrame(ground_frame);
  } else {
    const ContactSetIndex set = contacts.createContactSet();
    contacts.addBody(set, matter.updGround(), ContactGeometry::HalfSpace(), ground_frame);
    contacts.addBody(set, ball, ContactGeometry::Sphere(radius), Transform());
    HuntCrossleyForce hc(forces, contacts, set);
    for (int i = 0; i < 2; ++i)
      hc.setBodyParameters(ContactSurfaceIndex(i), stiffness, alpha, f.static_coefficient, f.dynamic_coefficient,
                           f.viscous_coefficient);
    hc.setTransitionVelocity(f.transition_velocity);
  }
  system.realizeTopology();
  State state = system.getDefaultState();
  const Quaternion q(orientation.w(), orientation.x(), orientation.y(), orientation.z());
  ball.setQToFitTransform(state, Transform(Rotation(q), Vec3(centre.x(), centre.y(), centre.z())));
  ball.setUToFitVelocity(state, SpatialVec(Vec3(angular_velocity.x(), angular_velocity.y(), angular_velocity.z()),
                                           Vec3(velocity.x(), velocity.y(), velocity.z())));
  system.realize(state, Stage::Dynamics);
  const SpatialVec& w = system.getRigidBodyForces(state, Stage::Dynamics)[ball.getMobilizedBodyIndex()];
  SimbodyContactWrench out;
  out.moment = {w[0][0], w[0][1], w[0][2]};
  out.force = {w[1][0], w[1][1], w[1][2]};
  return out;
}

}  // namespace dropsim::peers
