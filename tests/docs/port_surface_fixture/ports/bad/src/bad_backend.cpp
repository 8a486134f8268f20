// A port that includes what it must not (tests/docs/check_port_surface.sh's own test).
#include <splitc/detail/context.hpp>
#include <other_port.hpp>
#include "../../other/include/other_port.hpp"
#include <splitc/port/am.hpp>
