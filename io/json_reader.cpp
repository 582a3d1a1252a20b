// Validated JSON object reading.
#include "dropsim/io/json_reader.hpp"

#include <algorithm>
#include <cmath>

namespace dropsim::io {

std::string show(const nlohmann::json& value) {
  std::string s = value.dump();
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}

namespace {

// Edit distance, for "did you mean" hints on typed keys.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

bool near_miss(const std::string& a, const std::string& b) {
  return a != b && edit_distance(a, b) <= std::max<std::size_t>(1, std::min(a.size(), b.size()) / 3);
}

// Where the parser is, for duplicate-key messages: one frame per open object or array.
struct Frame {
  bool array = false;
  long index = 0;                // arrays: elements completed so far
  std::string key;               // objects: the key being read
  std::set<std::string> keys;    // objects: keys seen
};

std::string pointer(const std::vector<Frame>& frames) {
  std::string p;
  for (const auto& f : frames) p += "/" + (f.array ? std::to_string(f.index) : f.key);
  return p;
}

thread_local KeyLog* key_log = nullptr;

// "/bodies/0" + "mass" -> "/bodies/[]/mass": one pattern per key, whatever the array index.
std::string key_pattern(const std::string& path, std::string_view key) {
  std::string out;
  std::size_t i = 0;
  while (i < path.size()) {
    const std::size_t next = path.find('/', i + 1);
    const std::string segment = path.substr(i + 1, next == std::string::npos ? std::string::npos : next - i - 1);
    const bool index = !segment.empty() && segment.find_first_not_of("0123456789") == std::string::npos;
    out += "/" + (index ? std::string("[]") : segment);
    if (next == std::string::npos) break;
    i = next;
  }
  return out + "/" + std::string(key);
}

}  // namespace

KeyLog* set_key_log(KeyLog* log) {
  KeyLog* previous = key_log;
  key_log = log;
  return previous;
}

nlohmann::json parse_json_document(const std::string& text, const std::string& file) {
  using Event = nlohmann::json::parse_event_t;
  // JSON allows a key twice and nlohmann keeps the last: a pasted block would silently win.
  std::vector<Frame> frames;
  auto element_done = [&] {
    if (!frames.empty() && frames.back().array) ++frames.back().index;
  };
  auto check = [&](int, Event event, nlohmann::json& parsed) {
    switch (event) {
      case Event::object_start: frames.push_back(Frame{}); break;
      case Event::array_start:
        frames.emplace_back();
        frames.back().array = true;
        break;
      case Event::key: {
        Frame& f = frames.back();
        f.key = parsed.get<std::string>();
        if (!f.keys.insert(f.key).second)
          throw InputError(file, pointer(frames), "duplicate key: it is given twice in the same object");
        break;
      }
      case Event::object_end:
      case Event::array_end:
        frames.pop_back();
        element_done();
        break;
      case Event::value: element_done(); break;
    }
    return true;
  };
  try {
    return nlohmann::json::parse(text, check);
  } catch (const nlohmann::json::exception& e) {
    // Drop nlohmann's "[json.exception.parse_error.101] " tag: users need the position and cause.
    std::string why = e.what();
    if (const auto close = why.find("] "); why.rfind("[json.exception.", 0) == 0 && close != std::string::npos)
      why = why.substr(close + 2);
    if (e.id == 406) why += " (numbers must fit in a double)";
    throw InputError(file, "", "malformed JSON: " + why);
  }
}

ObjectReader::ObjectReader(const nlohmann::json& value, std::string path, std::string file)
    : value_(value), path_(std::move(path)), file_(std::move(file)) {
  if (!value_.is_object())
    throw InputError(file_, path_, "must be a JSON object (got " + show(value_) + ")");
  read_.reserve(value_.size());
  known_.reserve(2 * value_.size() + 4);
}

nlohmann::json::const_iterator ObjectReader::find(std::string_view key) const {
  known_.emplace_back(key);
  if (key_log) key_log->asked.insert(key_pattern(path_, key));
  return value_.find(key);
}

bool ObjectReader::has(std::string_view key) const { return find(key) != value_.end(); }

void ObjectReader::fail(std::string_view key, const std::string& rule) const {
  throw InputError(file_, key.empty() ? path_ : path_of(key), rule);
}

const nlohmann::json& ObjectReader::raw(std::string_view key) {
  const auto member = find(key);
  if (member == value_.end()) {
    std::string hint;
    for (const auto& [k, v] : value_.items())
      if (near_miss(k, std::string(key))) hint = " (found \"" + k + "\": a typo?)";
    fail(key, "is required" + hint);
  }
  read_.push_back(&member.key());
  if (key_log) key_log->read.insert(key_pattern(path_, key));
  return *member;
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

double ObjectReader::number(std::string_view key, Bound bound) {
  const auto& v = raw(key);
  if (!v.is_number()) fail(key, "must be a number (got " + show(v) + ")");
  const double x = v.get<double>();
  // The value shown only on failure: printing it on every read was most of a sweep run's parse.
  auto got = [&] { return " (got " + show(v) + ")"; };
  if (!std::isfinite(x)) fail(key, "must be finite" + got());
  if (std::fpclassify(x) == FP_SUBNORMAL) fail(key, "must not be a denormal number" + got());
  const bool ok = bound == Bound::any || (bound == Bound::positive && x > 0.0) ||
                  (bound == Bound::nonnegative && x >= 0.0) || (bound == Bound::fraction && x > 0.0 && x < 1.0);
  if (!ok) fail(key, bound_rule(bound) + got());
  return x;
}

std::optional<double> ObjectReader::optional_number(std::string_view key, Bound bound) {
  if (!has(key)) return std::nullopt;
  return number(key, bound);
}

long ObjectReader::integer(std::string_view key, long min, long max) {
  const auto& v = raw(key);
  if (!v.is_number_integer()) fail(key, "must be a whole number (got " + show(v) + ")");
  const long x = v.get<long>();
  if (x < min || x > max || (v.is_number_unsigned() && v.get<unsigned long>() > static_cast<unsigned long>(max)))
    fail(key, "must lie in [" + std::to_string(min) + ", " + std::to_string(max) + "] (got " + show(v) + ")");
  return x;
}

std::optional<long> ObjectReader::optional_integer(std::string_view key, long min, long max) {
  if (!has(key)) return std::nullopt;
  return integer(key, min, max);
}

std::string ObjectReader::string(std::string_view key) {
  const auto& v = raw(key);
  if (!v.is_string()) fail(key, "must be a string (got " + show(v) + ")");
  return v.get<std::string>();
}

std::optional<std::string> ObjectReader::optional_string(std::string_view key) {
  if (!has(key)) return std::nullopt;
  return string(key);
}

std::optional<bool> ObjectReader::optional_boolean(std::string_view key) {
  if (!has(key)) return std::nullopt;
  const auto& v = raw(key);
  if (!v.is_boolean()) fail(key, "must be true or false (got " + show(v) + ")");
  return v.get<bool>();
}

ObjectReader ObjectReader::object(std::string_view key) { return ObjectReader(raw(key), path_of(key), file_); }

std::optional<ObjectReader> ObjectReader::optional_object(std::string_view key) {
  if (!has(key)) return std::nullopt;
  return object(key);
}

void ObjectReader::exclusive(std::initializer_list<std::string_view> keys) const {
  std::string_view first;
  for (const std::string_view k : keys) {
    if (!has(k)) continue;
    if (!first.empty()) fail(k, "conflicts with \"" + std::string(first) + "\": give one of them, not both");
    first = k;
  }
}

void ObjectReader::mark_all_read() {
  for (auto member = value_.begin(); member != value_.end(); ++member) read_.push_back(&member.key());
}

void ObjectReader::reject_unknown_keys() const {
  for (auto member = value_.begin(); member != value_.end(); ++member) {
    const std::string& key = member.key();
    if (std::find(read_.begin(), read_.end(), &key) != read_.end()) continue;
    std::vector<std::string> asked = known_;  // in order, once each
    std::sort(asked.begin(), asked.end());
    asked.erase(std::unique(asked.begin(), asked.end()), asked.end());
    std::string known, closest;
    for (const auto& k : asked) {
      known += (known.empty() ? "" : ", ") + k;
      if (near_miss(key, k) && (closest.empty() || edit_distance(key, k) < edit_distance(key, closest))) closest = k;
    }
    const std::string guess = closest.empty() ? "a typo?" : "a typo of \"" + closest + "\"?";
    fail(key, "unknown key (" + guess + ")" + (known.empty() ? std::string() : "; expected one of: " + known));
  }
}

}  // namespace dropsim::io
