// Units and sign conventions, stated once for the whole engine.
#pragma once

namespace dropsim {

// SI units throughout. "Up" is +y (OpenSim's convention); gravity acts along -y.
//
// Indentation x of a sphere contact is how far the sphere would pass through
// the other surface if it could: x = -(gap). It is positive in contact and
// negative when open. The indentation rate xdot is positive while compressing.
// Relative indentation is x / R (dimensionless) docs/physics.md#hertz-contact.
//
// For a sphere of radius R whose centre is at height y above the ground plane
// y = 0, the indentation is x = R - y. In the drop test, "height" is the
// height of the lowest sphere point, so x = -height.
inline double indentation_from_gap(double gap) { return -gap; }

constexpr double standard_gravity = 9.80665;  // m/s^2

}  // namespace dropsim
