// Rigid bodies on penalty sphere contacts, all of it: the model, its
// kinematics, energies and equations of motion (each in its own header).
#pragma once

#include "dropsim/sim/kinematics.hpp"
#include "dropsim/sim/multibody_energies.hpp"
#include "dropsim/sim/multibody_model.hpp"
#include "dropsim/sim/multibody_system.hpp"
