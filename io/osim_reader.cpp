// The OpenSim model reader on pugixml: frames resolved by component path,
// joints turned into spatial transforms, contact forces into laws with
// OpenSim's defaults for absent elements (docs/interface.md#opensim-models).
#include "dropsim/io/osim_reader.hpp"

#include <Eigen/Eigenvalues>
#include <pugixml.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <iterator>
#include <numbers>
#include <set>
#include <sstream>

#include "dropsim/io/input_error.hpp"
#include "dropsim/io/input_file.hpp"
#include "dropsim/sim/combining.hpp"
#include "dropsim/sim/format.hpp"

namespace dropsim::io {

const OsimParameter* OsimParameterSet::find(const std::string& element) const {
  for (const auto& p : parameters)
    if (p.element == element) return &p;
  return nullptr;
}

double OsimParameterSet::value(const std::string& element) const {
  const OsimParameter* p = find(element);
  if (!p) throw std::out_of_range("no parameter " + element);
  return p->value;
}

namespace {

using pugi::xml_node;

// OpenSim writes some members as Class::member; the member name is what counts.
std::string local_name(const xml_node& node) {
  const std::string name = node.name();
  const auto colons = name.rfind("::");
  return colons == std::string::npos ? name : name.substr(colons + 2);
}

xml_node child(const xml_node& node, const std::string& name) {
  for (xml_node c = node.first_child(); c; c = c.next_sibling())
    if (c.type() == pugi::node_element && local_name(c) == name) return c;
  return {};
}

std::string trimmed(std::string s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  return {std::istream_iterator<std::string>(in), std::istream_iterator<std::string>()};
}

// The open file: its bytes (for line numbers and text offsets) and document.
class Document {
 public:
  Document(std::string file, std::string bytes) : file_(std::move(file)), bytes_(std::move(bytes)) {
    // No end-of-line normalisation: offsets must point into the bytes as they are.
    const unsigned flags = pugi::parse_default & ~pugi::parse_eol;
    const pugi::xml_parse_result result = doc_.load_buffer(bytes_.data(), bytes_.size(), flags);
    if (!result)
      throw InputError(file_, "line " + std::to_string(line_of(static_cast<std::size_t>(result.offset))),
                       std::string("not well-formed XML: ") + result.description());
  }
  const pugi::xml_document& doc() const { return doc_; }
  const std::string& file() const { return file_; }
  const std::string& bytes() const { return bytes_; }

  std::size_t line_of(std::size_t offset) const {
    offset = std::min(offset, bytes_.size());
    return 1 + static_cast<std::size_t>(std::count(bytes_.begin(), bytes_.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
  }
  // "/OpenSimDocument/Model/BodySet/objects/Body[ball]/mass (line 40)"
  std::string path(const xml_node& node) const {
    std::string out;
    for (xml_node n = node; n && n.type() == pugi::node_element; n = n.parent()) {
      std::string part = std::string("/") + n.name();
      const std::string name = n.attribute("name").value();
      if (!name.empty()) part += "[" + name + "]";
      out = part + out;
    }
    return out + " (line " + std::to_string(line_of(static_cast<std::size_t>(node.offset_debug()))) + ")";
  }
  [[noreturn]] void fail(const xml_node& node, const std::string& rule) const { throw InputError(file_, path(node), rule); }

  double number(const xml_node& element) const {
    const std::string text = trimmed(element.child_value());
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v))
      fail(element, "must be a finite number (got \"" + text + "\")");
    return v;
  }
  std::vector<double> numbers(const xml_node& element, std::size_t count) const {
    std::vector<double> out;
    for (const std::string& w : words(element.child_value())) {
      char* end = nullptr;
      const double v = std::strtod(w.c_str(), &end);
      if (*end != '\0' || !std::isfinite(v)) fail(element, "must be " + std::to_string(count) + " finite numbers (got \"" + trimmed(element.child_value()) + "\")");
      out.push_back(v);
    }
    if (out.size() != count)
      fail(element, "must be " + std::to_string(count) + " numbers (got " + std::to_string(out.size()) + ")");
    return out;
  }
  double number_or(const xml_node& parent, const std::string& name, double fallback) const {
    const xml_node e = child(parent, name);
    return e ? number(e) : fallback;
  }
  Eigen::Vector3d vec3_or(const xml_node& parent, const std::string& name, const Eigen::Vector3d& fallback) const {
    const xml_node e = child(parent, name);
    if (!e) return fallback;
    const auto v = numbers(e, 3);
    return {v[0], v[1], v[2]};
  }
  bool boolean_or(const xml_node& parent, const std::string& name, bool fallback) const {
    const xml_node e = child(parent, name);
    if (!e) return fallback;
    const std::string t = trimmed(e.child_value());
    if (t == "true") return true;
    if (t == "false") return false;
    fail(e, "must be true or false (got \"" + t + "\")");
  }
  std::string text_or(const xml_node& parent, const std::string& name, const std::string& fallback = "") const {
    const xml_node e = child(parent, name);
    return e ? trimmed(e.child_value()) : fallback;
  }
  // Where a parameter element's value sits, or where one would be inserted after `anchor`.
  TextSite site(const xml_node& element, const xml_node& anchor) const {
    TextSite s;
    if (element) {
      const xml_node text = element.first_child();
      if (text && text.type() == pugi::node_pcdata) {
        s.present = true;
        s.offset = static_cast<std::size_t>(text.offset_debug());
        s.length = std::string_view(text.value()).size();
        if (bytes_.compare(s.offset, s.length, text.value()) != 0) fail(element, "holds text dropsim cannot rewrite in place");
      } else {
        fail(element, "must hold a number");
      }
      return s;
    }
    // After the line holding the anchor's end: the next newline after its closing tag.
    const std::string closing = std::string("</") + anchor.name() + ">";
    std::size_t at = bytes_.find(closing, static_cast<std::size_t>(anchor.offset_debug()));
    at = at == std::string::npos ? static_cast<std::size_t>(anchor.offset_debug()) : at + closing.size();
    const std::size_t newline = bytes_.find('\n', at);
    s.offset = newline == std::string::npos ? bytes_.size() : newline + 1;
    std::size_t line_start = bytes_.rfind('\n', static_cast<std::size_t>(anchor.offset_debug()));
    line_start = line_start == std::string::npos ? 0 : line_start + 1;
    std::size_t indent_end = line_start;
    while (indent_end < bytes_.size() && (bytes_[indent_end] == ' ' || bytes_[indent_end] == '\t')) ++indent_end;
    s.indent = bytes_.substr(line_start, indent_end - line_start);
    return s;
  }

 private:
  std::string file_, bytes_;
  pugi::xml_document doc_;
};

// Component paths: /ground, /bodyset/ball, /jointset/pin1/block_offset, ...
// Containers (objects, frames, components) are not part of a path.
std::string component_path(const xml_node& node) {
  std::string out;
  for (xml_node n = node; n && n.type() == pugi::node_element; n = n.parent()) {
    const std::string tag = n.name();
    if (tag == "Model" || tag == "OpenSimDocument") break;
    if (tag == "objects" || tag == "frames" || tag == "components") continue;
    std::string name = n.attribute("name").value();
    if (name.empty()) {
      name = local_name(n);
      std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    }
    out = "/" + name + out;
  }
  return out.empty() ? "/" : out;
}

std::string resolve_path(const std::string& from, const std::string& path) {
  std::vector<std::string> parts;
  const auto split = [](const std::string& s, std::vector<std::string>& into) {
    std::stringstream in(s);
    for (std::string p; std::getline(in, p, '/');)
      if (p == "..") {
        if (!into.empty()) into.pop_back();
      } else if (!p.empty() && p != ".") {
        into.push_back(p);
      }
  };
  if (path.empty() || path.front() != '/') split(from, parts);
  split(path, parts);
  std::string out;
  for (const auto& p : parts) out += "/" + p;
  return out.empty() ? "/" : out;
}

Eigen::Isometry3d offset_transform(const Eigen::Vector3d& translation, const Eigen::Vector3d& orientation) {
  Eigen::Isometry3d x = Eigen::Isometry3d::Identity();
  x.linear() = body_fixed_xyz(orientation);
  x.translation() = translation;
  return x;
}

// A frame attached to a body (or the ground) at a fixed transform.
struct Attachment {
  int body = ground_body;
  Eigen::Isometry3d in_body = Eigen::Isometry3d::Identity();
};

struct FrameEntry {
  xml_node node;
  std::optional<Attachment> resolved;  // bodies and ground at once; offsets on demand
  bool resolving = false;
};

// Built-in joints as spatial transforms: which axis each coordinate moves, in order.
struct BuiltInJoint {
  const char* type;
  std::vector<std::pair<bool, int>> axes;  // (rotation?, axis 0-2) per coordinate
};
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

class Reader {
 public:
  Reader(const Document& doc, OsimModel& out) : doc_(doc), out_(out), model_(out.model) {}

  void read() {
    const xml_node root = doc_.doc().child("OpenSimDocument");
    if (!root) fail_root("the root element must be <OpenSimDocument>");
    out_.version = root.attribute("Version").as_int(0);
    const xml_node m = root.child("Model");
    if (!m) doc_.fail(root, "must contain a <Model>");
    model_.name = m.attribute("name").value();
    out_.legacy = !child(m, "JointSet");
    read_gravity(m);
    read_bodies(m);
    read_frames(m);
    read_joints(m);
    order_joints();
    read_geometry(m);
    read_forces(m);
    summarise_skipped(m);
  }

 private:
  [[noreturn]] void fail_root(const std::string& rule) const { throw InputError(doc_.file(), "/", rule); }

  void read_gravity(const xml_node& m) {
    const xml_node g = child(m, "gravity");
    out_.gravity_given = static_cast<bool>(g);
    if (g) {
      const auto v = doc_.numbers(g, 3);
      model_.gravity = {v[0], v[1], v[2]};
    }
  }

  // Bodies: 4.x BodySet, or 2.x/3.x BodySet whose "ground" body is the ground.
  void read_bodies(const xml_node& m) {
    const xml_node set = child(m, "BodySet");
    if (!set) doc_.fail(m, "has no <BodySet>");
    for (xml_node b : child(set, "objects").children("Body")) {
      const std::string name = b.attribute("name").value();
      if (name.empty()) doc_.fail(b, "a body needs a name");
      if (out_.legacy && name == "ground") {
        ground_names_.insert("ground");
        legacy_body_nodes_.push_back({b, ground_body});
        continue;
      }
      ArticulatedBody body;
      body.name = name;
      const xml_node mass = child(b, "mass");
      body.mass = mass ? doc_.number(mass) : 0.0;
      if (!(body.mass >= 0.0)) doc_.fail(mass, "mass must be >= 0 (got " + trimmed(mass.child_value()) + ")");
      body.mass_centre = doc_.vec3_or(b, "mass_center", Eigen::Vector3d::Zero());
      Eigen::Matrix<double, 6, 1> i6 = Eigen::Matrix<double, 6, 1>::Zero();  // xx yy zz xy xz yz
      if (const xml_node inertia = child(b, "inertia")) {
        const auto v = doc_.numbers(inertia, 6);
        for (int k = 0; k < 6; ++k) i6[k] = v[static_cast<std::size_t>(k)];
      } else {
        const char* names[] = {"inertia_xx", "inertia_yy", "inertia_zz", "inertia_xy", "inertia_xz", "inertia_yz"};
        for (int k = 0; k < 6; ++k) i6[k] = doc_.number_or(b, names[k], 0.0);
      }
      body.inertia << i6[0], i6[3], i6[4], i6[3], i6[1], i6[5], i6[4], i6[5], i6[2];
      if (body.mass > 0.0 && Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(body.inertia).eigenvalues().minCoeff() < 0.0)
        doc_.fail(b, "the inertia of body " + name + " is not positive semi-definite");
      body_index_[name] = static_cast<int>(model_.bodies.size());
      legacy_body_nodes_.push_back({b, static_cast<int>(model_.bodies.size())});
      model_.bodies.push_back(body);
    }
    if (const xml_node ground = child(m, "Ground")) {
      const std::string name = ground.attribute("name").value();
      ground_names_.insert(name.empty() ? "ground" : name);
    }
    ground_names_.insert("ground");
  }

  // Frames by component path: ground, bodies, and every PhysicalOffsetFrame.
  void read_frames(const xml_node& m) {
    for (const auto& name : ground_names_) frames_["/" + name] = {{}, Attachment{}, false};
    for (const auto& [name, index] : body_index_) {
      FrameEntry e;
      e.resolved = Attachment{index, Eigen::Isometry3d::Identity()};
      frames_["/bodyset/" + name] = e;
      const xml_node set = child(m, "BodySet");
      const std::string set_name = set.attribute("name").value();
      if (!set_name.empty() && set_name != "bodyset") frames_["/" + set_name + "/" + name] = e;
    }
    std::function<void(const xml_node&)> walk = [&](const xml_node& n) {
      for (xml_node c = n.first_child(); c; c = c.next_sibling()) {
        if (c.type() != pugi::node_element) continue;
        if (local_name(c) == "PhysicalOffsetFrame") frames_[component_path(c)] = {c, std::nullopt, false};
        walk(c);
      }
    };
    walk(m);
  }

  Attachment resolve_frame(const xml_node& referrer, const std::string& socket, const std::string& from) {
    const std::string path = resolve_path(from, socket);
    auto it = frames_.find(path);
    if (it == frames_.end()) {
      // A bare body name, as some files write it.
      const auto body = body_index_.find(socket);
      if (body != body_index_.end()) return {body->second, Eigen::Isometry3d::Identity()};
      if (ground_names_.count(socket)) return {};
      doc_.fail(referrer, "names frame \"" + socket + "\", which is not in the model (looked for " + path + ")");
    }
    FrameEntry& e = it->second;
    if (e.resolved) return *e.resolved;
    if (e.resolving) doc_.fail(e.node, "frames refer to each other in a loop");
    e.resolving = true;
    const xml_node parent = child(e.node, "socket_parent");
    if (!parent) doc_.fail(e.node, "a PhysicalOffsetFrame needs <socket_parent>");
    const Attachment base = resolve_frame(parent, trimmed(parent.child_value()), component_path(e.node));
    const Eigen::Isometry3d offset = offset_transform(doc_.vec3_or(e.node, "translation", Eigen::Vector3d::Zero()),
                                                      doc_.vec3_or(e.node, "orientation", Eigen::Vector3d::Zero()));
    e.resolved = Attachment{base.body, base.in_body * offset};
    e.resolving = false;
    return *e.resolved;
  }

  int body_named(const xml_node& referrer, const std::string& name) {
    if (ground_names_.count(name)) return ground_body;
    const auto it = body_index_.find(name);
    if (it == body_index_.end()) doc_.fail(referrer, "names body \"" + name + "\", which is not in the model");
    return it->second;
  }

  void read_joints(const xml_node& m) {
    if (!out_.legacy) {
      for (xml_node j = child(child(m, "JointSet"), "objects").first_child(); j; j = j.next_sibling())
        if (j.type() == pugi::node_element) read_joint_4x(j);
      return;
    }
    for (const auto& [b, index] : legacy_body_nodes_) {
      xml_node holder = child(b, "Joint");
      if (!holder) holder = child(b, "joint");
      if (!holder) continue;
      for (xml_node j = holder.first_child(); j; j = j.next_sibling())
        if (j.type() == pugi::node_element) read_joint_legacy(j, index);
    }
  }

  void check_joint_type(const xml_node& j) const {
    const std::string tag = local_name(j);
    if (!is_joint_type(tag))
      doc_.fail(j, "joint type " + tag + " is not one dropsim reads (it reads FreeJoint, BallJoint, GimbalJoint, UniversalJoint, PinJoint, SliderJoint, PlanarJoint, WeldJoint and CustomJoint)");
  }

  void read_joint_4x(const xml_node& j) {
    check_joint_type(j);
    ArticulatedJoint joint;
    joint.name = j.attribute("name").value();
    joint.type = local_name(j);
    const std::string here = component_path(j);
    const xml_node parent = child(j, "socket_parent_frame"), child_socket = child(j, "socket_child_frame");
    if (!parent || !child_socket) doc_.fail(j, "a joint needs <socket_parent_frame> and <socket_child_frame>");
    const Attachment p = resolve_frame(parent, trimmed(parent.child_value()), here);
    const Attachment c = resolve_frame(child_socket, trimmed(child_socket.child_value()), here);
    if (c.body == ground_body) doc_.fail(child_socket, "the child frame of a joint must be on a body, not the ground");
    joint.parent = p.body;
    joint.parent_frame = p.in_body;
    joint.child = c.body;
    joint.child_frame = c.in_body;
    std::vector<xml_node> coordinates;
    for (xml_node k : child(j, "coordinates").children("Coordinate")) coordinates.push_back(k);
    finish_joint(j, joint, coordinates);
  }

  void read_joint_legacy(const xml_node& j, int child_body) {
    check_joint_type(j);
    if (child_body == ground_body) doc_.fail(j, "the ground cannot be the child of a joint");
    if (doc_.boolean_or(j, "reverse", false)) doc_.fail(j, "reversed joints are not read");
    ArticulatedJoint joint;
    joint.name = j.attribute("name").value();
    joint.type = local_name(j);
    const xml_node parent = child(j, "parent_body");
    if (!parent) doc_.fail(j, "a joint needs <parent_body>");
    joint.parent = body_named(parent, trimmed(parent.child_value()));
    joint.parent_frame = offset_transform(doc_.vec3_or(j, "location_in_parent", Eigen::Vector3d::Zero()),
                                          doc_.vec3_or(j, "orientation_in_parent", Eigen::Vector3d::Zero()));
    joint.child = child_body;
    joint.child_frame = offset_transform(doc_.vec3_or(j, "location", Eigen::Vector3d::Zero()),
                                         doc_.vec3_or(j, "orientation", Eigen::Vector3d::Zero()));
    std::vector<xml_node> coordinates;
    for (xml_node k : child(child(j, "CoordinateSet"), "objects").children("Coordinate")) coordinates.push_back(k);
    finish_joint(j, joint, coordinates);
  }

  // Coordinates, then the spatial transform: a built-in joint's fixed axes or a CustomJoint's.
  void finish_joint(const xml_node& j, ArticulatedJoint& joint, const std::vector<xml_node>& coordinates) {
    const int joint_index = static_cast<int>(model_.joints.size());
    std::vector<int> indices;
    for (const xml_node& k : coordinates) {
      GeneralisedCoordinate c;
      c.name = k.attribute("name").value();
      if (c.name.empty()) doc_.fail(k, "a coordinate needs a name");
      if (coordinate_index_.count(c.name)) doc_.fail(k, "a second coordinate named " + c.name);
      c.joint = joint_index;
      c.default_value = doc_.number_or(k, "default_value", 0.0);
      c.default_speed = doc_.number_or(k, "default_speed_value", 0.0);
      c.locked = doc_.boolean_or(k, "locked", false);
      c.rotational = doc_.text_or(k, "motion_type", "rotational") != "translational";
      coordinate_index_[c.name] = static_cast<int>(model_.coordinates.size());
      indices.push_back(static_cast<int>(model_.coordinates.size()));
      model_.coordinates.push_back(c);
    }
    if (joint.type == "CustomJoint") {
      read_spatial_transform(j, joint);
    } else {
      const auto& table = built_in_joints();
      const auto it = std::find_if(table.begin(), table.end(), [&](const BuiltInJoint& b) { return joint.type == b.type; });
      if (indices.size() != it->axes.size())
        doc_.fail(j, "a " + joint.type + " has " + std::to_string(it->axes.size()) + " coordinates (the file gives " +
                         std::to_string(indices.size()) + ")");
      for (std::size_t i = 0; i < indices.size(); ++i) {
        TransformAxis axis;
        axis.axis = Eigen::Vector3d::Unit(it->axes[i].second);
        axis.coordinate = indices[i];
        axis.function = CoordinateFunction::linear(1.0, 0.0);
        (it->axes[i].first ? joint.rotations : joint.translations).push_back(axis);
        model_.coordinates[static_cast<std::size_t>(indices[i])].rotational = it->axes[i].first;
      }
    }
    if (joint_for_child_.count(joint.child))
      doc_.fail(j, "body " + model_.bodies[static_cast<std::size_t>(joint.child)].name + " is the child of a second joint (closed loops are not read)");
    joint_for_child_[joint.child] = joint_index;
    model_.joints.push_back(joint);
  }

  void read_spatial_transform(const xml_node& j, ArticulatedJoint& joint) {
    const xml_node st = child(j, "SpatialTransform");
    if (!st) doc_.fail(j, "a CustomJoint needs a <SpatialTransform>");
    int rotations = 0, translations = 0;
    for (xml_node a : st.children()) {
      if (a.type() != pugi::node_element) continue;
      if (local_name(a) != "TransformAxis") doc_.fail(a, "a SpatialTransform holds TransformAxis elements only");
      const std::string name = a.attribute("name").value();
      const bool rotation = name.rfind("rotation", 0) == 0;
      if (!rotation && name.rfind("translation", 0) != 0)
        doc_.fail(a, "a TransformAxis is named rotation1-3 or translation1-3 (got \"" + name + "\")");
      (rotation ? rotations : translations)++;
      TransformAxis axis;
      const xml_node axis_element = child(a, "axis");
      if (!axis_element) doc_.fail(a, "a TransformAxis needs an <axis>");
      axis.axis = doc_.vec3_or(a, "axis", Eigen::Vector3d::UnitX());
      if (!(axis.axis.norm() > 0.0)) doc_.fail(axis_element, "the axis must not be zero");
      axis.axis.normalize();
      const std::vector<std::string> names = words(doc_.text_or(a, "coordinates"));
      if (names.size() > 1) doc_.fail(a, "functions of several coordinates are not read (got " + std::to_string(names.size()) + ")");
      if (names.size() == 1) {
        const auto it = coordinate_index_.find(names[0]);
        if (it == coordinate_index_.end()) doc_.fail(a, "names coordinate \"" + names[0] + "\", which the joint does not have");
        axis.coordinate = it->second;
        model_.coordinates[static_cast<std::size_t>(it->second)].rotational = rotation;
      }
      xml_node f = child(a, "function");
      if (f) {
        xml_node inner;
        for (xml_node c = f.first_child(); c; c = c.next_sibling())
          if (c.type() == pugi::node_element) inner = c;
        f = inner;
      } else {
        for (xml_node c = a.first_child(); c; c = c.next_sibling())
          if (c.type() == pugi::node_element && function_types().count(local_name(c))) f = c;
      }
      // OpenSim: no function with one coordinate moves the axis by the coordinate itself.
      axis.function = f ? read_function(f) : names.empty() ? CoordinateFunction::constant(0.0) : CoordinateFunction::linear(1.0, 0.0);
      if (axis.coordinate < 0 && !axis.function.is_constant()) doc_.fail(a, "a function of no coordinate must be a constant");
      (rotation ? joint.rotations : joint.translations).push_back(axis);
    }
    if (rotations > 3 || translations > 3) doc_.fail(st, "a SpatialTransform has at most three rotations and three translations");
  }

  CoordinateFunction read_function(const xml_node& f) {
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
        return CoordinateFunction::multiplied(read_function(inner), doc_.number_or(f, "scale", 1.0));
      }
    } catch (const std::invalid_argument& e) {
      doc_.fail(f, e.what());
    }
    doc_.fail(f, "function type " + type + " is not one dropsim reads (it reads Constant, LinearFunction, PolynomialFunction, SimmSpline, NaturalCubicSpline and MultiplierFunction)");
  }

  // Parents before children, from the ground out; every body on a joint.
  void order_joints() {
    std::vector<ArticulatedJoint> ordered;
    std::vector<bool> placed(model_.bodies.size(), false), used(model_.joints.size(), false);
    for (bool progress = true; progress;) {
      progress = false;
      for (std::size_t i = 0; i < model_.joints.size(); ++i) {
        const ArticulatedJoint& j = model_.joints[i];
        if (used[i] || (j.parent != ground_body && !placed[static_cast<std::size_t>(j.parent)])) continue;
        used[i] = placed[static_cast<std::size_t>(j.child)] = progress = true;
        ordered.push_back(j);
      }
    }
    for (std::size_t b = 0; b < model_.bodies.size(); ++b)
      if (!placed[b])
        throw InputError(doc_.file(), "/OpenSimDocument/Model/BodySet",
                         "body " + model_.bodies[b].name + " is not connected to the ground by joints");
    // Coordinates keep the file's order; their joint indices follow the new order.
    std::map<std::string, int> position;
    for (std::size_t i = 0; i < ordered.size(); ++i) position[ordered[i].name + "#" + std::to_string(ordered[i].child)] = static_cast<int>(i);
    for (auto& c : model_.coordinates) {
      const ArticulatedJoint& old = model_.joints[static_cast<std::size_t>(c.joint)];
      c.joint = position[old.name + "#" + std::to_string(old.child)];
    }
    model_.joints = std::move(ordered);
  }

  void read_geometry(const xml_node& m) {
    const xml_node set = child(m, "ContactGeometrySet");
    if (!set) return;
    for (xml_node g = child(set, "objects").first_child(); g; g = g.next_sibling()) {
      if (g.type() != pugi::node_element) continue;
      const std::string type = local_name(g), name = g.attribute("name").value();
      if (type != "ContactSphere" && type != "ContactHalfSpace")
        doc_.fail(g, "contact geometry " + type + " is not one dropsim reads (it reads ContactSphere and ContactHalfSpace)");
      if (name.empty()) doc_.fail(g, "contact geometry needs a name");
      Attachment at;
      if (const xml_node frame = child(g, "socket_frame")) {
        at = resolve_frame(frame, trimmed(frame.child_value()), component_path(g));
      } else if (const xml_node body = child(g, "body_name")) {
        at.body = body_named(body, trimmed(body.child_value()));
      } else {
        doc_.fail(g, "contact geometry needs <socket_frame> or <body_name>");
      }
      const Eigen::Isometry3d local = at.in_body * offset_transform(doc_.vec3_or(g, "location", Eigen::Vector3d::Zero()),
                                                                    doc_.vec3_or(g, "orientation", Eigen::Vector3d::Zero()));
      if (type == "ContactSphere") {
        ContactSphereGeometry s;
        s.name = name;
        s.body = at.body;
        s.centre = local.translation();
        const xml_node radius = child(g, "radius");
        if (!radius) doc_.fail(g, "a ContactSphere needs a <radius>");
        s.radius = doc_.number(radius);
        if (!(s.radius > 0.0)) doc_.fail(radius, "the radius must be > 0 (got " + trimmed(radius.child_value()) + ")");
        geometry_[name] = {true, static_cast<int>(model_.spheres.size())};
        model_.spheres.push_back(s);
      } else {
        ContactHalfSpaceGeometry h;
        h.name = name;
        h.body = at.body;
        h.frame = local;
        geometry_[name] = {false, static_cast<int>(model_.half_spaces.size())};
        model_.half_spaces.push_back(h);
      }
    }
  }

  // Reads `element` of `owner` with OpenSim's default when absent; records where it is.
  OsimParameter parameter(const xml_node& owner, const std::string& element, double fallback, const xml_node& anchor,
                          bool positive = false) {
    OsimParameter p;
    p.element = element;
    const xml_node e = child(owner, element);
    p.defaulted = !e;
    p.value = e ? doc_.number(e) : fallback;
    if (e && (positive ? !(p.value > 0.0) : !(p.value >= 0.0)))
      doc_.fail(e, element + " must be " + (positive ? "> 0" : ">= 0") + " (got " + trimmed(e.child_value()) + ")");
    if (!e && positive && !(p.value > 0.0))
      doc_.fail(owner, "has no <" + element + ">, and OpenSim's default " + significant(fallback, 6) + " would make the contact push nothing");
    p.site = doc_.site(e, anchor);
    return p;
  }

  std::pair<bool, int> geometry_named(const xml_node& referrer, const std::string& socket) {
    const std::string name = socket.substr(socket.find_last_of('/') + 1);
    const auto it = geometry_.find(name);
    if (it == geometry_.end()) doc_.fail(referrer, "names contact geometry \"" + socket + "\", which is not in the ContactGeometrySet");
    return it->second;
  }

  // Forces live in the ForceSet, and in 4.x also among the model's own components.
  void read_forces(const xml_node& m) {
    for (const xml_node& list : {child(child(m, "ForceSet"), "objects"), child(m, "components")})
      for (xml_node f = list.first_child(); f; f = f.next_sibling()) {
        if (f.type() != pugi::node_element) continue;
        const std::string type = local_name(f);
        if (type != "HuntCrossleyForce" && type != "SmoothSphereHalfSpaceForce") {
          if (type != "PhysicalOffsetFrame") skipped_[type]++;
        } else if (disabled(f)) {
          skipped_["disabled " + type]++;
        } else {
          OsimContactForce force;
          force.name = f.attribute("name").value();
          force.type = type;
          force.path = doc_.path(f);
          if (type == "HuntCrossleyForce") read_hunt_crossley(f, force);
          else read_smooth(f, force);
          out_.forces.push_back(force);
        }
      }
  }

  bool disabled(const xml_node& f) const {
    return doc_.boolean_or(f, "isDisabled", false) || !doc_.boolean_or(f, "appliesForce", true);
  }

  Friction friction_of(const OsimParameterSet& s, double transition_velocity) const {
    Friction fr;
    fr.static_coefficient = s.value("static_friction");
    fr.dynamic_coefficient = s.value("dynamic_friction");
    fr.viscous_coefficient = s.value("viscous_friction");
    fr.transition_velocity = transition_velocity;
    return fr;
  }

  void check_friction(const xml_node& f, const Friction& fr) const {
    if (fr.acts() && !(fr.transition_velocity > 0.0)) doc_.fail(f, "friction needs transition_velocity > 0");
  }

  // Simbody's HuntCrossleyForce: every two surfaces of the force's geometry on
  // different bodies meet, sphere on half-space and sphere on sphere; each
  // surface brings its own parameters and the pair combines them
  // (docs/physics.md#opensim-contact-pairs, #combining-rules).
  void read_hunt_crossley(const xml_node& f, OsimContactForce& force) {
    force.transition_velocity = doc_.number_or(f, "transition_velocity", 0.01);
    std::vector<std::pair<std::pair<bool, int>, std::size_t>> surfaces;  // geometry, its set
    for (xml_node p : child(child(f, "ContactParametersSet"), "objects").children()) {
      if (p.type() != pugi::node_element) continue;
      if (local_name(p) != "ContactParameters") doc_.fail(p, "a ContactParametersSet holds ContactParameters only");
      OsimParameterSet set;
      set.path = doc_.path(p);
      set.geometry = words(doc_.text_or(p, "geometry"));
      if (set.geometry.empty()) doc_.fail(p, "ContactParameters names no <geometry>");
      const xml_node anchor = child(p, "geometry");
      set.parameters = {parameter(p, "stiffness", 0.0, anchor, true), parameter(p, "dissipation", 0.0, anchor),
                        parameter(p, "static_friction", 0.0, anchor), parameter(p, "dynamic_friction", 0.0, anchor),
                        parameter(p, "viscous_friction", 0.0, anchor)};
      for (const auto& g : set.geometry) surfaces.push_back({geometry_named(anchor, g), force.sets.size()});
      force.sets.push_back(set);
    }
    if (force.sets.empty()) doc_.fail(f, "a HuntCrossleyForce needs ContactParameters");
    const auto body_of = [&](const std::pair<bool, int>& g) {
      return g.first ? model_.spheres[static_cast<std::size_t>(g.second)].body : model_.half_spaces[static_cast<std::size_t>(g.second)].body;
    };
    const auto name_of = [&](const std::pair<bool, int>& g) {
      return g.first ? model_.spheres[static_cast<std::size_t>(g.second)].name : model_.half_spaces[static_cast<std::size_t>(g.second)].name;
    };
    // Every two surfaces on different bodies, in the order listed: a sphere
    // first, then a half-space or a later sphere (two half-spaces make no pair).
    for (std::size_t i = 0; i < surfaces.size(); ++i)
      for (std::size_t j = 0; j < surfaces.size(); ++j) {
        const auto& [first, first_set] = surfaces[i];
        const auto& [second, second_set] = surfaces[j];
        if (!first.first || (second.first && j <= i) || body_of(first) == body_of(second)) continue;
        const OsimParameterSet &a = force.sets[first_set], &b = force.sets[second_set];
        const double ea = a.value("stiffness"), eb = b.value("stiffness");
        const double share = sherman_share(ea, eb);
        const auto mean = [](double x, double y) { return x + y == 0.0 ? 0.0 : 2.0 * x * y / (x + y); };
        ContactPair c;
        c.name = force.name + ":" + name_of(first) + "-" + name_of(second);
        c.sphere = first.second;
        const double r1 = model_.spheres[static_cast<std::size_t>(first.second)].radius;
        if (second.first) {
          const double r2 = model_.spheres[static_cast<std::size_t>(second.second)].radius;
          c.other_sphere = second.second;
          c.law.radius = r1 * r2 / (r1 + r2);  // Hertz between two spheres
        } else {
          c.half_space = second.second;
          c.law.radius = r1;
        }
        c.law.kind = ContactLawKind::hunt_crossley;
        c.law.effective_modulus = sherman_composite(ea, eb);
        c.law.dissipation = share * a.value("dissipation") + (1.0 - share) * b.value("dissipation");
        c.law.friction.static_coefficient = mean(a.value("static_friction"), b.value("static_friction"));
        c.law.friction.dynamic_coefficient = mean(a.value("dynamic_friction"), b.value("dynamic_friction"));
        c.law.friction.viscous_coefficient = mean(a.value("viscous_friction"), b.value("viscous_friction"));
        c.law.friction.transition_velocity = force.transition_velocity;
        check_friction(f, c.law.friction);
        force.contacts.push_back(static_cast<int>(model_.contacts.size()));
        model_.contacts.push_back(c);
      }
    // One pair: it takes the force's name, as the force is that contact.
    if (force.contacts.size() == 1) model_.contacts[static_cast<std::size_t>(force.contacts.front())].name = force.name;
  }

  void read_smooth(const xml_node& f, OsimContactForce& force) {
    const xml_node sphere_socket = child(f, "socket_sphere"), plane_socket = child(f, "socket_half_space");
    if (!sphere_socket || !plane_socket) doc_.fail(f, "a SmoothSphereHalfSpaceForce needs <socket_sphere> and <socket_half_space>");
    const auto sphere = geometry_named(sphere_socket, trimmed(sphere_socket.child_value()));
    const auto plane = geometry_named(plane_socket, trimmed(plane_socket.child_value()));
    if (!sphere.first) doc_.fail(sphere_socket, "socket_sphere must name a ContactSphere");
    if (plane.first) doc_.fail(plane_socket, "socket_half_space must name a ContactHalfSpace");
    // The anchor for inserted elements: the last parameter element the file has.
    xml_node anchor = plane_socket;
    for (const char* e : {"stiffness", "dissipation", "static_friction", "dynamic_friction", "viscous_friction",
                          "transition_velocity", "constant_contact_force", "hertz_smoothing", "hunt_crossley_smoothing"})
      if (const xml_node n = child(f, e)) anchor = n;
    OsimParameterSet set;
    set.path = force.path;
    set.geometry = {model_.spheres[static_cast<std::size_t>(sphere.second)].name, model_.half_spaces[static_cast<std::size_t>(plane.second)].name};
    // OpenSim 4.x's defaults for absent elements.
    set.parameters = {parameter(f, "stiffness", 1.0, anchor, true),
                      parameter(f, "dissipation", 0.0, anchor),
                      parameter(f, "static_friction", 0.0, anchor),
                      parameter(f, "dynamic_friction", 0.0, anchor),
                      parameter(f, "viscous_friction", 0.0, anchor),
                      parameter(f, "transition_velocity", 0.01, anchor),
                      parameter(f, "constant_contact_force", opensim_default_cf, anchor, true),
                      parameter(f, "hertz_smoothing", opensim_default_bd, anchor, true),
                      parameter(f, "hunt_crossley_smoothing", opensim_default_bv, anchor, true)};
    if (child(f, "derivative_smoothing"))
      out_.notes.push_back(force.name + ": derivative_smoothing is obsolete; OpenSim 4 ignores it, and so does dropsim");
    force.transition_velocity = set.value("transition_velocity");
    ContactPair c;
    c.name = force.name;
    c.sphere = sphere.second;
    c.half_space = plane.second;
    c.law.kind = ContactLawKind::smooth_hunt_crossley;
    c.law.radius = model_.spheres[static_cast<std::size_t>(sphere.second)].radius;
    // OpenSim builds k = E^(2/3) / 2 and uses k^(3/2) = E / 2^(3/2): Sherman's rule for two equal surfaces.
    c.law.effective_modulus = effective_modulus(CombiningRule::sherman, set.value("stiffness"));
    c.law.dissipation = set.value("dissipation");
    c.law.cf = set.value("constant_contact_force");
    c.law.bd = set.value("hertz_smoothing");
    c.law.bv = set.value("hunt_crossley_smoothing");
    c.law.friction = friction_of(set, force.transition_velocity);
    check_friction(f, c.law.friction);
    force.sets.push_back(set);
    force.contacts.push_back(static_cast<int>(model_.contacts.size()));
    model_.contacts.push_back(c);
  }

  // One line: everything in the model dropsim does not represent, by type.
  void summarise_skipped(const xml_node& m) {
    for (const char* set : {"ConstraintSet", "ControllerSet", "MarkerSet", "ProbeSet"}) {
      for (xml_node o = child(child(m, set), "objects").first_child(); o; o = o.next_sibling())
        if (o.type() == pugi::node_element) skipped_[local_name(o)]++;
    }
    std::string line;
    for (const auto& [type, count] : skipped_) line += (line.empty() ? "" : ", ") + std::to_string(count) + " " + type;
    out_.skipped = line;
  }

  const Document& doc_;
  OsimModel& out_;
  ArticulatedModel& model_;
  std::set<std::string> ground_names_;
  std::map<std::string, int> body_index_, coordinate_index_;
  std::map<int, int> joint_for_child_;
  std::vector<std::pair<xml_node, int>> legacy_body_nodes_;
  std::map<std::string, FrameEntry> frames_;
  std::map<std::string, std::pair<bool, int>> geometry_;  // name -> (sphere?, index)
  std::map<std::string, int> skipped_;
};

}  // namespace

OsimModel read_osim(const std::string& path) {
  return read_osim_bytes(path, read_input_file(path, "an OpenSim model file"));
}

OsimModel read_osim_bytes(const std::string& name, std::string bytes) {
  const Document doc(name, std::move(bytes));
  OsimModel out;
  out.file = name;
  out.bytes = doc.bytes();
  Reader(doc, out).read();
  return out;
}

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
  s.max_steps = static_cast<int>(doc.number_or(tool, "maximum_number_of_integrator_steps", s.max_steps));
  if (!(s.final_time > s.initial_time)) throw InputError(path, doc.path(tool), "final_time must be after initial_time");
  if (!(s.accuracy > 0.0)) throw InputError(path, doc.path(tool), "integrator_error_tolerance must be > 0");
  if (!(s.max_steps > 0)) throw InputError(path, doc.path(tool), "maximum_number_of_integrator_steps must be > 0");
  return s;
}

}  // namespace dropsim::io
