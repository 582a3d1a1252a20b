// Simbody as the peer of dropsim's body tree: the same ArticulatedModel built
// with Simbody's function-based mobilizers (OpenSim's CustomJoint), uniform
// gravity and one HuntCrossleyForce (or SmoothSphereHalfSpaceForce) per
// contact pair, integrated through time.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "bench/peers/simbody/simbody_integrator.hpp"
#include "dropsim/sim/articulated_model.hpp"

namespace dropsim::peers {

// One sample: the coordinates that are not locked and their rates, in the
// model's order (the tree's state), and the contacts' total force on the
// moving bodies (world).
struct SimbodyTreeSample {
  double time = 0.0;
  Eigen::VectorXd q, u;
  Eigen::Vector3d contact_force = Eigen::Vector3d::Zero();
  std::vector<Eigen::Vector3d> body_forces;  // per body of the model: the contacts' force on it (world)
};

// From each coordinate's default value and speed, sampled every `interval`
// to `duration` (stopping exactly there). Throws std::invalid_argument for a
// contact law Simbody has no force for (only hertz, hunt_crossley and
// smooth_hunt_crossley). A run the integrator gives up on returns the samples
// before it.
std::vector<SimbodyTreeSample> simbody_tree_run(const ArticulatedModel& model, double duration, double interval,
                                                double accuracy,
                                                SimbodyIntegrator integrator = SimbodyIntegrator::runge_kutta_merson);

}  // namespace dropsim::peers
