// OpenSim's built-in joints' axes and the coordinate functions dropsim reads.
#include "dropsim/io/osim_transforms.hpp"

#include <algorithm>
#include <stdexcept>

namespace dropsim::io::osim {

const std::vector<BuiltInJoint>& built_in_joints() {
  static const std::vector<BuiltInJoint> joints{
      {"FreeJoint", {{true, 0}, {true, 1}, {true, 2}, {false, 0}, {false, 1}, {false, 2}}},
      {"BallJoint", {{true, 0}, {true, 1}, {true, 2}}},
      {"GimbalJoint", {{true, 0}, {true, 1}, {true, 2}}},
      {"UniversalJoint", {{true, 0}, {true, 1}}},
      {"PinJoint", {{true, 2}}},
      {"SliderJoint", {{false, 0}}},
      {"PlanarJoint", {{true, 2}, {false, 0}, {false, 1}}},
      {"WeldJoint", {}},
  };
  return joints;
}
bool is_joint_type(const std::string& tag) {
  if (tag == "CustomJoint") return true;
  return std::any_of(built_in_joints().begin(), built_in_joints().end(), [&](const BuiltInJoint& j) { return tag == j.type; });
}

const std::set<std::string>& function_types() {
  static const std::set<std::string> types{"Constant", "LinearFunction", "PolynomialFunction", "SimmSpline",
                                           "NaturalCubicSpline", "MultiplierFunction"};
  return types;
}


CoordinateFunction read_function(const Document& doc_, const xml_node& f) {
  const std::string type = local_name(f);
  try {
    if (type == "Constant") return CoordinateFunction::constant(doc_.number_or(f, "value", 0.0));
    if (type == "LinearFunction") {
      const xml_node c = child(f, "coefficients");
      const auto v = c ? doc_.numbers(c, 2) : std::vector<double>{1.0, 0.0};
      return CoordinateFunction::linear(v[0], v[1]);
    }
    if (type == "PolynomialFunction") {
      const xml_node c = child(f, "coefficients");
      if (!c) doc_.fail(f, "a PolynomialFunction needs <coefficients>");
      return CoordinateFunction::polynomial(doc_.numbers(c, words(c.child_value()).size()));
    }
    if (type == "SimmSpline" || type == "NaturalCubicSpline") {
      const xml_node x = child(f, "x"), y = child(f, "y");
      if (!x || !y) doc_.fail(f, "a " + type + " needs <x> and <y>");
      return CoordinateFunction::spline(doc_.numbers(x, words(x.child_value()).size()),
                                        doc_.numbers(y, words(y.child_value()).size()),
                                        type == "SimmSpline" ? CoordinateFunction::SplineEnds::divided_differences
                                                             : CoordinateFunction::SplineEnds::natural);
    }
    if (type == "MultiplierFunction") {
      const xml_node wrapped = child(f, "function");
      xml_node inner;
      for (xml_node c = wrapped.first_child(); c; c = c.next_sibling())
        if (c.type() == pugi::node_element) inner = c;
      if (!inner) doc_.fail(f, "a MultiplierFunction needs a <function>");
      return CoordinateFunction::multiplied(read_function(doc_, inner), doc_.number_or(f, "scale", 1.0));
    }
  } catch (const std::invalid_argument& e) {
    doc_.fail(f, e.what());
  }
  doc_.fail(f, "function type " + type + " is not one dropsim reads (it reads Constant, LinearFunction, PolynomialFunction, SimmSpline, NaturalCubicSpline and MultiplierFunction)");
}


}  // namespace dropsim::io::osim
