// Validated JSON object reading.
#include "io/json_reader.hpp"

#include <cmath>

namespace dropsim::io {

std::string show(const nlohmann::json& value) {
  std::string s = value.dump();
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}

ObjectReader::ObjectReader(const nlohmann::json& value, std::string path, std::string file)
    : value_(value), path_(std::move(path)), file_(std::move(file)) {
  if (!value_.is_object())
    throw InputError(file_, path_, "must be a JSON object (got " + show(value_) + ")");
}

bool ObjectReader::has(const std::string& key) const {
  known_.insert(key);
  return value_.contains(key);
}

void ObjectReader::fail(const std::string& key, const std::string& rule) const {
  throw InputError(file_, key.empty() ? path_ : path_of(key), rule);
}

const nlohmann::json& ObjectReader::raw(const std::string& key) {
  if (!has(key)) fail(key, "is required");
  read_.insert(key);
  return value_.at(key);
}

static const char* bound_rule(Bound bound) {
  switch (bound) {
    case Bound::positive: return "must be > 0";
    case Bound::nonnegative: return "must be >= 0";
    case Bound::fraction: return "must lie strictly between 0 and 1";
    case Bound::any: return "";
  }
  return "";
}

double ObjectReader::number(const std::string& key, Bound bound) {
  const auto& v = raw(key);
  if (!v.is_number()) fail(key, "must be a number (got " + show(v) + ")");
  const double x = v.get<double>();
  const std::string got = " (got " + show(v) + ")";
  if (!std::isfinite(x)) fail(key, "must be finite" + got);
  if (std::fpclassify(x) == FP_SUBNORMAL) fail(key, "must not be a denormal number" + got);
  const bool ok = bound == Bound::any || (bound == Bound::positive && x > 0.0) ||
                  (bound == Bound::nonnegative && x >= 0.0) || (bound == Bound::fraction && x > 0.0 && x < 1.0);
  if (!ok) fail(key, bound_rule(bound) + got);
  return x;
}

std::optional<double> ObjectReader::optional_number(const std::string& key, Bound bound) {
  if (!has(key)) return std::nullopt;
  return number(key, bound);
}

long ObjectReader::integer(const std::string& key, long min, long max) {
  const auto& v = raw(key);
  if (!v.is_number_integer()) fail(key, "must be a whole number (got " + show(v) + ")");
  const long x = v.get<long>();
  if (x < min || x > max || (v.is_number_unsigned() && v.get<unsigned long>() > static_cast<unsigned long>(max)))
    fail(key, "must lie in [" + std::to_string(min) + ", " + std::to_string(max) + "] (got " + show(v) + ")");
  return x;
}

std::optional<long> ObjectReader::optional_integer(const std::string& key, long min, long max) {
  if (!has(key)) return std::nullopt;
  return integer(key, min, max);
}

std::string ObjectReader::string(const std::string& key) {
  const auto& v = raw(key);
  if (!v.is_string()) fail(key, "must be a string (got " + show(v) + ")");
  return v.get<std::string>();
}

std::optional<std::string> ObjectReader::optional_string(const std::string& key) {
  if (!has(key)) return std::nullopt;
  return string(key);
}

std::optional<bool> ObjectReader::optional_boolean(const std::string& key) {
  if (!has(key)) return std::nullopt;
  const auto& v = raw(key);
  if (!v.is_boolean()) fail(key, "must be true or false (got " + show(v) + ")");
  return v.get<bool>();
}

ObjectReader ObjectReader::object(const std::string& key) { return ObjectReader(raw(key), path_of(key), file_); }

std::optional<ObjectReader> ObjectReader::optional_object(const std::string& key) {
  if (!has(key)) return std::nullopt;
  return object(key);
}

void ObjectReader::exclusive(const std::vector<std::string>& keys) const {
  std::vector<std::string> present;
  for (const auto& k : keys)
    if (has(k)) present.push_back(k);
  if (present.size() > 1)
    fail(present[1], "conflicts with \"" + present[0] + "\": give one of them, not both");
}

void ObjectReader::mark_all_read() {
  for (const auto& [key, v] : value_.items()) read_.insert(key);
}

void ObjectReader::reject_unknown_keys() const {
  for (const auto& [key, v] : value_.items()) {
    if (read_.count(key)) continue;
    std::string known;
    for (const auto& k : known_) known += (known.empty() ? "" : ", ") + k;
    fail(key, "unknown key (a typo?)" + (known.empty() ? std::string() : "; expected one of: " + known));
  }
}

}  // namespace dropsim::io
