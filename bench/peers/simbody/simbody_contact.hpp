// Simbody as the oracle of dropsim's contact: one sphere on the ground at a
// single state (the laws), and a free body on spheres simulated through time.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <vector>

#include "bench/peers/simbody/simbody_integrator.hpp"
#include "dropsim/sim/contact_laws.hpp"

namespace dropsim::peers {

// What Simbody applies to the sphere's body: the force and the moment about
// the sphere's centre (the body's origin), both in the world frame.
struct SimbodyContactWrench {
  Eigen::Vector3d force = Eigen::Vector3d::Zero(), moment = Eigen::Vector3d::Zero();
};

// A free body carrying a sphere of `radius` at its origin, above the ground
// y = 0, in the state given (world velocities). hunt_crossley and hertz go
// through SimTK::HuntCrossleyForce, smooth_hunt_crossley through
// SimTK::SmoothSphereHalfSpaceForce, each set up as OpenSim sets them up (the
// same stiffness, dissipation and friction on both surfaces).
SimbodyContactWrench simbody_sphere_on_ground(const ContactLaw& law, double radius, const Eigen::Vector3d& centre,
                                              const Eigen::Quaterniond& orientation, const Eigen::Vector3d& velocity,
                                              const Eigen::Vector3d& angular_velocity);

// The same with the sphere meeting another sphere of radius `other_radius`
// fixed in the world at `other_centre` instead of the ground: one
// SimTK::HuntCrossleyForce over both surfaces, as OpenSim's HuntCrossleyForce
// pairs two spheres of its geometry.
SimbodyContactWrench simbody_sphere_on_fixed_sphere(const ContactLaw& law, double radius, const Eigen::Vector3d& centre,
                                                    const Eigen::Quaterniond& orientation, const Eigen::Vector3d& velocity,
                                                    const Eigen::Vector3d& angular_velocity, double other_radius,
                                                    const Eigen::Vector3d& other_centre);

// A sphere fixed in the world: on the ground body, as an OpenSim sphere on a welded body is.
struct FixedSphere {
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
  double radius = 0.0;
};

// A free body with its centre of mass at its origin and principal inertia
// along its axes, carrying spheres of one radius at body points, landing under
// gravity -y on the ground y = 0, every surface with `law`.
struct SimbodyLanding {
  ContactLaw law;
  double mass = 1.0, radius = 0.01, gravity = 9.81;
  Eigen::Vector3d principal_inertia = Eigen::Vector3d::Ones();
  std::vector<Eigen::Vector3d> spheres;  // body frame
  std::vector<double> radii;             // per sphere where given, else `radius` for all
  std::vector<FixedSphere> fixed_spheres;  // in the world, in the same contact set
  Eigen::Vector3d position = Eigen::Vector3d::Zero(), velocity = Eigen::Vector3d::Zero(),
                  angular_velocity = Eigen::Vector3d::Zero();  // world
  Eigen::Quaterniond orientation = Eigen::Quaterniond::Identity();
};

// One sample of Simbody's run: the body's state, and the contacts' resultant
// on it (force, and moment about its centre of mass), world frame.
struct SimbodyLandingSample {
  double time = 0.0;
  Eigen::Vector3d position, velocity, angular_velocity;
  Eigen::Quaterniond orientation;
  SimbodyContactWrench contact;
};

// What Simbody's integrator did over the run.
struct SimbodyLandingCounts {
  long steps = 0, realizations = 0;
};

// Simbody's `integrator` at `accuracy`, sampled at every multiple of
// `interval` up to `duration`: stopping exactly there, or, with
// `interpolate_samples`, stepping past and interpolating (Simbody's
// setAllowInterpolation). A run the integrator gives up on returns the
// samples before it: fewer than asked for.
std::vector<SimbodyLandingSample> simbody_landing(const SimbodyLanding& landing, double duration, double interval,
                                                  double accuracy,
                                                  SimbodyIntegrator integrator = SimbodyIntegrator::runge_kutta_merson,
                                                  bool interpolate_samples = false,
                                                  SimbodyLandingCounts* counts = nullptr);

}  // namespace dropsim::peers
