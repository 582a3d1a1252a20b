// Scale plan per contact, then a byte splice of the file: diff shows only what changed.
#include "dropsim/io/osim_scale.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>

#include "dropsim/io/input_error.hpp"
#include "dropsim/sim/combining.hpp"
#include "dropsim/sim/format.hpp"
#include "dropsim/sim/scaling.hpp"

namespace dropsim::io {

namespace {

// Two values this close are one number up to the rounding of the scaling arithmetic:
// the file keeps its own text (scaling by a factor of one changes no byte).
bool same_value(double a, double b) { return std::abs(a - b) <= 1e-13 * std::max(std::abs(a), std::abs(b)); }

// The shortest text that reads back as the same double: a reread gives the
// scaled value exactly (its last digits may show the scaling's rounding).
std::string written(double v) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
  return std::string(buffer, result.ptr);
}

}  // namespace

int scaled_sphere_count(const OsimModel& model) {
  const auto& contacts = model.model.contacts;
  return static_cast<int>(std::count_if(contacts.begin(), contacts.end(), [](const ContactPair& c) { return !c.between_spheres(); }));
}

ScaleReference reference_from_model(const OsimModel& model, const std::optional<std::string>& contact) {
  const auto& contacts = model.model.contacts;
  const auto supports = [](const ContactPair& c) { return !c.between_spheres(); };
  auto it = std::find_if(contacts.begin(), contacts.end(), supports);
  if (it == contacts.end()) throw InputError(model.file, "/OpenSimDocument/Model/ForceSet", "the reference model has no sphere on a half-space");
  if (contact) {
    it = std::find_if(contacts.begin(), contacts.end(), [&](const ContactPair& c) { return c.name == *contact; });
    if (it == contacts.end()) throw InputError(model.file, "/OpenSimDocument/Model/ForceSet", "has no contact named " + *contact);
    if (!supports(*it)) throw InputError(model.file, "/OpenSimDocument/Model/ForceSet", "contact " + *contact + " is between two spheres; scale from a sphere on a half-space");
  }
  const ContactPair& c = *it;
  ScaleReference r;
  r.source = model.file + " (contact " + c.name + ")";
  r.effective_modulus = c.law.effective_modulus;
  r.dissipation = c.law.dissipation;
  r.radius = c.law.radius;
  r.mass = model.model.total_mass();
  r.spheres = scaled_sphere_count(model);
  if (c.law.kind == ContactLawKind::smooth_hunt_crossley) {
    r.cf = c.law.cf;
    r.bd = c.law.bd;
    r.bv = c.law.bv;
  }
  return r;
}

ScalePlan plan_scaling(const OsimModel& target, const ScaleReference& reference, const ScaleOptions& options) {
  ScalePlan plan;
  const int n_b = scaled_sphere_count(target);
  const SphereSupport a{reference.mass, reference.spheres, reference.radius};
  // Every surface of a parameter set gets one value per element; contacts sharing a set must agree.
  std::map<std::pair<const OsimParameterSet*, std::string>, double> wanted;
  const auto set_value = [&](const OsimParameterSet& set, const std::string& element, double value) {
    const OsimParameter* p = set.find(element);
    if (!p) return;
    const auto key = std::make_pair(&set, element);
    const auto it = wanted.find(key);
    if (it != wanted.end()) {
      if (!same_value(it->second, value))
        throw InputError(target.file, set.path,
                         "its " + element + " would need two values (" + significant(it->second, 6) + " and " +
                             significant(value, 6) + ") for spheres of different radii; give each sphere its own ContactParameters");
      return;
    }
    wanted[key] = value;
    if (!same_value(p->value, value)) plan.edits.push_back({element, p->site, p->value, value, set.path});
  };
  for (const OsimContactForce& force : target.forces) {
    for (const int ci : force.contacts) {
      const ContactPair& c = target.model.contacts[static_cast<std::size_t>(ci)];
      if (c.between_spheres()) continue;  // the supports set the parameters; sphere pairs share them
      const SphereSupport b{target.model.total_mass(), n_b, c.law.radius};
      const double e_star = scale_effective_modulus(reference.effective_modulus, a, b);
      const double alpha = options.dissipation ? scale_dissipation(reference.dissipation, reference.radius, c.law.radius)
                                               : reference.dissipation;
      // OpenSim types one modulus per surface; both surfaces get it, Sherman's rule halves it to E*.
      const double typed = surface_modulus(CombiningRule::sherman, e_star);
      std::string line = c.name + ": R " + significant(c.law.radius, 4) + " m, stiffness " + significant(typed, 6) +
                         " (E* " + significant(e_star, 6) + " Pa), dissipation " + significant(alpha, 6) + " s/m";
      for (const OsimParameterSet& set : force.sets) {
        const bool involved = force.type == "SmoothSphereHalfSpaceForce" ||
                              std::any_of(set.geometry.begin(), set.geometry.end(), [&](const std::string& g) {
                                return g == target.model.spheres[static_cast<std::size_t>(c.sphere)].name ||
                                       g == target.model.half_spaces[static_cast<std::size_t>(c.half_space)].name;
                              });
        if (!involved) continue;
        set_value(set, "stiffness", typed);
        set_value(set, "dissipation", alpha);
        if (options.smoothing && force.type == "SmoothSphereHalfSpaceForce") {
          const double cf = scale_cf(reference.cf, reference.radius, c.law.radius);
          const double bd = scale_bd(reference.bd, reference.radius, c.law.radius);
          const double bv = scale_bv(reference.bv, reference.radius, c.law.radius);
          set_value(set, "constant_contact_force", cf);
          set_value(set, "hertz_smoothing", bd);
          set_value(set, "hunt_crossley_smoothing", bv);
          line += ", cf " + significant(cf, 6) + " m^2, bd " + significant(bd, 6) + " 1/m, bv " + significant(bv, 6) + " s/m";
        }
      }
      plan.lines.push_back(line);
    }
  }
  return plan;
}

std::string apply_edits(const std::string& bytes, const std::vector<ParameterEdit>& edits, const std::string& comment) {
  struct Splice {
    std::size_t offset, length;
    std::string text;
  };
  std::vector<Splice> splices;
  for (const ParameterEdit& e : edits) {
    if (e.site.present) splices.push_back({e.site.offset, e.site.length, written(e.new_value)});
    else splices.push_back({e.site.offset, 0, e.site.indent + "<" + e.element + ">" + written(e.new_value) + "</" + e.element + ">\n"});
  }
  if (!comment.empty()) {
    // After the line that opens <Model, indented as the line after it.
    const std::size_t model = bytes.find("<Model");
    const std::size_t newline = model == std::string::npos ? std::string::npos : bytes.find('\n', model);
    if (newline != std::string::npos) {
      const std::size_t next = newline + 1;
      std::size_t indent_end = next;
      while (indent_end < bytes.size() && (bytes[indent_end] == ' ' || bytes[indent_end] == '\t')) ++indent_end;
      splices.push_back({next, 0, bytes.substr(next, indent_end - next) + "<!--" + comment + "-->\n"});
    }
  }
  std::stable_sort(splices.begin(), splices.end(), [](const Splice& a, const Splice& b) { return a.offset < b.offset; });
  std::string out;
  std::size_t at = 0;
  for (const Splice& s : splices) {
    out.append(bytes, at, s.offset - at);
    out += s.text;
    at = s.offset + s.length;
  }
  out.append(bytes, at, std::string::npos);
  return out;
}

}  // namespace dropsim::io
