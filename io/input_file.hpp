// Reading a file the user names: every way it can fail becomes one InputError
// naming the file (docs/reliability.md#bad-input-is-refused-with-a-sentence).
#pragma once

#include <string>

namespace dropsim::io {

// The whole file. Refuses a directory (which opens as a stream and reads as
// empty), a file that cannot be opened or read (with the system's reason), and
// an empty file; `expected` completes "expected ..." in those messages, e.g.
// "a scenario JSON file".
std::string read_input_file(const std::string& path, const std::string& expected);

}  // namespace dropsim::io
