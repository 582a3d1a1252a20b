// A ForwardTool settings file: the times, accuracy, step bounds and step
// budget of an OpenSim forward run.
#include <cmath>
#include <limits>

#include "dropsim/io/input_file.hpp"
#include "dropsim/io/osim_document.hpp"

namespace dropsim::io {

using osim::Document;
using pugi::xml_node;

ForwardSettings read_forward_setup(const std::string& path) {
  const Document doc(path, read_input_file(path, "an OpenSim setup file"));
  const xml_node tool = doc.doc().child("OpenSimDocument").child("ForwardTool");
  if (!tool) throw InputError(path, "/OpenSimDocument", "must contain a <ForwardTool>");
  ForwardSettings s;
  s.file = path;
  s.initial_time = doc.number_or(tool, "initial_time", s.initial_time);
  s.final_time = doc.number_or(tool, "final_time", s.final_time);
  s.accuracy = doc.number_or(tool, "integrator_error_tolerance", s.accuracy);
  s.min_step = doc.number_or(tool, "minimum_integrator_step_size", s.min_step);
  s.max_step = doc.number_or(tool, "maximum_integrator_step_size", s.max_step);
  // An integer in the file; a double outside int's range would cast to nonsense.
  const double max_steps = doc.number_or(tool, "maximum_number_of_integrator_steps", s.max_steps);
  if (!(max_steps >= 1.0 && max_steps <= std::numeric_limits<int>::max() && max_steps == std::floor(max_steps)))
    throw InputError(path, doc.path(osim::child(tool, "maximum_number_of_integrator_steps")),
                     "maximum_number_of_integrator_steps must be a whole number from 1 to " +
                         std::to_string(std::numeric_limits<int>::max()));
  s.max_steps = static_cast<int>(max_steps);
  if (!(s.final_time > s.initial_time)) throw InputError(path, doc.path(tool), "final_time must be after initial_time");
  if (!(s.accuracy > 0.0)) throw InputError(path, doc.path(tool), "integrator_error_tolerance must be > 0");
  return s;
}

}  // namespace dropsim::io
