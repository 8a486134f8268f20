// Selects the backend the core is compiled against. Linking a splitc::<name>
// target puts the backend's generated selection header on the include path
// (splitc_add_backend in cmake/SplitcBackend.cmake writes it): it includes the
// backend's header and names its class splitc::active_backend.
#pragma once

#include <splitc/am.hpp>

#if __has_include(<splitc/backend_selection.hpp>)
#include <splitc/backend_selection.hpp>
#else
#error "splitc: no backend selected; link a splitc::<backend> target (e.g. splitc::smp), or use pkg-config's splitc-<backend>"
#endif

static_assert(splitc::backend<splitc::active_backend>,
              "the selected backend does not satisfy the porting boundary");
// What the core relies on (PORTING.md): 8 argument words, room for a
// collective's mailbox message in a medium message, and long messages.
static_assert(splitc::active_backend::caps.max_args >= splitc::am_max_args,
              "a backend must carry at least 8 argument words");
static_assert(splitc::active_backend::caps.max_medium >= 1024,
              "a backend's medium messages must hold at least 1024 bytes");
static_assert(splitc::active_backend::caps.max_long >= 1024,
              "a backend's long messages must hold at least 1024 bytes");
