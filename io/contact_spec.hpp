// Parsing one contact's law and parameters; shared by the drop form and the multi-contact form.
#pragma once

#include <nlohmann/json.hpp>

#include "dropsim/io/json_reader.hpp"
#include "dropsim/sim/contact_laws.hpp"

namespace dropsim::io {

// Keys a contact law takes besides those of its owner (`law`, `stiffness`,
// `combining`, `dissipation`, `damping`, ...). Reads them from `r`, fills
// `law` (radius must already be set) and writes the resolved values to `out`.
// Does not reject unknown keys: the caller does, after reading its own.
void parse_contact_law(ObjectReader& r, ContactLaw& law, Echo out);

// A multi-contact contact's friction: `static_friction`, `dynamic_friction`,
// `viscous_friction` (s/m) and `transition_velocity` (m/s), OpenSim's names and
// defaults (docs/physics.md#friction). Writes the given ones to `out`.
void parse_friction(ObjectReader& r, Friction& friction, Echo out);
// The drop form moves only vertically, where friction does no work: refuses its keys with that sentence.
void refuse_friction(const ObjectReader& r);

// A reference model for `scaled_from` docs/physics.md#size-scaling, #scaling-the-dissipation.
struct ScaledFrom {
  double mass = 0.0, radius = 0.0, stiffness = 0.0, dissipation = 0.0;
  int spheres = 0;
};

// `scaled_from`'s optional smoothing (cf, bd, bv; OpenSim's defaults when
// absent) for a smooth_hunt_crossley contact, carried from radius_a to
// radius_b when the contact says `"scale_smoothing": true` (docs/physics.md#scaling-the-smoothing-parameters,
// docs/physics.md#scaling-the-smoothing-parameters) and taken as they are otherwise. Writes the values into `typed`
// (the contact resolved to its typed form). Reads from `ref` and `contact`.
void resolve_scaled_smoothing(ObjectReader& ref, ObjectReader& contact, double radius_a, double radius_b,
                              nlohmann::json& typed);

}  // namespace dropsim::io
