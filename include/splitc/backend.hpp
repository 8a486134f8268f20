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
