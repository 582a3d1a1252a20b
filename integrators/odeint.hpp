// Boost.Odeint with its Eigen adaptors; the adaptors need the core headers first.
#pragma once

#include <boost/numeric/odeint.hpp>
#include <boost/numeric/odeint/external/eigen/eigen.hpp>
