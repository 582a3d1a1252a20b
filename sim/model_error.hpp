// The error a model that is valid input but cannot be analysed the way asked
// raises (a frozen model with nothing under it, gravity off -y, a singular
// M(q)): the user's model's fault, which the command line reports as bad
// input. Any other exception from sim/ is a bug and is reported as one.
#pragma once

#include <stdexcept>

namespace dropsim {

class ModelError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

}  // namespace dropsim
