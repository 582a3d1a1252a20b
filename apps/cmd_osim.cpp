// The `osim` subcommands' shared pieces: posing, scaling references, registration.
#include <cmath>
#include <cstdio>

#include "apps/osim_common.hpp"
#include "dropsim/sim/combining.hpp"
#include "dropsim/sim/format.hpp"

namespace dropsim::app {

Posed pose(io::OsimModel osim, const std::vector<std::string>& coordinates) {
  Posed p{std::move(osim), {}};
  p.q = p.osim.model.default_coordinates();
  for (const std::string& assignment : coordinates) {
    const auto eq = assignment.find('=');
    const std::string name = assignment.substr(0, eq);
    const auto& cs = p.osim.model.coordinates;
    const auto it = std::find_if(cs.begin(), cs.end(), [&](const GeneralisedCoordinate& c) { return c.name == name; });
    char* end = nullptr;
    const double v = eq == std::string::npos ? NAN : std::strtod(assignment.c_str() + eq + 1, &end);
    if (eq == std::string::npos || *end != '\0' || !std::isfinite(v))
      throw io::InputError("--coordinate", assignment, "must be NAME=VALUE with a finite number");
    if (it == cs.end()) throw io::InputError(p.osim.file, "--coordinate " + name, "the model has no coordinate " + name);
    p.q[it - cs.begin()] = v;
  }
  return p;
}

io::OsimModel read_model(const std::string& file) {
  io::OsimModel osim = io::read_osim(file);
  if (!osim.skipped.empty())
    std::fprintf(stderr, "dropsim: %s: warning: not modelled (left out of every analysis): %s\n", file.c_str(),
                 osim.skipped.c_str());
  for (const std::string& w : osim.warnings) std::fprintf(stderr, "dropsim: %s: warning: %s\n", file.c_str(), w.c_str());
  return osim;
}

Posed load_posed(const std::string& file, const std::vector<std::string>& coordinates) {
  return pose(read_model(file), coordinates);
}

void add_model_options(CLI::App* cmd, std::string& file, std::vector<std::string>& coordinates) {
  cmd->add_option("model", file, "OpenSim model file (.osim)")->required();
  cmd->add_option("--coordinate", coordinates, "NAME=VALUE: pose the model with this coordinate value (repeatable)");
}

void add_reference_options(CLI::App* cmd, ReferenceOptions& o) {
  cmd->add_option("--from", o.from, "reference model (.osim)");
  cmd->add_option("--reference-contact", o.reference_contact, "the reference model's contact to scale from (default: its first sphere on a half-space)");
  cmd->add_option("--mass", o.mass, "reference mass, kg (without --from)");
  cmd->add_option("--spheres", o.spheres, "reference sphere count (without --from)");
  cmd->add_option("--radius", o.radius, "reference sphere radius, m (without --from)");
  cmd->add_option("--stiffness", o.stiffness, "reference stiffness as OpenSim types it, Pa (without --from)");
  cmd->add_option("--dissipation", o.dissipation, "reference dissipation, s/m (without --from)");
  cmd->add_flag("--scale-dissipation", o.scale_dissipation, "scale alpha as R^-1/2 (else the reference's alpha as it is)");
  cmd->add_flag("--scale-smoothing", o.scale_smoothing, "scale constant_contact_force, hertz_smoothing, hunt_crossley_smoothing too");
}

io::ScaleReference scale_reference(const ReferenceOptions& o, const std::string& file) {
  io::ScaleReference reference;
  if (!o.from.empty())
    return io::reference_from_model(read_model(o.from), o.reference_contact.empty() ? std::nullopt : std::optional(o.reference_contact));
  const bool finite = std::isfinite(o.mass) && std::isfinite(o.radius) && std::isfinite(o.stiffness) &&
                      std::isfinite(o.dissipation);  // NaN: --dissipation not given
  if (!(finite && o.mass > 0.0 && o.radius > 0.0 && o.stiffness > 0.0 && o.spheres > 0 && o.dissipation >= 0.0))
    throw io::InputError(file, "--from", "give a reference model (--from REF.osim) or all of --mass, --spheres, --radius, --stiffness (OpenSim's typed value) and --dissipation, finite, the first four > 0 and the dissipation >= 0");
  reference.source = "numbers: mass " + significant(o.mass, 6) + " kg, " + std::to_string(o.spheres) + " spheres of " +
                     significant(o.radius, 6) + " m, stiffness " + significant(o.stiffness, 6) + ", dissipation " + significant(o.dissipation, 6);
  reference.mass = o.mass;
  reference.spheres = o.spheres;
  reference.radius = o.radius;
  reference.effective_modulus = effective_modulus(CombiningRule::sherman, o.stiffness);
  reference.dissipation = o.dissipation;
  return reference;
}

Scaled scale_model(const io::OsimModel& target, const ReferenceOptions& o) {
  const io::ScaleReference reference = scale_reference(o, target.file);
  Scaled out;
  out.plan = io::plan_scaling(target, reference, {o.scale_dissipation, o.scale_smoothing});
  std::string comment;
  if (!out.plan.edits.empty()) {
    comment = " dropsim osim scale: contact parameters scaled from " + reference.source + " to this model's mass " +
              significant(target.model.total_mass(), 6) + " kg and sphere count " + std::to_string(io::scaled_sphere_count(target)) +
              " (E* ~ M n^-1 R^-2" + (o.scale_dissipation ? ", alpha ~ R^-1/2" : ", alpha as the reference's") +
              (o.scale_smoothing ? ", cf ~ R^2, bd ~ R^-1, bv ~ R^-1/2" : "") + "):";
    for (const auto& l : out.plan.lines) comment += "\n     " + l;
    comment += "\n";
    // "--" cannot appear inside an XML comment.
    for (std::size_t at; (at = comment.find("--")) != std::string::npos;) comment.replace(at, 2, "- -");
  }
  out.bytes = io::apply_edits(target.bytes, out.plan.edits, comment);
  return out;
}

void add_osim_command(CLI::App& app, Runner& run) {
  CLI::App* osim = app.add_subcommand("osim", "OpenSim models: inspect, scale and write back their contact; contact modes; the paper's drop; scenarios");
  osim->require_subcommand(1);
  add_osim_inspect(osim, run);
  add_osim_scale(osim, run);
  add_osim_modes(osim, run);
  add_osim_drop(osim, run);
  add_osim_run(osim, run);
  add_osim_scenario(osim, run);
}

}  // namespace dropsim::app
