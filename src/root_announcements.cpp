// The root announcements of broadcasts (collective_algorithms.hpp, "Processors that name
// different roots"): each processor tells its parent in the tree rooted at 0 which root it
// named, and the parent checks. A one-chunk broadcast of the world owes its announcement
// instead of sending it, so that a loop of broadcasts costs the data alone: one message then
// carries how many broadcasts in a row with one signature it announces.
//
// The debt is paid (send_owed_announcements) before any other message to the parent, so that
// on that channel an announcement still comes before anything the broadcasts after it send;
// when the signature changes; when owed_limit() broadcasts are owed; at the start of the next
// other collective (settle_root_check); before a native collective and before a layer's idle
// wait, which may sleep; and at a poll once owed_polls_max polls have passed without a new
// broadcast. A parent that waits for an announcement therefore always gets it: the child is
// either busy and reaches one of those points, or waits and pays at once or within
// owed_polls_max polls.
#include <splitc/detail/collective_algorithms.hpp>
#include <splitc/detail/mailbox.hpp>
#include <splitc/errors.hpp>

#include <cstdint>
#include <cstring>

namespace splitc::detail {

void send_owed_announcements(context& c, mailbox_state& m) {
  const std::uint32_t count = m.owed_count;
  m.owed_count = 0;  // first: the send below must not pay again
  m.owed_polls = 0;
  collective_group g{c, m, nullptr, c.myproc, c.procs, m.owed_signature, -1, true};
  mailbox_send(g, m.owed_parent, &count, sizeof count);
}

void owe_root_announcement(collective_group& g, proc_t parent) {
  if (parent < 0) return;
  mailbox_state& m = g.mail;
  if (m.owed_count != 0 && m.owed_signature != g.signature) send_owed_announcements(g.c, m);
  m.owed_signature = g.signature;
  m.owed_parent = parent;
  m.owed_polls = 0;
  if (++m.owed_count >= m.owed_limit()) send_owed_announcements(g.c, m);
}

void check_child_root(collective_group& g, proc_t child, int side) {
  mailbox_state& m = g.mail;
  if (m.announced_ahead[side] != 0) {
    if (m.announced_signature[side] != g.signature) [[unlikely]]
      collective_kind_mismatch(g, child, m.announced_signature[side]);
    --m.announced_ahead[side];
    return;
  }
  std::uint32_t count = 0;
  receive_chunk<unsigned char>(g, child, sizeof count, [&](const unsigned char* d) {
    std::memcpy(&count, d, sizeof count);
  });
  if (count == 0 || count > m.owed_limit()) [[unlikely]]
    fail("processor {} announced {} broadcasts in one message, where at most {} are sent "
         "(a corrupted collective message)",
         g.proc(child), count, m.owed_limit());
  m.announced_ahead[side] = count - 1;
  m.announced_signature[side] = g.signature;
}

void check_no_broadcast_ahead(collective_group& g) {
  const tree_node n = physical_tree(g, 0);
  const mailbox_state& m = g.mail;
  for (int side = 0; side < 2; ++side)
    if (m.announced_ahead[side] != 0)
      collective_kind_mismatch(g, side == 0 ? n.left : n.right, m.announced_signature[side]);
}

}  // namespace splitc::detail
