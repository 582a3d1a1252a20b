// OpenSim Storage reader: header, labels, rows; every malformation is an InputError naming the line.
#include "dropsim/io/storage_reader.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <optional>
#include <sstream>

#include "dropsim/io/input_error.hpp"
#include "dropsim/io/input_file.hpp"

namespace dropsim::io {

namespace {

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::string at_line(std::size_t line) { return "line " + std::to_string(line); }

// Labels: tab-separated where the line has a tab (labels may hold spaces), else space-separated.
std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  if (line.find('\t') != std::string::npos) {
    std::stringstream in(line);
    for (std::string cell; std::getline(in, cell, '\t');)
      if (const std::string t = trimmed(cell); !t.empty()) cells.push_back(t);
  } else {
    std::stringstream in(line);
    for (std::string cell; in >> cell;) cells.push_back(cell);
  }
  return cells;
}

long count_value(const std::string& value, const std::string& path, std::size_t line, const std::string& key) {
  char* end = nullptr;
  errno = 0;
  const long n = std::strtol(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || errno != 0 || n < 0)
    throw InputError(path, at_line(line), key + " must be a count (got \"" + value + "\")");
  return n;
}

}  // namespace

bool is_storage_file(const std::string& path) {
  const auto dot = path.find_last_of('.');
  if (dot == std::string::npos) return false;
  std::string ext = path.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext == "sto" || ext == "mot";
}

Storage parse_storage(const std::string& text, const std::string& path) {
  Storage s;
  std::istringstream in(text);
  std::string raw;
  std::size_t line = 0;
  std::optional<long> rows, columns;
  bool ended = false;
  while (std::getline(in, raw)) {
    ++line;
    const std::string h = trimmed(raw);
    if (h == "endheader") {
      ended = true;
      break;
    }
    const auto eq = h.find('=');
    if (eq == std::string::npos) {
      if (line == 1) s.name = h;
      continue;  // OpenSim writes free text (a description) into headers too
    }
    const std::string key = trimmed(h.substr(0, eq)), value = trimmed(h.substr(eq + 1));
    if (key == "version" && value != "1")
      throw InputError(path, at_line(line), "storage version " + value + " is not read (version=1 is)");
    if (key == "nRows") rows = count_value(value, path, line, key);
    if (key == "nColumns") columns = count_value(value, path, line, key);
    if (key == "inDegrees") {
      if (value != "yes" && value != "no")
        throw InputError(path, at_line(line), "inDegrees must be yes or no (got \"" + value + "\")");
      s.in_degrees = value == "yes";
    }
  }
  if (!ended)
    throw InputError(path, at_line(line), "no \"endheader\" line: an OpenSim storage file's header ends with one");
  std::size_t& labels_line = s.labels_line;
  while (std::getline(in, raw)) {
    ++line;
    if (!trimmed(raw).empty()) {
      s.labels = split(raw);
      labels_line = line;
      break;
    }
  }
  if (s.labels.empty()) throw InputError(path, at_line(line), "no column labels after \"endheader\"");
  if (columns && static_cast<std::size_t>(*columns) != s.labels.size())
    throw InputError(path, at_line(labels_line), "nColumns=" + std::to_string(*columns) + " but the labels line has " +
                                                     std::to_string(s.labels.size()) + " labels");
  s.columns.resize(s.labels.size());
  while (std::getline(in, raw)) {
    ++line;
    if (trimmed(raw).empty()) continue;
    std::istringstream cells(raw);
    std::size_t k = 0;
    for (std::string cell; cells >> cell; ++k) {
      if (k >= s.labels.size())
        throw InputError(path, at_line(line), "ragged row: more than the " + std::to_string(s.labels.size()) +
                                                  " cells of the labels on line " + std::to_string(labels_line));
      char* end = nullptr;
      const double v = std::strtod(cell.c_str(), &end);
      if (*end != '\0')
        throw InputError(path, at_line(line), "cell " + std::to_string(k + 1) + " (" + s.labels[k] +
                                                  ") is not a number (got \"" + cell + "\")");
      s.columns[k].push_back(v);
    }
    if (k < s.labels.size())
      throw InputError(path, at_line(line), "ragged row: " + std::to_string(k) + " cells, the labels on line " +
                                                std::to_string(labels_line) + " are " + std::to_string(s.labels.size()));
    s.row_lines.push_back(line);
  }
  if (rows && static_cast<std::size_t>(*rows) != s.row_lines.size())
    throw InputError(path, at_line(line), "nRows=" + std::to_string(*rows) + " but the file has " +
                                              std::to_string(s.row_lines.size()) + " rows");
  return s;
}

Storage read_storage_file(const std::string& path) {
  return parse_storage(read_input_file(path, "an OpenSim storage file (.sto or .mot)"), path);
}

const std::vector<double>& storage_column(const Storage& s, const std::string& path, const std::string& label) {
  const auto first = std::find(s.labels.begin(), s.labels.end(), label);
  if (first == s.labels.end()) {
    std::string known;
    for (const auto& l : s.labels) known += (known.empty() ? "" : ", ") + l;
    throw InputError(path, at_line(s.labels_line),
                     "no column is labelled \"" + label + "\" (the labels are: " + known + ")");
  }
  if (std::find(first + 1, s.labels.end(), label) != s.labels.end())
    throw InputError(path, at_line(s.labels_line), "two columns are labelled \"" + label + "\": the choice is ambiguous");
  return s.columns[static_cast<std::size_t>(first - s.labels.begin())];
}

}  // namespace dropsim::io
