// An OpenSim XML file open for reading: its bytes (for line numbers and text
// offsets), the pugixml document, element paths for messages, numbers read
// with the rule they break named; component paths as OpenSim resolves them.
#pragma once

#include <Eigen/Geometry>
#include <pugixml.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "dropsim/io/input_error.hpp"
#include "dropsim/io/osim_reader.hpp"

namespace dropsim::io::osim {

using pugi::xml_node;

// OpenSim writes some members as Class::member; the member name is what counts.
inline std::string local_name(const xml_node& node) {
  const std::string name = node.name();
  const auto colons = name.rfind("::");
  return colons == std::string::npos ? name : name.substr(colons + 2);
}

inline xml_node child(const xml_node& node, const std::string& name) {
  for (xml_node c = node.first_child(); c; c = c.next_sibling())
    if (c.type() == pugi::node_element && local_name(c) == name) return c;
  return {};
}

inline std::string trimmed(std::string s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

inline std::vector<std::string> words(const std::string& s) {
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
inline std::string component_path(const xml_node& node) {
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

inline std::string resolve_path(const std::string& from, const std::string& path) {
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

inline Eigen::Isometry3d offset_transform(const Eigen::Vector3d& translation, const Eigen::Vector3d& orientation) {
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

}  // namespace dropsim::io::osim
