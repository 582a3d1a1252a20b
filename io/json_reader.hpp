// Validated reading of one JSON object: every key read is checked, every key not read is an error.
#pragma once

#include <nlohmann/json.hpp>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dropsim/io/input_error.hpp"

namespace dropsim::io {

// Test hook: while a KeyLog is installed on the calling thread, every
// ObjectReader reports each key it is asked about (`has`, `exclusive`, the
// optional readers) and each key it consumes, as a JSON path with array
// indices folded to "[]" ("/bodies/[]/inertia"). The interface test compares
// the consumed keys with docs/interface.md and the JSON Schema. Off (one
// pointer test per key) unless a test installs a log.
struct KeyLog {
  std::set<std::string> asked, read;
};
// Installs `log` for this thread (nullptr: off); returns the previous one.
KeyLog* set_key_log(KeyLog* log);

// Rules a number may have to obey; each names itself in the error message.
enum class Bound { any, positive, nonnegative, fraction /* (0, 1) */ };

class ObjectReader {
 public:
  // Throws InputError unless `value` is a JSON object.
  ObjectReader(const nlohmann::json& value, std::string path, std::string file);

  bool has(std::string_view key) const;
  std::string path_of(std::string_view key) const { return path_ + "/" + std::string(key); }
  const std::string& path() const { return path_; }
  const std::string& file() const { return file_; }

  double number(std::string_view key, Bound bound);
  std::optional<double> optional_number(std::string_view key, Bound bound);
  long integer(std::string_view key, long min, long max);
  std::optional<long> optional_integer(std::string_view key, long min, long max);
  std::string string(std::string_view key);
  std::optional<std::string> optional_string(std::string_view key);
  std::optional<bool> optional_boolean(std::string_view key);
  ObjectReader object(std::string_view key);
  std::optional<ObjectReader> optional_object(std::string_view key);
  const nlohmann::json& raw(std::string_view key);  // marks the key as read
  const nlohmann::json& raw_object() const { return value_; }

  // At most one of `keys` may be present.
  void exclusive(std::initializer_list<std::string_view> keys) const;
  void mark_all_read();
  // Throws for the first key that was never read: a typo must not pass silently.
  void reject_unknown_keys() const;

  [[noreturn]] void fail(std::string_view key, const std::string& rule) const;

 private:
  // The member `key`, or end(); notes that the parser asked for it.
  nlohmann::json::const_iterator find(std::string_view key) const;

  const nlohmann::json& value_;
  std::string path_, file_;
  // Flat lists, not sets: a sweep parses its scenario once per run, and a set's
  // node per key was most of that parse. Repeats are harmless (a dozen keys).
  std::vector<const std::string*> read_;    // keys consumed: the object's own, by address
  mutable std::vector<std::string> known_;  // keys the parser asked about
};

// Where a parser writes what it resolved (every default filled in, scaled
// parameters as numbers: Scenario::resolved), or nowhere. A summary-only sweep
// never reads it, and building it was a fifth of each run's parse. Writers of
// values that cost to build test the Echo first.
class Echo {
 public:
  Echo() = default;  // writes nowhere
  explicit Echo(nlohmann::json& target) : target_(&target) {}
  Echo(const Echo&) = default;
  Echo& operator=(const Echo&) = delete;  // `out["a"] = other` must write, never re-point
  explicit operator bool() const { return target_ != nullptr; }
  Echo operator[](const char* key) const { return target_ ? Echo((*target_)[key]) : Echo(); }
  template <class T>
  const Echo& operator=(T&& value) const {
    if (target_) *target_ = std::forward<T>(value);
    return *this;
  }

 private:
  nlohmann::json* target_ = nullptr;
};

// Parses a whole document; any failure (syntax, trailing garbage, a number
// beyond double range) becomes an InputError at the root with line and column.
nlohmann::json parse_json_document(const std::string& text, const std::string& file);

// A short rendering of a JSON value for error messages.
std::string show(const nlohmann::json& value);

}  // namespace dropsim::io
