// Selects the backend the core is compiled against. Linking a splitc::<name>
// target puts the backend's generated selection header on the include path
// (splitc_add_backend in cmake/SplitcBackend.cmake writes it): it includes the
// backend's header and names its class splitc::active_backend.
#pragma once

#include <splitc/port/am.hpp>

#if __has_include(<splitc/backend_selection.hpp>)
#include <splitc/backend_selection.hpp>
#else
#error "splitc: no backend selected; link a splitc::<backend> target (e.g. splitc::smp), or use pkg-config's splitc-<backend>"
#endif

static_assert(splitc::backend<splitc::active_backend>,
              "the selected backend does not satisfy the porting boundary");
// What the core relies on (PORTING.md): at least four argument words, and the
// optional message forms present exactly when caps says they are.
static_assert(splitc::active_backend::caps.max_args >= splitc::am_min_args &&
                  splitc::active_backend::caps.max_args <= splitc::am_max_args,
              "a backend carries 4 to 8 argument words (caps.max_args)");
static_assert((splitc::active_backend::caps.max_medium > 0) ==
                  splitc::has_medium_messages<splitc::active_backend>,
              "caps.max_medium > 0 exactly when the backend has request_medium/reply_medium");
static_assert((splitc::active_backend::caps.max_long > 0) ==
                  splitc::has_long_messages<splitc::active_backend>,
              "caps.max_long > 0 exactly when the backend has request_long/reply_long");
// A backend whose processors share one process declares all of has_shared_process (its
// switch hooks and where its segments lie), or the core would treat it as one per process.
static_assert(!splitc::declares_shared_process<splitc::active_backend> ||
                  splitc::has_shared_process<splitc::active_backend>,
              "a backend with shared_process also has install_processor_switch and segments() "
              "(port/am.hpp, has_shared_process)");
#ifdef SPLITC_SIM_SUBSTRATE
static_assert(splitc::has_shared_process<splitc::active_backend>,
              "SPLITC_SIM_SUBSTRATE (a backend on the sim engine) places segments apart: the "
              "backend must have shared_process (port/on_sim.hpp, sim_members)");
#endif
