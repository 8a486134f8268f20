// Tags and validation of the udp backend's datagrams (udp_wire.hpp).
#include <splitc/backends/udp_wire.hpp>

#include <sodium.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <cstdlib>
#include <cstring>

namespace splitc::backends::udp {
namespace {

// NH over 32-bit words, two lanes; lane L pairs words (2i, 2i+1) with key
// words (2i + 8L, 2i + 1 + 8L). `words` is a multiple of 16.
void nh2_scalar(const std::uint32_t* m, const std::uint32_t* k, std::size_t words,
                std::uint64_t& a, std::uint64_t& b) noexcept {
  for (std::size_t i = 0; i < words; i += 2) {
    std::uint32_t m0, m1;
    std::memcpy(&m0, m + i, 4);
    std::memcpy(&m1, m + i + 1, 4);
    a += static_cast<std::uint64_t>(static_cast<std::uint32_t>(m0 + k[i])) *
         static_cast<std::uint32_t>(m1 + k[i + 1]);
    b += static_cast<std::uint64_t>(static_cast<std::uint32_t>(m0 + k[i + 8])) *
         static_cast<std::uint32_t>(m1 + k[i + 9]);
  }
}

void copy_nh2_scalar(unsigned char* dst, const unsigned char* src, const std::uint32_t* k,
                     std::size_t bytes, std::uint64_t& a, std::uint64_t& b) noexcept {
  std::memcpy(dst, src, bytes);
  nh2_scalar(reinterpret_cast<const std::uint32_t*>(dst), k, bytes / 4, a, b);
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) inline __m256i nh_step(__m256i acc, __m256i m, __m256i k) {
  const __m256i x = _mm256_add_epi32(m, k);
  return _mm256_add_epi64(acc, _mm256_mul_epu32(x, _mm256_srli_epi64(x, 32)));
}

__attribute__((target("avx2"))) std::uint64_t hsum(__m256i v) {
  alignas(32) std::uint64_t t[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(t), v);
  return t[0] + t[1] + t[2] + t[3];
}

// `bytes` is a multiple of 64. When `dst` is non-null the message is also copied there.
template <bool copy>
__attribute__((target("avx2"))) void nh2_avx2(unsigned char* dst, const unsigned char* m,
                                              const std::uint32_t* k, std::size_t bytes,
                                              std::uint64_t& a, std::uint64_t& b) noexcept {
  __m256i a0 = _mm256_setzero_si256(), a1 = a0, b0 = a0, b1 = a0;
  for (std::size_t i = 0; i < bytes; i += 64) {
    const __m256i m0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(m + i));
    const __m256i m1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(m + i + 32));
    if constexpr (copy) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i), m0);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i + 32), m1);
    }
    const std::uint32_t* kk = k + i / 4;
    const __m256i k0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(kk));
    const __m256i k1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(kk + 8));
    const __m256i k2 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(kk + 16));
    a0 = nh_step(a0, m0, k0);
    a1 = nh_step(a1, m1, k1);
    b0 = nh_step(b0, m0, k1);
    b1 = nh_step(b1, m1, k2);
  }
  a += hsum(_mm256_add_epi64(a0, a1));
  b += hsum(_mm256_add_epi64(b0, b1));
}

const bool have_avx2 = __builtin_cpu_supports("avx2");

__attribute__((target("avx2"))) void stream_copy_avx2(unsigned char* d, const unsigned char* s,
                                                      std::size_t n) noexcept {
  const std::size_t head = (32 - (reinterpret_cast<std::uintptr_t>(d) & 31)) & 31;
  std::memcpy(d, s, head);
  d += head;
  s += head;
  n -= head;
  std::size_t i = 0;
  for (; i + 128 <= n; i += 128) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i + 32));
    const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i + 64));
    const __m256i e = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i + 96));
    _mm256_stream_si256(reinterpret_cast<__m256i*>(d + i), a);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(d + i + 32), b);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(d + i + 64), c);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(d + i + 96), e);
  }
  std::memcpy(d + i, s + i, n - i);
  _mm_sfence();
}
#endif

// The digest of whole 64-byte blocks (optionally copying them).
void nh2_blocks(unsigned char* dst, const unsigned char* m, const std::uint32_t* k,
                std::size_t bytes, std::uint64_t& a, std::uint64_t& b) noexcept {
#if defined(__x86_64__)
  if (have_avx2) {
    if (dst != nullptr) {
      nh2_avx2<true>(dst, m, k, bytes, a, b);
    } else {
      nh2_avx2<false>(nullptr, m, k, bytes, a, b);
    }
    return;
  }
#endif
  if (dst != nullptr) {
    copy_nh2_scalar(dst, m, k, bytes, a, b);
  } else {
    nh2_scalar(reinterpret_cast<const std::uint32_t*>(m), k, bytes / 4, a, b);
  }
}

// NH2 of `len` bytes whose first word pairs with key word `key_words` (even):
// exactly ceil(len / 8) word pairs, the last zero-padded. Accumulates into
// a, b; copies to dst when it is non-null. The digest of a body split in two
// (argument words, then payload) is the sum of the two parts' digests.
void nh2_accumulate(const wire_keys& keys, unsigned char* dst, const unsigned char* src,
                    std::size_t len, std::size_t key_words, std::uint64_t& a,
                    std::uint64_t& b) noexcept {
  const std::size_t whole = len & ~std::size_t{63};
  const std::uint32_t* k = keys.nh.get() + key_words;
  nh2_blocks(dst, src, k, whole, a, b);
  const std::size_t rest = len - whole;
  if (rest != 0) {
    alignas(64) unsigned char tail[64] = {};
    std::memcpy(tail, src + whole, rest);
    if (dst != nullptr) std::memcpy(dst + whole, src + whole, rest);
    nh2_scalar(reinterpret_cast<const std::uint32_t*>(tail), k + whole / 4, (rest + 7) / 8 * 2, a,
               b);
  }
}

}  // namespace

wire_keys derive_keys(const job_secret& secret) {
  if (sodium_init() < 0) std::abort();
  wire_keys keys;
  crypto_generichash(keys.sip.data(), keys.sip.size(), secret.data(), secret.size(),
                     reinterpret_cast<const unsigned char*>("splitc-udp-sip"), 14);
  unsigned char seed[32];
  crypto_generichash(seed, sizeof seed, secret.data(), secret.size(),
                     reinterpret_cast<const unsigned char*>("splitc-udp-nh-key"), 17);
  std::memcpy(keys.nh_seed.data(), seed, 32);
  const std::size_t bytes = wire_keys::nh_key_words() * 4;
  auto* stream = static_cast<std::uint32_t*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64));
  if (stream == nullptr) std::abort();
  // The keys own the stream: the last copy frees it.
  keys.nh = std::shared_ptr<const std::uint32_t[]>(stream, [](const std::uint32_t* p) {
    std::free(const_cast<std::uint32_t*>(p));
  });
  randombytes_buf_deterministic(stream, bytes, seed);
  return keys;
}

void nh2_digest(const wire_keys& keys, const unsigned char* body, std::size_t len,
                std::uint64_t out[2]) noexcept {
  std::uint64_t a = 0, b = 0;
  nh2_accumulate(keys, nullptr, body, len, 0, a, b);
  out[0] = a;
  out[1] = b;
}

void copy_and_digest(const wire_keys& keys, unsigned char* dst, const unsigned char* src,
                     std::size_t len, std::size_t key_offset_bytes, std::uint64_t acc[2]) noexcept {
  nh2_accumulate(keys, dst, src, len, key_offset_bytes / 4, acc[0], acc[1]);
}

std::uint64_t compute_tag(const wire_keys& keys, const wire_header& h, const unsigned char* body,
                          std::size_t body_len, const std::uint64_t* digest) noexcept {
  alignas(16) unsigned char input[tagged_header_bytes + direct_tag_limit];
  std::memcpy(input, &h, tagged_header_bytes);
  std::size_t n = tagged_header_bytes;
  if (body_len <= direct_tag_limit) {
    if (body_len != 0) std::memcpy(input + n, body, body_len);
    n += body_len;
  } else {
    std::uint64_t d[2];
    if (digest == nullptr) {
      nh2_digest(keys, body, body_len, d);
      digest = d;
    }
    std::memcpy(input + n, digest, 16);
    n += 16;
  }
  std::uint64_t tag;
  crypto_shorthash(reinterpret_cast<unsigned char*>(&tag), input, n, keys.sip.data());
  return tag;
}

void deposit(void* dst, const void* src, std::size_t len) noexcept {
#if defined(__x86_64__)
  if (len >= 32768 && have_avx2) {
    stream_copy_avx2(static_cast<unsigned char*>(dst), static_cast<const unsigned char*>(src), len);
    return;
  }
#endif
  std::memcpy(dst, src, len);
}

const char* drop_reason_name(drop_reason r) noexcept {
  switch (r) {
    case drop_reason::none: return "none";
    case drop_reason::short_datagram: return "short";
    case drop_reason::bad_magic: return "bad_magic";
    case drop_reason::bad_job: return "bad_job";
    case drop_reason::bad_processor: return "bad_processor";
    case drop_reason::malformed: return "malformed";
    case drop_reason::bad_length: return "bad_length";
    case drop_reason::bad_tag: return "bad_tag";
    case drop_reason::bad_ack: return "bad_ack";
    case drop_reason::bad_handler: return "bad_handler";
    case drop_reason::count: break;
  }
  return "?";
}

drop_reason parse(const wire_keys& keys, const parse_limits& limits, const unsigned char* data,
                  std::size_t len, parsed_datagram& out) noexcept {
  if (len < header_bytes || len > max_datagram) return drop_reason::short_datagram;
  const auto* h = reinterpret_cast<const wire_header*>(data);
  if (h->magic != wire_magic) return drop_reason::bad_magic;
  if (h->job != limits.job) return drop_reason::bad_job;
  if (h->reserved0 != 0 || h->reserved1 != 0 ||
      (h->flags & ~flag_known) != 0)
    return drop_reason::malformed;
  if (h->src >= limits.procs || h->dst != limits.myproc || h->src == limits.myproc)
    return drop_reason::bad_processor;
  if ((h->flags & flag_no_ack) != 0 &&
      (h->ack != 0 || h->sack[0] != 0 || h->sack[1] != 0 || h->ack_delay != 0))
    return drop_reason::malformed;
  const std::size_t body = len - header_bytes;

  if (h->type == static_cast<std::uint8_t>(dgram_type::ack) ||
      h->type == static_cast<std::uint8_t>(dgram_type::probe)) {
    // An ack's seq names the probe it answers (0: none); a probe's is its number.
    const bool probe = h->type == static_cast<std::uint8_t>(dgram_type::probe);
    if ((h->flags & ~(probe ? 0 : flag_no_ack)) != 0 || h->nargs != 0 || h->handler != 0 ||
        h->payload != 0 || (probe && h->seq == 0) || h->msg_seq != 0 || h->offset != 0 ||
        h->total != 0 || h->address != 0)
      return drop_reason::malformed;
    if (body != 0) return drop_reason::short_datagram;
  } else if (h->type == static_cast<std::uint8_t>(dgram_type::data)) {
    const unsigned kind = (h->flags >> flag_kind_shift) & 3;
    const bool first = (h->flags & flag_first) != 0;
    if (kind > 2 || h->nargs > am_max_args) return drop_reason::malformed;
    if (h->seq == 0 || h->msg_seq == 0 || h->msg_seq > h->seq ||
        h->seq - h->msg_seq >= (std::uint64_t{1} << 20))
      return drop_reason::malformed;
    if (first != (h->seq == h->msg_seq) || (first && h->offset != 0) ||
        (!first && h->nargs != 0))
      return drop_reason::malformed;
    if (body != 8 * std::size_t{h->nargs} + h->payload) return drop_reason::short_datagram;
    std::size_t limit;
    if ((h->flags & flag_internal) != 0) {
      limit = limits.max_internal;
    } else if (kind == static_cast<unsigned>(am_kind::short_msg)) {
      limit = 0;
    } else if (kind == static_cast<unsigned>(am_kind::medium_msg)) {
      limit = limits.max_medium;
    } else {
      limit = limits.max_long;
    }
    if (h->total > limit) return drop_reason::bad_length;
    if (std::uint64_t{h->offset} + h->payload > h->total) return drop_reason::bad_length;
    if (h->payload == 0 && h->total != 0) return drop_reason::bad_length;
    if (!first && h->payload == 0) return drop_reason::bad_length;
    // Fragments cover the message in sequence order: a later one starts past the first.
    if (!first && h->offset == 0) return drop_reason::bad_length;
    if (kind == static_cast<unsigned>(am_kind::long_msg) && (h->flags & flag_internal) == 0) {
      if (h->total != 0 && h->address == 0) return drop_reason::bad_length;
      if (h->address + h->total < h->address) return drop_reason::bad_length;
    } else if (h->address != 0) {
      return drop_reason::malformed;
    }
  } else {
    return drop_reason::malformed;
  }

  const unsigned char* b = data + header_bytes;
  if (compute_tag(keys, *h, b, body, nullptr) != h->tag) return drop_reason::bad_tag;
  out.header = h;
  out.args = h->nargs != 0 ? reinterpret_cast<const am_word*>(b) : nullptr;
  out.payload = b + 8 * std::size_t{h->nargs};
  return drop_reason::none;
}

}  // namespace splitc::backends::udp
