#include "dropsim/io/input_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "dropsim/io/input_error.hpp"

namespace dropsim::io {

std::string read_input_file(const std::string& path, const std::string& expected) {
  if (std::error_code ec; std::filesystem::is_directory(path, ec))
    throw InputError(path, "", "is a directory; expected " + expected);
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "", std::string("cannot open the file for reading: ") + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError(path, "", std::string("cannot read the file: ") + std::strerror(errno));
  if (text.str().empty()) throw InputError(path, "", "the file is empty; expected " + expected);
  return std::move(text).str();
}

}  // namespace dropsim::io
