// Contact law parsing: law name, moduli and combining rule, dissipation.
#include "dropsim/io/contact_spec.hpp"

#include "dropsim/sim/combining.hpp"
#include "dropsim/sim/restitution.hpp"
#include "dropsim/sim/scaling.hpp"

namespace dropsim::io {

namespace {

// `restitution` and `impact_speed`: the target cr and the v- it refers to; the
// law's chi follows (sim/restitution.hpp) and is held as alpha = chi / 1.5.
void parse_restitution(ObjectReader& r, ContactLaw& law, Echo out) {
  law.restitution = r.number("restitution", Bound::fraction);
  law.impact_speed = r.number("impact_speed", Bound::positive);
  law.dissipation = dissipation_for_restitution(law.kind, law.restitution, law.impact_speed);
  out["restitution"] = law.restitution;
  out["impact_speed"] = law.impact_speed;
}

}  // namespace

void parse_contact_law(ObjectReader& r, ContactLaw& law, Echo out) {
  const std::string law_name = r.string("law");
  const auto kind = value_in(contact_law_names, law_name);
  if (!kind)
    r.fail("law", "unknown contact law \"" + law_name + "\"; expected one of " + names_in(contact_law_names));
  law.kind = *kind;
  out["law"] = law_name;

  if (!hertz_family(*kind)) {
    law.stiffness = r.number("stiffness", Bound::positive);
    out["stiffness"] = law.stiffness;
    if (*kind == ContactLawKind::linear_damped) {
      law.damping = r.number("damping", Bound::nonnegative);
      out["damping"] = law.damping;
    }
    return;
  }
  const std::string rule_name = r.optional_string("combining").value_or("sherman");
  const auto rule = combining_rule_from_string(rule_name);
  if (!rule) r.fail("combining", "unknown combining rule \"" + rule_name + "\"; expected " + names_in(combining_rule_names));
  const double stiffness = r.number("stiffness", Bound::positive);
  law.effective_modulus = effective_modulus(*rule, stiffness);
  out["combining"] = rule_name;
  out["stiffness"] = stiffness;
  if (restitution_parameterised(*kind)) {
    if (r.has("dissipation"))
      r.fail("dissipation", law_name + " takes \"restitution\" and \"impact_speed\" instead of a dissipation");
    parse_restitution(r, law, out);
    return;
  }
  if (*kind == ContactLawKind::hunt_crossley || *kind == ContactLawKind::smooth_hunt_crossley) {
    r.exclusive({"dissipation", "restitution"});
    if (*kind == ContactLawKind::hunt_crossley && r.has("restitution")) {
      parse_restitution(r, law, out);
    } else {
      law.dissipation = r.number("dissipation", Bound::nonnegative);
      out["dissipation"] = law.dissipation;
    }
  }
  if (*kind == ContactLawKind::smooth_hunt_crossley) {
    // OpenSim's defaults unless given; all must be > 0 (cf = 0 or bd = 0 make
    // the force's slope or its potential singular).
    law.cf = r.optional_number("cf", Bound::positive).value_or(opensim_default_cf);
    law.bd = r.optional_number("bd", Bound::positive).value_or(opensim_default_bd);
    law.bv = r.optional_number("bv", Bound::positive).value_or(opensim_default_bv);
    out["cf"] = law.cf;
    out["bd"] = law.bd;
    out["bv"] = law.bv;
  }
}

namespace {

struct FrictionKey {
  const char* name;
  double Friction::*field;
  Bound bound;
};
constexpr FrictionKey friction_keys[] = {{"static_friction", &Friction::static_coefficient, Bound::nonnegative},
                                         {"dynamic_friction", &Friction::dynamic_coefficient, Bound::nonnegative},
                                         {"viscous_friction", &Friction::viscous_coefficient, Bound::nonnegative},
                                         {"transition_velocity", &Friction::transition_velocity, Bound::positive}};

}  // namespace

void refuse_friction(const ObjectReader& r) {
  // The raw object, not has(): these keys are no part of the drop form's interface.
  for (const FrictionKey& k : friction_keys)
    if (r.raw_object().contains(k.name))
      r.fail(k.name, "the drop form moves only vertically, where friction does no work; give friction to the "
                     "contacts of the multi-contact form (\"bodies\" and \"contacts\")");
}

void parse_friction(ObjectReader& r, Friction& friction, Echo out) {
  for (const FrictionKey& k : friction_keys) {
    if (!r.has(k.name)) continue;  // OpenSim's default; echoed only when given
    friction.*k.field = r.number(k.name, k.bound);
    out[k.name] = friction.*k.field;
  }
  // Near zero slip the force is F_n (2 mu_s - mu_d) / v_t per unit slip: with
  // less static than half the dynamic friction it points along the slip.
  if (2.0 * friction.static_coefficient < friction.dynamic_coefficient)
    r.fail(r.has("static_friction") ? "static_friction" : "dynamic_friction",
           "static_friction must be at least half the dynamic_friction (got " +
               std::to_string(friction.static_coefficient) + " and " + std::to_string(friction.dynamic_coefficient) +
               "): below that the regularised law pushes a slowly slipping body along and adds energy");
}

}  // namespace dropsim::io

namespace dropsim::io {

void resolve_scaled_smoothing(ObjectReader& ref, ObjectReader& contact, double radius_a, double radius_b,
                              nlohmann::json& typed) {
  const bool scale = contact.optional_boolean("scale_smoothing").value_or(false);
  const bool smooth = typed.contains("law") && typed["law"] == to_string(ContactLawKind::smooth_hunt_crossley);
  struct Key {
    const char* name;
    double fallback;
    double (*carry)(double, double, double);
  };
  for (const Key& k : {Key{"cf", opensim_default_cf, scale_cf}, Key{"bd", opensim_default_bd, scale_bd},
                       Key{"bv", opensim_default_bv, scale_bv}}) {
    if (!smooth) {
      if (ref.has(k.name)) ref.fail(k.name, "smoothing applies to the smooth_hunt_crossley law only");
      continue;
    }
    if (contact.has(k.name) && (ref.has(k.name) || scale))
      contact.fail(k.name, std::string("give the reference ") + k.name +
                               " inside \"scaled_from\" (it is scaled from there), not both");
    if (contact.has(k.name)) continue;  // the target's own value, taken as typed
    const double value = ref.optional_number(k.name, Bound::positive).value_or(k.fallback);
    typed[k.name] = scale ? k.carry(value, radius_a, radius_b) : value;
  }
  if (scale && !smooth) contact.fail("scale_smoothing", "applies to the smooth_hunt_crossley law only");
}

}  // namespace dropsim::io
