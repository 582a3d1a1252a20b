// Force-indentation curves (Figure C.4 data) -> HDF5, written atomically.
#pragma once

#include <string>

#include "dropsim/sim/contact_design.hpp"

namespace dropsim::io {

// Datasets /indentation (m), /indentation_relative, /force_hertz,
// /force_smooth_unscaled, /force_smooth_scaled (N), each with a `units`
// attribute; root attributes radius, effective_modulus, cf_unscaled,
// bd_unscaled, cf_scaled, bd_scaled. Throws IoError.
void write_force_curves_hdf5(const std::string& path, const ForceCurves& curves);

}  // namespace dropsim::io
