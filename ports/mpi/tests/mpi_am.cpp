// Active messages over MPI: short, medium and long requests and replies to
// every processor (itself included) at sizes around every protocol
// boundary (inline in the packet, staged, rendezvous, MPI_Put into the
// segment), under each long-message protocol; both barrier protocols.
#include "mpi_test.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace {

namespace mpi = splitc::backends::mpi;
using splitc::am_message;
using splitc::am_word;

unsigned char pattern(int seed, std::size_t k) {
  return static_cast<unsigned char>((static_cast<std::size_t>(seed) * 7 + k * 131 + (k >> 9)) & 0xff);
}
void fill(unsigned char* p, std::size_t n, int seed) {
  for (std::size_t k = 0; k < n; ++k) p[k] = pattern(seed, k);
}
bool matches(const unsigned char* p, std::size_t n, int seed) {
  for (std::size_t k = 0; k < n; ++k)
    if (p[k] != pattern(seed, k)) return false;
  return true;
}

struct handlers_t {
  splitc::handler_id echo_short, got_short, medium, got_medium, long_in, got_long,
      medium_reply_req, long_reply_req /* the medium reply */, words, got_words;
} H;

std::uint64_t replies = 0;
std::uint64_t reply_words = 0;
std::uint64_t errors = 0;

// (a, b): reply (a + b, source).
void on_echo_short(const am_message& m) {
  splitc::am_reply(m, H.got_short, m.args[0] + m.args[1], static_cast<am_word>(m.source));
}
void on_got_short(const am_message& m) {
  ++replies;
  reply_words += m.args[0];
  if (m.is_request || m.args[1] != static_cast<am_word>(splitc::myproc())) ++errors;
}
// Short messages of every argument count (compact packets or not): word k
// of a message of n words from processor p is word_value(p, n, k, reply?).
am_word word_value(int from, int n, int k, bool reply) {
  return (static_cast<am_word>(from) << 40) ^ (static_cast<am_word>(n) << 32) ^
         (static_cast<am_word>(k) * 0x9e3779b97f4a7c15ULL) ^ (reply ? 0xffff0000ULL : 0);
}
bool words_ok(const am_message& m, bool reply) {
  if (m.kind != splitc::am_kind::short_msg || m.is_request == reply) return false;
  for (int k = 0; k < m.nargs; ++k)
    if (m.args[k] != word_value(m.source, m.nargs, k, reply)) return false;
  return true;
}
template <std::size_t... K>
void send_words(int q, std::index_sequence<K...>, const am_message* token) {
  [[maybe_unused]] constexpr int n = sizeof...(K);
  [[maybe_unused]] const int me = splitc::myproc();
  if (token != nullptr)
    splitc::am_reply(*token, H.got_words, word_value(me, n, static_cast<int>(K), true)...);
  else
    splitc::am_request(q, H.words, word_value(me, n, static_cast<int>(K), false)...);
}
void send_n_words(int q, int n, const am_message* token = nullptr) {
  switch (n) {
    case 0: return send_words(q, std::make_index_sequence<0>{}, token);
    case 1: return send_words(q, std::make_index_sequence<1>{}, token);
    case 2: return send_words(q, std::make_index_sequence<2>{}, token);
    case 3: return send_words(q, std::make_index_sequence<3>{}, token);
    case 4: return send_words(q, std::make_index_sequence<4>{}, token);
    case 5: return send_words(q, std::make_index_sequence<5>{}, token);
    case 6: return send_words(q, std::make_index_sequence<6>{}, token);
    case 7: return send_words(q, std::make_index_sequence<7>{}, token);
    default: return send_words(q, std::make_index_sequence<8>{}, token);
  }
}
// A request of n words is answered with a reply of 8 - n words.
void on_words(const am_message& m) {
  if (!words_ok(m, false)) ++errors;
  send_n_words(m.source, splitc::am_max_args - m.nargs, &m);
}
void on_got_words(const am_message& m) {
  if (!words_ok(m, true)) ++errors;
  ++replies;
  reply_words += static_cast<am_word>(m.nargs);
}
// medium (seed): check the payload, reply (length).
void on_medium(const am_message& m) {
  if (m.kind != splitc::am_kind::medium_msg || !matches(static_cast<unsigned char*>(m.payload),
                                                        m.length, static_cast<int>(m.args[0])))
    ++errors;
  splitc::am_reply(m, H.got_medium, static_cast<am_word>(m.length));
}
void on_got_medium(const am_message& m) {
  ++replies;
  reply_words += m.args[0];
}
// long (seed): the payload is already at its destination.
void on_long_in(const am_message& m) {
  if (m.kind != splitc::am_kind::long_msg || m.payload == nullptr ||
      !matches(static_cast<unsigned char*>(m.payload), m.length, static_cast<int>(m.args[0])))
    ++errors;
  splitc::am_reply(m, H.got_long, static_cast<am_word>(m.length),
                   reinterpret_cast<std::uintptr_t>(m.payload));
}
void on_got_long(const am_message& m) {
  ++replies;
  reply_words += m.args[0];
}
// (length, seed): reply with a medium of that length.
std::vector<unsigned char> reply_buffer;
void on_medium_reply_req(const am_message& m) {
  const std::size_t len = m.args[0];
  reply_buffer.resize(std::max<std::size_t>(len, 1));
  fill(reply_buffer.data(), len, static_cast<int>(m.args[1]));
  splitc::am_reply_medium(m, H.long_reply_req, reply_buffer.data(), len, m.args[1]);
}
// The medium reply: check it, count its length.
void on_medium_reply(const am_message& m) {
  if (m.is_request || m.kind != splitc::am_kind::medium_msg ||
      !matches(static_cast<unsigned char*>(m.payload), m.length, static_cast<int>(m.args[0])))
    ++errors;
  ++replies;
  reply_words += m.length;
}

void wait_replies(std::uint64_t want) {
  while (replies < want) splitc::poll();
}

const char* protocol_name(mpi::long_protocol p) {
  switch (p) {
    case mpi::long_protocol::automatic: return "auto";
    case mpi::long_protocol::inline_copy: return "inline";
    case mpi::long_protocol::staged: return "staged";
    case mpi::long_protocol::rendezvous: return "rendezvous";
    case mpi::long_protocol::rma: return "rma";
    case mpi::long_protocol::same_host: return "same_host";
  }
  return "?";
}

// A static landing area: the same address everywhere when randomisation is
// off (splitc-run, or the backend's re-exec under a plain mpirun).
alignas(64) unsigned char static_landing[4][256 * 1024];

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const int me = splitc::myproc();
  const int P = splitc::procs();
  H.echo_short = splitc::register_handler(on_echo_short);
  H.got_short = splitc::register_handler(on_got_short);
  H.medium = splitc::register_handler(on_medium);
  H.got_medium = splitc::register_handler(on_got_medium);
  H.long_in = splitc::register_handler(on_long_in);
  H.got_long = splitc::register_handler(on_got_long);
  H.medium_reply_req = splitc::register_handler(on_medium_reply_req);
  H.long_reply_req = splitc::register_handler(on_medium_reply);
  H.words = splitc::register_handler(on_words);
  H.got_words = splitc::register_handler(on_got_words);
  splitc::barrier();  // everyone has registered (register_handler alone does not promise it yet)

  auto& b = mpitest::backend();
  CHECK(std::string(splitc::backend_name()) == mpi::mpi_backend::name);
  CHECK(b.myproc() == me && b.procs() == P);
  if (me == 0) {
    std::printf("mpi_am: %d processors, %s, window %s\n", P, b.library_version().c_str(),
                b.has_window() ? "yes" : "no");
    std::fflush(stdout);
  }

  // Short: to everyone, many in flight (more than the credits).
  std::uint64_t expected = 0, expected_words = 0;
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 200; ++i) {
      for (int q = 0; q < P; ++q) {
        splitc::am_request(q, H.echo_short, static_cast<am_word>(i), static_cast<am_word>(q));
        ++expected;
        expected_words += static_cast<am_word>(i + q);
      }
    }
    wait_replies(expected);
  }
  CHECK_MSG(reply_words == expected_words, "{} != {}", reply_words, expected_words);
  splitc::barrier();

  // Every argument count, as compact packets (header in the MPI tag) and
  // with a header, mixed in flight: this processor switches form each round.
  // (Only where this MPI's tags are wide enough: compact is then on.)
  const bool compact_possible = b.tune().compact;
  const std::uint64_t compact_before = b.stats().compact_sent;
  for (int round = 0; round < 4; ++round) {
    b.tune().compact = compact_possible && (round + me) % 2 == 0;
    for (int i = 0; i < 20; ++i) {
      for (int n = 0; n <= splitc::am_max_args; ++n) {
        for (int q = 0; q < P; ++q) {
          send_n_words(q, n);
          ++expected;
          expected_words += static_cast<am_word>(splitc::am_max_args - n);
        }
      }
    }
    wait_replies(expected);
  }
  b.tune().compact = compact_possible;
  CHECK_MSG(errors == 0, "{} argument words wrong", errors);
  CHECK_MSG(reply_words == expected_words, "{} != {}", reply_words, expected_words);
  CHECK_MSG(P == 1 || !compact_possible || mpitest::messages_on_rings() ||
                b.stats().compact_sent > compact_before,
            "no compact packet sent");
  if (me == 0 && !compact_possible) std::printf("mpi_am: compact packets off\n");
  splitc::barrier();

  // Medium requests and medium replies around the packet size.
  const std::size_t max_medium = mpi::mpi_backend::caps.max_medium;
  const std::size_t medium_sizes[] = {0, 1, 8, 100, 1000, 3900, 3950, 4000, 4096, 10000, 65536,
                                      max_medium};
  std::vector<unsigned char> src(mpi::mpi_backend::max_long_bytes + 64);
  for (std::size_t len : medium_sizes) {
    for (int q = 0; q < P; ++q) {
      const int seed = static_cast<int>(len % 251) + me;
      fill(src.data(), len, seed);
      splitc::am_request_medium(q, H.medium, src.data(), len, static_cast<am_word>(seed));
      std::memset(src.data(), 0xee, len);  // the backend must be done with src
      ++expected;
      expected_words += len;
      splitc::am_request(q, H.medium_reply_req, static_cast<am_word>(len),
                         static_cast<am_word>(seed + 1));
      ++expected;
      expected_words += len;  // the medium reply is answered with its length
    }
    wait_replies(expected);
  }
  CHECK_MSG(reply_words == expected_words, "{} != {}", reply_words, expected_words);
  splitc::barrier();

  // Long requests under every protocol, into the segment and into static data.
  const mpi::long_protocol protocols[] = {mpi::long_protocol::staged,
                                          mpi::long_protocol::rendezvous, mpi::long_protocol::rma,
                                          mpi::long_protocol::same_host,
                                          mpi::long_protocol::automatic};
  const std::size_t long_sizes[] = {0,     1,     40,     41,      3000,    3950,
                                    4000,  8192,  65535,  65536,   200000,  1 << 20,
                                    mpi::mpi_backend::max_long_bytes};
  auto* seg = static_cast<unsigned char*>(splitc::my_segment().base);
  const std::size_t region = mpi::mpi_backend::max_long_bytes + 4096;
  CHECK(splitc::my_segment().size >= region * static_cast<std::size_t>(P) + 4096);
  const mpi::tuning saved = b.tune();
  for (auto protocol : protocols) {
    b.tune().long_mode = protocol;
    if (protocol == mpi::long_protocol::automatic) b.tune().rma_min = b.has_window() ? 65536 : 0;
    for (std::size_t len : long_sizes) {
      for (int q = 0; q < P; ++q) {
        const int seed = static_cast<int>(len % 241) + 3 * me + static_cast<int>(protocol);
        fill(src.data(), len, seed);
        // Into my region of q's segment (odd offset: no alignment assumed).
        unsigned char* dst = seg + region * static_cast<std::size_t>(me) + 1;
        splitc::am_request_long(q, H.long_in, src.data(), len, dst, static_cast<am_word>(seed));
        std::memset(src.data(), 0x5a, len);
        ++expected;
        expected_words += len;
        if (len <= sizeof static_landing[0] && me < 4) {
          fill(src.data(), len, seed + 1);
          splitc::am_request_long(q, H.long_in, src.data(), len, static_landing[me],
                                  static_cast<am_word>(seed + 1));
          ++expected;
          expected_words += len;
        }
        // Replies land before the next message to the same region is sent.
        wait_replies(expected);
      }
    }
    CHECK_MSG(errors == 0, "{} payload errors under protocol {}", errors,
              protocol_name(protocol));
    splitc::barrier();
  }
  b.tune() = saved;
  CHECK_MSG(reply_words == expected_words, "{} != {}", reply_words, expected_words);

  // splitc::barrier and the backend's own barrier, interleaved: processor
  // (i mod P) publishes i; all read it.
  static long published = -1;
  auto backend_barrier = [&] { b.bootstrap_barrier(splitc::detail::ctx().sink()); };
  for (long i = 0; i < 300; ++i) {
    const int writer = static_cast<int>(i % P);
    if (me == writer) published = i;
    if (i % 3 == 0) splitc::barrier();
    else backend_barrier();
    const long seen = splitc::read(splitc::toglobal(writer, &published));
    CHECK_MSG(seen == i, "barrier {}: read {} from processor {}", i, seen, writer);
    if (i % 3 == 1) splitc::barrier();
    else backend_barrier();
  }

  CHECK_MSG(errors == 0, "{} errors", errors);
  const auto& st = b.stats();
  // Messages to a peer on this host go over the same-host rings; with
  // SPLITC_SAME_HOST_MESSAGES=0 they go by MPI, and a long payload into such a
  // peer's segment is one memcpy.
  if (mpitest::messages_on_rings()) {
    CHECK_MSG(st.host_ring_messages > 0, "no message over the rings among {} peers on this host",
              b.host_members().size());
  } else {
    CHECK_MSG(b.host_members().size() < 2 || st.same_host_copies > 0,
              "no same-host copy among {} peers on this host", b.host_members().size());
  }
  if (me == 0) {
    std::printf("mpi_am: packets sent %llu, staged %llu, rendezvous %llu, rma %llu, "
                "same-host copies %llu, no-credit %llu, credit packets %llu, over the rings %llu\n",
                static_cast<unsigned long long>(st.packets_sent),
                static_cast<unsigned long long>(st.staged),
                static_cast<unsigned long long>(st.rendezvous),
                static_cast<unsigned long long>(st.rma_puts),
                static_cast<unsigned long long>(st.same_host_copies),
                static_cast<unsigned long long>(st.no_credit),
                static_cast<unsigned long long>(st.credit_packets),
                static_cast<unsigned long long>(st.host_ring_messages));
  }
  return mpitest::pass("mpi_am");
}
