// Another port's header (tests/docs/check_port_surface.sh's own test).
#pragma once
