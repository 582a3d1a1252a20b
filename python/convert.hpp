// Conversions between Python objects and dropsim's C++ values: JSON documents,
// numpy views of a C++ buffer, and the exceptions Python sees. No physics and
// no validation of its own: the library validates.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dropsim::python {

namespace py = pybind11;

// A Python value (dict, list, tuple, str, bool, int, float, None, numpy scalar
// or array) as JSON; anything else raises TypeError naming `where`.
nlohmann::json to_json(py::handle value, const std::string& where);
// JSON as plain Python objects.
py::object from_json(const nlohmann::json& value);

// A read-only numpy view of `data` (rows, or rows x columns when columns > 0)
// whose base is `owner`: no copy, and the buffer lives as long as the array.
py::array view(const std::vector<double>& data, std::size_t columns, py::handle owner);
// A numpy array that owns a moved-in vector (no copy of the elements).
template <class T>
py::array adopt(std::vector<T>&& data) {
  auto* heap = new std::vector<T>(std::move(data));
  py::capsule free_when_done(heap, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>({heap->size()}, {sizeof(T)}, heap->data(), free_when_done);
}

// Registers dropsim.InputError (a ValueError with .file and .json_path) and
// the translation of io::InputError, io::IoError (OSError) into it.
void register_exceptions(py::module_& m);

}  // namespace dropsim::python
