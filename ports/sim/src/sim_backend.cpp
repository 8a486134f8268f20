// The sim backend's members (include/splitc/backends/sim.hpp): each
// processor's view of the simulated job (world.hpp).
#include <splitc/backends/sim.hpp>

#include <splitc/sim_engine/world.hpp>


namespace splitc::backends::sim {

sim_backend::sim_backend(start_arguments args) {
  world* w = world::current();
  if (w == nullptr) {
    // The program's own main called init: this process becomes the job
    // (init has checked SPLITC_PROCS).
    world::run_job_and_exit(*args.argc, *args.argv);
  }
  world_ = w;
  myproc_ = w->running();
  procs_ = w->procs();
  segment_ = w->segments().segment(myproc_);
}

am_status sim_backend::send(proc_t to, bool is_request, am_kind kind, handler_id h,
                            const am_word* a, int n, const void* src, std::size_t len, void* dst) {
  world_->send(to, is_request, kind, h, a, n, src, len, dst);
  return am_status::ok;
}

int sim_backend::poll(am_sink sink) { return world_->poll(sink); }

void sim_backend::bootstrap_barrier(am_sink sink) { world_->bootstrap_barrier(sink); }

// Leaving needs nothing: the fiber returns from main and the scheduler counts it.
void sim_backend::finish(int) {}

}  // namespace splitc::backends::sim
