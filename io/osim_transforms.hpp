// OpenSim's joints and coordinate functions as dropsim's spatial transforms:
// which axis each built-in joint's coordinates move, and the functions of one
// coordinate a CustomJoint's TransformAxis may hold.
#pragma once

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "dropsim/io/osim_document.hpp"

namespace dropsim::io::osim {

// Built-in joints as spatial transforms: which axis each coordinate moves, in order.
struct BuiltInJoint {
  const char* type;
  std::vector<std::pair<bool, int>> axes;  // (rotation?, axis 0-2) per coordinate
};
const std::vector<BuiltInJoint>& built_in_joints();
bool is_joint_type(const std::string& tag);

// The function types read_function reads.
const std::set<std::string>& function_types();

// A coordinate function element; InputError naming it where it cannot be read.
CoordinateFunction read_function(const Document& doc, const xml_node& f);

}  // namespace dropsim::io::osim
