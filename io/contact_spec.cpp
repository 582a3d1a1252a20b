// Contact law parsing: law name, moduli and combining rule, dissipation.
#include "io/contact_spec.hpp"

#include "sim/combining.hpp"

namespace dropsim::io {

namespace {

std::optional<ContactLawKind> law_from_string(const std::string& name) {
  for (auto k : {ContactLawKind::hertz, ContactLawKind::hunt_crossley, ContactLawKind::linear,
                 ContactLawKind::linear_damped})
    if (to_string(k) == name) return k;
  return std::nullopt;
}

bool hertz_family(ContactLawKind k) { return k == ContactLawKind::hertz || k == ContactLawKind::hunt_crossley; }

}  // namespace

void parse_contact_law(ObjectReader& r, ContactLaw& law, nlohmann::json& out) {
  const std::string law_name = r.string("law");
  const auto kind = law_from_string(law_name);
  if (!kind)
    r.fail("law", "unknown contact law \"" + law_name + "\"; expected hertz, hunt_crossley, linear or linear_damped");
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
  if (!rule) r.fail("combining", "unknown combining rule \"" + rule_name + "\"; expected sherman, johnson or none");
  const double stiffness = r.number("stiffness", Bound::positive);
  law.effective_modulus = effective_modulus(*rule, stiffness);
  out["combining"] = rule_name;
  out["stiffness"] = stiffness;
  if (*kind == ContactLawKind::hunt_crossley) {
    law.dissipation = r.number("dissipation", Bound::nonnegative);
    out["dissipation"] = law.dissipation;
  }
}

}  // namespace dropsim::io
