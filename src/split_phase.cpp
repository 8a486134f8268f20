// Split-phase collectives (detail/split_phase.hpp): each on a fiber of its own (Boost.Context),
// resumed at every poll while it is the oldest in flight on its channels, given back to the
// program whenever its algorithm would wait.
#include <splitc/detail/context.hpp>
#include <splitc/detail/split_phase.hpp>
#include <splitc/detail/wait.hpp>

#include <boost/context/fiber.hpp>
#include <boost/context/protected_fixedsize_stack.hpp>

#include <deque>
#include <memory>
#include <utility>
#include <vector>

namespace splitc::detail {

namespace ctx_ = boost::context;

/// One collective in flight.
struct split_phase_op {
  collective_group group;
  counter* done;
  std::function<void(collective_group&)> body;
  ctx_::fiber fiber;   ///< the collective's own stack
  ctx_::fiber caller;  ///< the poll that resumed it
  bool finished = false;
};

/// A processor's collectives in flight, in issue order, and the stacks they run on (kept for
/// the next ones: a stack is made once, not per collective).
struct split_phase_queue {
  std::deque<std::unique_ptr<split_phase_op>> ops;
  split_phase_op* running = nullptr;
  std::vector<ctx_::stack_context> spare_stacks;
};

namespace {

/// 256 KiB stacks with a guard page: a user's operator runs on them.
constexpr std::size_t stack_bytes = 256 * 1024;

/// Stacks from the queue's spares, made when there are none.
class reused_stack {
 public:
  explicit reused_stack(split_phase_queue& q) : q_(&q) {}
  ctx_::stack_context allocate() {
    if (!q_->spare_stacks.empty()) {
      const ctx_::stack_context s = q_->spare_stacks.back();
      q_->spare_stacks.pop_back();
      return s;
    }
    return ctx_::protected_fixedsize_stack(stack_bytes).allocate();
  }
  void deallocate(ctx_::stack_context& s) noexcept { q_->spare_stacks.push_back(s); }

 private:
  split_phase_queue* q_;
};

split_phase_queue& queue_of(context& c) {
  if (c.split_phase == nullptr) c.split_phase = new split_phase_queue;
  return *c.split_phase;
}

/// context::collective_yield while a collective runs: back to the poll that resumed it.
void yield_to_caller(context& c) {
  split_phase_op* op = c.split_phase->running;
  op->caller = std::move(op->caller).resume();
}

void resume(context& c, split_phase_queue& q, split_phase_op& op) {
  q.running = &op;
  c.collective_yield = &yield_to_caller;
  op.fiber = std::move(op.fiber).resume();
  c.collective_yield = nullptr;
  q.running = nullptr;
}

/// Resume every collective that is the oldest in flight on its channels; drop the finished.
void run(context& c, split_phase_queue& q) {
  std::vector<const mailbox_state*> busy;
  for (auto it = q.ops.begin(); it != q.ops.end();) {
    split_phase_op& op = **it;
    const mailbox_state* channels = &op.group.mail;
    bool behind = false;
    for (const mailbox_state* b : busy) behind = behind || b == channels;
    if (!behind) resume(c, q, op);
    if (op.finished) {
      op.done->add_local(-1);
      --c.split_phase_in_flight;
      it = q.ops.erase(it);
      continue;
    }
    busy.push_back(channels);
    ++it;
  }
}

}  // namespace

void start_split_phase(const collective_group& g, counter& done,
                       std::function<void(collective_group&)> body) {
  context& c = g.c;
  split_phase_queue& q = queue_of(c);
  auto op = std::make_unique<split_phase_op>(
      split_phase_op{g, &done, std::move(body), ctx_::fiber{}, ctx_::fiber{}, false});
  split_phase_op* raw = op.get();
  raw->fiber = ctx_::fiber(std::allocator_arg, reused_stack(q), [raw](ctx_::fiber&& caller) {
    raw->caller = std::move(caller);
    raw->body(raw->group);
    raw->finished = true;
    return std::move(raw->caller);
  });
  done.add_local(1);
  ++c.split_phase_in_flight;
  q.ops.push_back(std::move(op));
  // Started at once when nothing is ahead of it on its channels (its first messages leave
  // now); from inside another collective's fiber it waits for the next poll.
  if (c.collective_yield == nullptr) run(c, q);
}

int run_split_phase(context& c) {
  if (c.split_phase == nullptr) return 0;
  const std::uint64_t traffic = c.mailbox_traffic;
  const int in_flight = c.split_phase_in_flight;
  run(c, *c.split_phase);
  return c.mailbox_traffic != traffic || c.split_phase_in_flight != in_flight ? 1 : 0;
}

void finish_split_phase(context& c, const mailbox_state& channels) {
  wait_until(c, "a collective", [&] {
    for (const auto& op : c.split_phase->ops)
      if (&op->group.mail == &channels) return false;
    return true;
  });
}

void finish_every_split_phase(context& c) {
  wait_until(c, "finalize", [&] { return c.split_phase_in_flight == 0; });
}

void release_split_phase(context& c) {
  if (c.split_phase == nullptr) return;
  for (ctx_::stack_context& s : c.split_phase->spare_stacks)
    ctx_::protected_fixedsize_stack(stack_bytes).deallocate(s);
  delete c.split_phase;
  c.split_phase = nullptr;
}

}  // namespace splitc::detail
