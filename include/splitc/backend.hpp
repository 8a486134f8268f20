// Selects the backend the core is compiled against. Linking a splitc::<name>
// target defines SPLITC_BACKEND_<NAME>; exactly one must be defined.
#pragma once

#include <splitc/am.hpp>

#if defined(SPLITC_BACKEND_SMP)
#include <splitc/backends/smp.hpp>
namespace splitc {
using active_backend = backends::smp::smp_backend;
}
#elif defined(SPLITC_BACKEND_UDP)
#include <splitc/backends/udp.hpp>
namespace splitc {
using active_backend = backends::udp::udp_backend;
}
#elif defined(SPLITC_BACKEND_MPI)
#include <splitc/backends/mpi.hpp>
namespace splitc {
using active_backend = backends::mpi::mpi_backend;
}
#elif defined(SPLITC_BACKEND_TEMPLATE)
#include <splitc/backends/template.hpp>
namespace splitc {
using active_backend = backends::template_backend::template_backend;
}
#else
#error "splitc: no backend selected; link a splitc::<backend> target (e.g. splitc::smp)"
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
