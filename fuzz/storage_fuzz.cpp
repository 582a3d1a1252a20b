// libFuzzer harness: any byte string through the OpenSim Storage reader behind
// `dropsim compare` must end in a Storage or an InputError, and a column chosen
// by a label of the file must hold one value per row.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "dropsim/io/input_error.hpp"
#include "dropsim/io/storage_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const dropsim::io::Storage s = dropsim::io::parse_storage(text, "fuzz.sto");
    for (const auto& label : s.labels) {
      try {
        if (dropsim::io::storage_column(s, "fuzz.sto", label).size() != s.row_lines.size()) std::abort();
      } catch (const dropsim::io::InputError&) {
        // two columns with one label: refused
      }
    }
  } catch (const dropsim::io::InputError&) {
  }
  return 0;
}
