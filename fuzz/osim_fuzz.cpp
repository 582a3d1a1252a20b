// libFuzzer harness: any bytes as an OpenSim model file. The reader must refuse
// with InputError or build a model whose kinematics, mass matrix, frozen model
// and scaling plan run without a crash, a sanitizer report or a leak.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "dropsim/io/input_error.hpp"
#include "dropsim/io/osim_reader.hpp"
#include "dropsim/io/osim_scale.hpp"
#include "dropsim/sim/articulated_rigid.hpp"

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
    (void)frozen_model(model.model, q);
  } catch (const std::invalid_argument&) {
    // a model that cannot be frozen (gravity off -y, a sphere on the ground) says so
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
