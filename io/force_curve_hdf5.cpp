// Figure C.4 curves through the HDF5 Lite API (small, uncompressed 1-D datasets).
#include "dropsim/io/force_curve_hdf5.hpp"

#include <hdf5.h>
#include <hdf5_hl.h>

#include "dropsim/io/hdf5_image.hpp"

namespace dropsim::io {

void write_force_curves_hdf5(const std::string& path, const ForceCurves& c) {
  std::vector<double> relative;
  for (double x : c.indentation) relative.push_back(x / c.radius);
  write_hdf5_file(path, 6 * sizeof(double) * c.indentation.size(), [&](H5::H5File& h5) {
    const hid_t file = h5.getId();
    bool ok = true;
    const hsize_t n = c.indentation.size();
    auto put = [&](const char* name, const std::vector<double>& data, const char* units) {
      ok = ok && H5LTmake_dataset_double(file, name, 1, &n, data.data()) >= 0 &&
           H5LTset_attribute_string(file, name, "units", units) >= 0;
    };
    put("indentation", c.indentation, "m");
    put("indentation_relative", relative, "1");
    put("force_hertz", c.hertz, "N");
    put("force_smooth_unscaled", c.smooth_unscaled, "N");
    put("force_smooth_scaled", c.smooth_scaled, "N");
    auto attr = [&](const char* name, double value) {
      ok = ok && H5LTset_attribute_double(file, "/", name, &value, 1) >= 0;
    };
    attr("radius", c.radius);
    attr("effective_modulus", c.effective_modulus);
    attr("cf_unscaled", c.cf_unscaled);
    attr("bd_unscaled", c.bd_unscaled);
    attr("cf_scaled", c.cf_scaled);
    attr("bd_scaled", c.bd_scaled);
    if (!ok) throw H5::FileIException("H5LT", "cannot write the curves");
  });
}

}  // namespace dropsim::io
