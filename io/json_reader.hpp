// Validated reading of one JSON object: every key read is checked, every key not read is an error.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
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

  bool has(const std::string& key) const;
  std::string path_of(const std::string& key) const { return path_ + "/" + key; }
  const std::string& path() const { return path_; }
  const std::string& file() const { return file_; }

  double number(const std::string& key, Bound bound);
  std::optional<double> optional_number(const std::string& key, Bound bound);
  long integer(const std::string& key, long min, long max);
  std::optional<long> optional_integer(const std::string& key, long min, long max);
  std::string string(const std::string& key);
  std::optional<std::string> optional_string(const std::string& key);
  std::optional<bool> optional_boolean(const std::string& key);
  ObjectReader object(const std::string& key);
  std::optional<ObjectReader> optional_object(const std::string& key);
  const nlohmann::json& raw(const std::string& key);  // marks the key as read
  const nlohmann::json& raw_object() const { return value_; }

  // At most one of `keys` may be present.
  void exclusive(const std::vector<std::string>& keys) const;
  void mark_all_read();
  // Throws for the first key that was never read: a typo must not pass silently.
  void reject_unknown_keys() const;

  [[noreturn]] void fail(const std::string& key, const std::string& rule) const;

 private:
  const nlohmann::json& value_;
  std::string path_, file_;
  // Flat lists, not sets: a sweep parses its scenario once per run, and a set's
  // node per key was most of that parse. Repeats are harmless (a dozen keys).
  std::vector<std::string> read_;           // keys consumed
  mutable std::vector<std::string> known_;  // keys the parser asked about
};

// Parses a whole document; any failure (syntax, trailing garbage, a number
// beyond double range) becomes an InputError at the root with line and column.
nlohmann::json parse_json_document(const std::string& text, const std::string& file);

// A short rendering of a JSON value for error messages.
std::string show(const nlohmann::json& value);

}  // namespace dropsim::io
