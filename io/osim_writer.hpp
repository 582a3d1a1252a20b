// ContactDescription -> OpenSim 4 model XML (beside the .sto writer: dropsim's OpenSim outputs).
#pragma once

#include <string>

#include "dropsim/sim/contact_design.hpp"

namespace dropsim::io {

// The contact geometry (a ground half space whose normal is +y, one sphere per
// contact on a body "/bodyset/body", spaced along x) and, per sphere, a
// HuntCrossleyForce and a SmoothSphereHalfSpaceForce carrying the values. Use
// one kind of force, not both: together they double the contact.
std::string osim_contact_xml(const ContactDescription& description);

}  // namespace dropsim::io
