// OpenSim model files (.osim, 4.x and the 2.x/3.x layouts) -> ArticulatedModel,
// with what the file typed kept for reports and for rewriting it
// (docs/interface.md#opensim-models).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dropsim/sim/articulated.hpp"

namespace dropsim::io {

// Where a parameter's text is in the file: present, its value's bytes;
// absent, the point and indentation where an element would be inserted.
struct TextSite {
  bool present = false;
  std::size_t offset = 0, length = 0;
  std::string indent;  // absent: the leading whitespace of the line it follows
};

// One contact parameter as the file has it (OpenSim's names).
struct OsimParameter {
  std::string element;  // stiffness, dissipation, ..., constant_contact_force
  double value = 0.0;
  bool defaulted = false;  // absent from the file: OpenSim's default applies
  TextSite site;
};

// One typed parameter set: a SmoothSphereHalfSpaceForce, or one ContactParameters
// of a HuntCrossleyForce, and the geometry it names.
struct OsimParameterSet {
  std::string path;  // element path and line, for messages
  std::vector<std::string> geometry;
  std::vector<OsimParameter> parameters;
  const OsimParameter* find(const std::string& element) const;
  double value(const std::string& element) const;  // throws std::out_of_range when absent
};

struct OsimContactForce {
  std::string name, type;  // type: HuntCrossleyForce or SmoothSphereHalfSpaceForce
  std::string path;
  std::vector<OsimParameterSet> sets;  // HuntCrossleyForce: one per ContactParameters
  double transition_velocity = 0.0;    // m/s
  std::vector<int> contacts;           // into model.contacts
};

struct OsimModel {
  std::string file;
  std::string bytes;  // the file as read: what scaling rewrites
  int version = 0;  // OpenSimDocument Version
  bool legacy = false;  // bodies own their joints (2.x, 3.x)
  ArticulatedModel model;
  bool gravity_given = false;
  std::vector<OsimContactForce> forces;
  std::string skipped;             // one line: what the reader did not model, by type, counted
  std::vector<std::string> notes;  // obsolete elements ignored, and the like
  // What is not physical but OpenSim runs as it is (an inertia no mass
  // distribution has), each with its element path and line.
  std::vector<std::string> warnings;
};

// Throws InputError (file, element path with its line, a sentence) on anything
// it cannot represent, and on malformed XML; IoError when the file cannot be read.
OsimModel read_osim(const std::string& path);
// The same from bytes already in memory; `name` stands for the file in messages.
OsimModel read_osim_bytes(const std::string& name, std::string bytes);

// A ForwardTool settings file: what bounds an OpenSim forward run.
struct ForwardSettings {
  std::string file;
  double initial_time = 0.0, final_time = 1.0;
  double accuracy = 1e-5;       // integrator_error_tolerance
  double min_step = 1e-8, max_step = 1.0;  // s
  int max_steps = 20000;
};
ForwardSettings read_forward_setup(const std::string& path);

}  // namespace dropsim::io
