// The contact part of an OpenSim model: its ContactGeometrySet, and the
// HuntCrossleyForce and SmoothSphereHalfSpaceForce elements as the contact
// pairs OpenSim makes, with OpenSim's defaults for absent elements
// (docs/interface.md#opensim-models).
#pragma once

#include <functional>
#include <map>
#include <string>

#include "dropsim/io/osim_document.hpp"

namespace dropsim::io::osim {

// What the structure reader resolved, for geometry to attach to.
struct FrameLookup {
  // A socket's frame from the component at `from`; a body (or the ground) by name.
  std::function<Attachment(const xml_node& referrer, const std::string& socket, const std::string& from)> frame;
  std::function<int(const xml_node& referrer, const std::string& name)> body;
};

// Reads the geometry and the contact forces of model node `m` into `out`
// (spheres, half-spaces, contacts, forces); every other force is counted by
// type into `skipped`.
void read_contact(const Document& doc, const xml_node& m, const FrameLookup& frames, OsimModel& out,
                  std::map<std::string, int>& skipped);

}  // namespace dropsim::io::osim
