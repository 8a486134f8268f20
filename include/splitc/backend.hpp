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
#elif defined(SPLITC_BACKEND_AM4)
#include <splitc/backends/narrow.hpp>
namespace splitc {
using active_backend = backends::narrow::am4_backend;
}
#elif defined(SPLITC_BACKEND_ONESIDED)
#include <splitc/backends/narrow.hpp>
namespace splitc {
using active_backend = backends::narrow::onesided_backend;
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
