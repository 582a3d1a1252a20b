// Python <-> JSON, numpy views, and the exceptions Python sees.
#include "python/convert.hpp"

#include "dropsim/io/input_error.hpp"
#include "dropsim/io/io_error.hpp"

namespace dropsim::python {

using nlohmann::json;

json to_json(py::handle v, const std::string& where) {
  if (v.is_none()) return nullptr;
  if (py::isinstance<py::bool_>(v)) return v.cast<bool>();
  if (py::isinstance<py::int_>(v)) return v.cast<long long>();
  if (py::isinstance<py::float_>(v)) return v.cast<double>();
  if (py::isinstance<py::str>(v)) return v.cast<std::string>();
  if (py::isinstance<py::dict>(v)) {
    json out = json::object();
    for (auto [key, value] : v.cast<py::dict>()) {
      if (!py::isinstance<py::str>(key)) throw py::type_error(where + ": keys of a scenario are strings");
      const auto k = key.cast<std::string>();
      out[k] = to_json(value, where + "/" + k);
    }
    return out;
  }
  if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
    json out = json::array();
    std::size_t i = 0;
    for (py::handle item : v) out.push_back(to_json(item, where + "/" + std::to_string(i++)));
    return out;
  }
  // numpy scalars and arrays: their Python equivalents.
  if (py::hasattr(v, "tolist") && py::hasattr(v, "dtype")) return to_json(v.attr("tolist")(), where);
  throw py::type_error(where + ": " + py::repr(v.get_type()).cast<std::string>() +
                       " has no JSON form (dict, list, str, bool, int, float or None)");
}

py::object from_json(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return py::none();
    case json::value_t::boolean: return py::bool_(v.get<bool>());
    case json::value_t::number_integer: return py::int_(v.get<long long>());
    case json::value_t::number_unsigned: return py::int_(v.get<unsigned long long>());
    case json::value_t::number_float: return py::float_(v.get<double>());
    case json::value_t::string: return py::str(v.get<std::string>());
    case json::value_t::array: {
      py::list out;
      for (const auto& item : v) out.append(from_json(item));
      return out;
    }
    case json::value_t::object: {
      py::dict out;
      for (const auto& [key, item] : v.items()) out[py::str(key)] = from_json(item);
      return out;
    }
    default: throw std::logic_error("from_json: a binary or discarded JSON value");
  }
}

py::array view(const std::vector<double>& data, std::size_t columns, py::handle owner) {
  std::vector<py::ssize_t> shape, strides;
  if (columns > 0) {
    shape = {static_cast<py::ssize_t>(data.size() / columns), static_cast<py::ssize_t>(columns)};
    strides = {static_cast<py::ssize_t>(columns * sizeof(double)), sizeof(double)};
  } else {
    shape = {static_cast<py::ssize_t>(data.size())};
    strides = {sizeof(double)};
  }
  py::array a(py::dtype::of<double>(), shape, strides, data.data(), owner);
  // The trace is the record of a run: its arrays are read-only.
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

void register_exceptions(py::module_& m) {
  static py::exception<io::InputError> input_error(m, "InputError", PyExc_ValueError);
  input_error.doc() =
      "Bad input: the message names the file (or \"scenario dict\"), the JSON path and the rule, as the "
      "command line's exit status 2 does. Attributes: file, json_path.";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const io::InputError& e) {
      py::object error = py::handle(input_error.ptr())(e.what());
      error.attr("file") = e.file();
      error.attr("json_path") = e.path().empty() ? std::string("/") : e.path();
      PyErr_SetObject(input_error.ptr(), error.ptr());
    } catch (const io::IoError& e) {
      PyErr_SetString(PyExc_OSError, e.what());
    }
  });
}

}  // namespace dropsim::python
