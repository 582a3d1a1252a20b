// libFuzzer harness: any bytes as an OpenSim model file. The reader must refuse
// with InputError or build a model whose kinematics, mass matrix, rigid models,
// their stances and scaling plan run without a crash, a sanitizer report or a leak.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "dropsim/io/input_error.hpp"
#include "dropsim/io/osim_reader.hpp"
#include "dropsim/io/osim_scale.hpp"
#include "dropsim/sim/articulated_rigid.hpp"
#include "dropsim/sim/articulated_stance.hpp"
#include "dropsim/sim/model_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dropsim;
  io::OsimModel model;
  try {
    model = io::read_osim_bytes("fuzz.osim", std::string(reinterpret_cast<const char*>(data), size));
  } catch (const io::InputError&) {
    return 0;  // refused, with a sentence: what bad input should get
  }
  const Eigen::VectorXd q = model.model.default_coordinates();
  (void)joint_space_mass_matrix(model.model, q);
  try {
    // Both rigid models and their stances: what inspect and osim drop build.
    (void)vertical_model(model.model, q, 0.25);
    (void)analyse_frozen(model.model, q);
  } catch (const ModelError&) {
    // a model that cannot be made rigid (gravity off -y, no mass, nothing under it) says so
  }
  if (!model.model.contacts.empty()) {
    try {
      const io::ScalePlan plan = io::plan_scaling(model, io::reference_from_model(model, std::nullopt), {true, true});
      (void)io::apply_edits(model.bytes, plan.edits, " fuzz ");
    } catch (const io::InputError&) {
    }
  }
  return 0;
}
