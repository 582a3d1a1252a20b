// Restitution of one Hertz impact with F = Fe (1 + chi xdot), and the damping
// factors of the restitution-parameterised laws (docs/physics.md#restitution).
#pragma once

#include "dropsim/sim/contact_laws.hpp"

namespace dropsim {

// Coefficient of restitution of a single, gravity-free Hertz impact with the
// engine's law F = max(Fe (1 + chi xdot), 0), as a function of the only group it
// depends on, chi * v- (mass and stiffness scale out). Integrated numerically.
double single_impact_restitution(double chi_times_speed);

// The inverse: the chi * v- whose single impact rebounds with restitution cr,
// 0 < cr <= 1 (cr = 1 gives 0).
double chi_times_speed_for_restitution(double restitution);

// chi (s/m) of a law for a target restitution cr at impact speed v-:
// Hunt–Crossley 3 (1 - cr) / (2 v-), Lankarani–Nikravesh 3 (1 - cr^2) / (4 v-),
// Flores 8 (1 - cr) / (5 cr v-), Gonthier (1 - cr^2) / (cr v-),
// Carvalho–Martins 1.5 (1 - cr)(11 - cr) / ((1 + 9 cr) v-), exact_restitution
// the numerical inverse above. Other kinds are a programmer error.
double damping_factor(ContactLawKind kind, double restitution, double impact_speed);

// The equivalent Hunt–Crossley alpha = chi / 1.5 (s/m), as ContactLaw::dissipation holds it.
double dissipation_for_restitution(ContactLawKind kind, double restitution, double impact_speed);

}  // namespace dropsim
