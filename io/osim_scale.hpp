// Scaling an OpenSim model's contact parameters with the size-scaling laws and
// writing the file back with only those elements changed
// (docs/physics.md#size-scaling, docs/interface.md#opensim-models).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dropsim/io/osim_reader.hpp"

namespace dropsim::io {

// The reference a model is scaled from: its E* (Pa), alpha (s/m), sphere radius,
// sphere count and mass; smoothing when the target's smoothing is scaled too.
struct ScaleReference {
  std::string source;  // for the comment: a file and contact, or "numbers"
  double effective_modulus = 0.0, dissipation = 0.0, radius = 0.0, mass = 0.0;
  int spheres = 0;
  double cf = opensim_default_cf, bd = opensim_default_bd, bv = opensim_default_bv;
};

// The spheres the scaling laws count: those on a half-space (sphere pairs share their parameters).
int scaled_sphere_count(const OsimModel& model);

// The reference taken from a model: the named contact, or its first sphere on a half-space.
ScaleReference reference_from_model(const OsimModel& model, const std::optional<std::string>& contact);

// One element to set: its site in the file and the new value.
struct ParameterEdit {
  std::string element;
  TextSite site;
  double old_value = 0.0, new_value = 0.0;
  std::string where;  // the parameter set's path, for the report
};

struct ScalePlan {
  std::vector<ParameterEdit> edits;  // only values that change
  std::vector<std::string> lines;    // what was scaled from what, per contact
};

// What follows the radius besides E*: as `dropsim scale`, the reference's alpha
// is taken as it is unless `dissipation` (alpha ~ R^-1/2), and the smoothing
// constants are left alone unless `smoothing` (cf ~ R^2, bd ~ 1/R, bv ~ R^-1/2).
struct ScaleOptions {
  bool dissipation = false;
  bool smoothing = false;
};

// The target's own mass, sphere count and each sphere's radius against the
// reference: E*_b, alpha_b (and cf, bd, bv) per contact, written as OpenSim's
// typed values. Throws InputError where one ContactParameters would need two
// different values.
ScalePlan plan_scaling(const OsimModel& target, const ScaleReference& reference, const ScaleOptions& options);

// The file's bytes with the edits applied (values in the shortest form that
// reads back exactly; absent elements inserted) and `comment` after the
// <Model> line. No edits and no comment: the bytes unchanged.
std::string apply_edits(const std::string& bytes, const std::vector<ParameterEdit>& edits, const std::string& comment);

}  // namespace dropsim::io
