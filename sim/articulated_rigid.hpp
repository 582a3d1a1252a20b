// An articulated model made rigid: every joint below its moving roots locked,
// the moving bodies one composite body, as a multi-contact model dropsim runs
// and analyses — free (the frozen model) or on a vertical slider (the scaling
// paper's drop protocol) (docs/physics.md#articulated-models).
#pragma once

#include <string>

#include "dropsim/sim/articulated.hpp"
#include "dropsim/sim/multibody_model.hpp"

namespace dropsim {

// Bodies held to the ground by welds or locked coordinates stay where q puts
// them and carry their geometry into the world: a half-space on them is a
// fixed plane, a sphere on them a sphere fixed in the world. Every other body
// joins the composite (mass, mass centre, inertia in world axes). Pairs on two
// fixed bodies, or within the composite, never act and are left out.
//
// The frozen model: the composite is a free body, its spheres where q puts
// them, moving as the default speeds of its root joints move it.
// Throws std::invalid_argument for what it cannot represent (a half-space on
// the composite against a fixed sphere; gravity off -y; no mass).
MultibodyModel frozen_model(const ArticulatedModel& model, const Eigen::VectorXd& q);

// The scaling paper's protocol: every coordinate locked but the composite's
// vertical translation, at rest, lifted (or lowered) so that the first surface
// it would touch falling is height_over_radius times that sphere's radius
// below it; that radius is the characteristic length. Pairs that a vertical
// motion never brings together are left out. Throws std::invalid_argument as frozen_model does, and when no
// contact is under the model.
MultibodyModel vertical_model(const ArticulatedModel& model, const Eigen::VectorXd& q, double height_over_radius);

}  // namespace dropsim
