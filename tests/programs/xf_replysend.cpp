// Error: a reply handler that sends a message ends the job with "reply handler".
#include "harness.hpp"

namespace {
splitc::handler_id h_request, h_reply;
splitc::per_processor<bool> g_done;  // one per processor (harness.hpp)
void on_request(const splitc::am_message& m) { splitc::am_reply(m, h_reply); }
void on_reply(const splitc::am_message& m) {
  splitc::am_request(m.source, h_request);  // not allowed from a reply handler
  *g_done = true;
}
}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  h_request = splitc::register_handler(on_request);
  h_reply = splitc::register_handler(on_reply);
  splitc::barrier();
  if (splitc::myproc() == 0) {
    splitc::am_request(splitc::procs() - 1, h_request);
    while (!*g_done) splitc::poll();
  }
  splitc::barrier();
  return harness::pass("xf_replysend");
}
