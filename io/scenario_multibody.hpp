// The multi-contact scenario form (docs/interface.md): bodies and contacts -> MultibodyModel.
#pragma once

#include <nlohmann/json.hpp>

#include "dropsim/io/json_reader.hpp"
#include "dropsim/sim/multibody.hpp"

namespace dropsim::io {

// Reads `bodies`, `contacts`, `characteristic_length` and `modes_at` from the
// top-level object; writes their resolved form to `out`. Throws InputError.
void parse_multibody(ObjectReader& top, double gravity, MultibodyModel& model, std::string& modes_at, Echo out);

}  // namespace dropsim::io
