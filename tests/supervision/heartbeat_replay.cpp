// A hostile neighbour of a job on this host (issue 45): captures the liveness watchdog's
// heartbeats on the loopback interface and sends each one again, byte for byte -- its IP
// and UDP headers too, so the source address and port are the sender's -- the latest beat
// of each flow, every 100 ms (once a processor stops, its last beat, forever).
// Needs CAP_NET_RAW (root): without it, exits 77 (the test is skipped).
//   heartbeat_replay SECONDS
// Replays for SECONDS (or until SIGTERM), then prints "captured C beats, replayed R".
#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <utility>
#include <vector>

namespace {

volatile sig_atomic_t stopping = 0;
/// The first bytes of a heartbeat's payload (src/port/watchdog.cpp: beat_magic, little-endian).
constexpr unsigned char beat_magic[8] = {'w', '-', 'c', 't', 'i', 'l', 'p', 's'};

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 30;
  signal(SIGTERM, [](int) { stopping = 1; });
  const int capture = socket(AF_PACKET, SOCK_DGRAM, htons(ETH_P_IP));
  const int inject = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
  if (capture < 0 || inject < 0) {
    std::printf("heartbeat_replay: no raw sockets here (%s): skipped\n", std::strerror(errno));
    return 77;
  }
  sockaddr_ll lo{};
  lo.sll_family = AF_PACKET;
  lo.sll_protocol = htons(ETH_P_IP);
  lo.sll_ifindex = static_cast<int>(if_nametoindex("lo"));
  if (lo.sll_ifindex == 0 || bind(capture, reinterpret_cast<sockaddr*>(&lo), sizeof lo) != 0) {
    std::printf("heartbeat_replay: cannot capture on lo: %s\n", std::strerror(errno));
    return 1;
  }
  // The latest beat of each flow (source port, destination port), as captured.
  std::map<std::pair<std::uint16_t, std::uint16_t>, std::vector<unsigned char>> beats;
  long captured = 0, replayed = 0;
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  auto next = std::chrono::steady_clock::now();
  while (stopping == 0 && std::chrono::steady_clock::now() < end) {
    pollfd p{capture, POLLIN, 0};
    if (poll(&p, 1, 20) > 0) {
      unsigned char packet[2048];
      const ssize_t n = recv(capture, packet, sizeof packet, MSG_DONTWAIT);
      if (n >= static_cast<ssize_t>(sizeof(iphdr))) {
        const auto* ip = reinterpret_cast<const iphdr*>(packet);
        const std::size_t header = ip->ihl * 4u;
        if (ip->protocol == IPPROTO_UDP &&
            static_cast<std::size_t>(n) >= header + sizeof(udphdr) + sizeof beat_magic &&
            std::memcmp(packet + header + sizeof(udphdr), beat_magic, sizeof beat_magic) == 0) {
          const auto* udp = reinterpret_cast<const udphdr*>(packet + header);
          auto& kept = beats[{ntohs(udp->source), ntohs(udp->dest)}];
          ++captured;
          kept.assign(packet, packet + n);  // the latest one: it is replayed from now on
          // On the loopback interface the checksum is left to the receiver (offloaded): the
          // captured field is partial. 0 says "none" (IPv4), which every receiver accepts.
          reinterpret_cast<udphdr*>(kept.data() + header)->check = 0;
        }
      }
    }
    if (std::chrono::steady_clock::now() >= next) {
      for (const auto& [flow, bytes] : beats) {
        const auto* ip = reinterpret_cast<const iphdr*>(bytes.data());
        sockaddr_in to{};
        to.sin_family = AF_INET;
        to.sin_addr.s_addr = ip->daddr;
        if (sendto(inject, bytes.data(), bytes.size(), 0, reinterpret_cast<sockaddr*>(&to),
                   sizeof to) == static_cast<ssize_t>(bytes.size()))
          ++replayed;
      }
      next += std::chrono::milliseconds(100);
    }
  }
  std::printf("heartbeat_replay: captured %ld beats, replayed %ld\n", captured, replayed);
  return 0;
}
