// OpenSim 4 model XML for a scaled contact parameter set (dropsim scale --osim).
#include "dropsim/io/osim_writer.hpp"

#include <sstream>

#include "dropsim/sim/format.hpp"

namespace dropsim::io {

namespace {

// Seventeen significant digits: the text reads back as the same double.
std::string num(double v) { return significant(v, 17); }

}  // namespace

std::string osim_contact_xml(const ContactDescription& d) {
  const ContactParameters& p = d.parameters;
  std::ostringstream x;
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n"
    << "<!-- dropsim scale: M = " << num(p.support.mass) << " kg on " << p.support.spheres
    << " spheres of R = " << num(p.support.radius) << " m; xh at rest = " << num(d.indentation_relative)
    << ". Keep either the HuntCrossleyForce or the SmoothSphereHalfSpaceForce elements, not both. -->\n"
    << "<OpenSimDocument Version=\"40000\">\n  <Model name=\"dropsim_scaled_contact\">\n"
    << "    <ContactGeometrySet name=\"contactgeometryset\">\n      <objects>\n"
    << "        <ContactHalfSpace name=\"ground_contact\">\n"
    << "          <socket_frame>/ground</socket_frame>\n          <location>0 0 0</location>\n"
    << "          <orientation>0 0 -1.5707963267948966</orientation>\n        </ContactHalfSpace>\n";
  for (int i = 1; i <= p.support.spheres; ++i)
    x << "        <ContactSphere name=\"sphere_" << i << "\">\n"
      << "          <socket_frame>/bodyset/body</socket_frame>\n"
      << "          <location>" << num(3.0 * (i - 1) * p.support.radius) << " 0 0</location>\n"
      << "          <orientation>0 0 0</orientation>\n"
      << "          <radius>" << num(p.support.radius) << "</radius>\n        </ContactSphere>\n";
  x << "      </objects>\n      <groups />\n    </ContactGeometrySet>\n"
    << "    <ForceSet name=\"forceset\">\n      <objects>\n";
  for (int i = 1; i <= p.support.spheres; ++i)
    x << "        <HuntCrossleyForce name=\"contact_" << i << "\">\n"
      << "          <HuntCrossleyForce::ContactParametersSet name=\"contact_parameters\">\n"
      << "            <objects>\n              <HuntCrossleyForce::ContactParameters>\n"
      << "                <geometry>sphere_" << i << " ground_contact</geometry>\n"
      << "                <stiffness>" << num(p.stiffness) << "</stiffness>\n"
      << "                <dissipation>" << num(p.dissipation) << "</dissipation>\n"
      << "                <static_friction>0</static_friction>\n                <dynamic_friction>0</dynamic_friction>\n"
      << "                <viscous_friction>0</viscous_friction>\n"
      << "              </HuntCrossleyForce::ContactParameters>\n            </objects>\n            <groups />\n"
      << "          </HuntCrossleyForce::ContactParametersSet>\n"
      << "          <transition_velocity>0.01</transition_velocity>\n        </HuntCrossleyForce>\n";
  for (int i = 1; i <= p.support.spheres; ++i)
    x << "        <SmoothSphereHalfSpaceForce name=\"smooth_contact_" << i << "\">\n"
      << "          <socket_sphere>/contactgeometryset/sphere_" << i << "</socket_sphere>\n"
      << "          <socket_half_space>/contactgeometryset/ground_contact</socket_half_space>\n"
      << "          <stiffness>" << num(p.stiffness) << "</stiffness>\n"
      << "          <dissipation>" << num(p.dissipation) << "</dissipation>\n"
      << "          <static_friction>0</static_friction>\n          <dynamic_friction>0</dynamic_friction>\n"
      << "          <viscous_friction>0</viscous_friction>\n          <transition_velocity>0.01</transition_velocity>\n"
      << "          <constant_contact_force>" << num(p.cf) << "</constant_contact_force>\n"
      << "          <hertz_smoothing>" << num(p.bd) << "</hertz_smoothing>\n"
      << "          <hunt_crossley_smoothing>" << num(p.bv) << "</hunt_crossley_smoothing>\n"
      << "        </SmoothSphereHalfSpaceForce>\n";
  x << "      </objects>\n      <groups />\n    </ForceSet>\n  </Model>\n</OpenSimDocument>\n";
  return x.str();
}

}  // namespace dropsim::io
