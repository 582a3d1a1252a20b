// OpenSim Storage files (.sto, .mot): the header up to `endheader`
// (version=1, nRows, nColumns, inDegrees; other keys are OpenSim's and kept
// out of the way), one line of column labels, then rows of numbers, tab- or
// space-separated. What `dropsim compare` reads of an OpenSim run or a
// ground-reaction file (docs/interface.md#comparing-traces).
#pragma once

#include <string>
#include <vector>

namespace dropsim::io {

struct Storage {
  std::string name;         // the header's first line, when it is not a key=value
  bool in_degrees = false;  // inDegrees=yes: rotational coordinates in degrees
  std::vector<std::string> labels;
  std::size_t labels_line = 0;
  std::vector<std::vector<double>> columns;  // columns[label index][row]
  std::vector<std::size_t> row_lines;        // the line of each row, for messages
};

// Whether `path` names a storage file by its extension (.sto or .mot, any case).
bool is_storage_file(const std::string& path);

// Parses `text`; malformed input (no endheader, a header value that is not a
// count or yes/no, a version other than 1, a ragged row, a cell that is not a
// number, nRows or nColumns that disagree with the rows) throws InputError
// naming `path`, "line N" and the rule.
Storage parse_storage(const std::string& text, const std::string& path);
Storage read_storage_file(const std::string& path);

// The column labelled `label` (exactly); InputError naming the file, the
// labels line and the labels there are when none or two are.
const std::vector<double>& storage_column(const Storage& s, const std::string& path, const std::string& label);

}  // namespace dropsim::io
