/* What the Split-C programs cross-checked with their C++ versions share
 * (splitcc.compare.*, tests/splitcc/reference/digest.hpp the other side): a
 * digest of this processor's final data -- how many items, their sum, the
 * xor of keys, and an FNV-1a hash of the values in order (a changed value,
 * or one in another place, changes it) -- and the "result" lines processor
 * 0 prints, one per processor, reading each digest through a global
 * pointer. Included by one file of a program (its functions are static). */
#include <stdio.h>

struct digest_t {
  int count;               /* set by the program: keys, nodes or blocks */
  long long key_sum;
  double value_sum;
  unsigned xor_all;
  unsigned long long hash;
};
static struct digest_t my_digest;

static unsigned long long digest_hash(unsigned long long h, unsigned long long w)
{
  return (h ^ w) * 1099511628211ull; /* FNV-1a, one 64-bit word at a time */
}

static void digest_start(void)
{
  my_digest.count = 0;
  my_digest.key_sum = 0;
  my_digest.value_sum = 0;
  my_digest.xor_all = 0;
  my_digest.hash = 14695981039346656037ull;
}

static void digest_key(unsigned key)
{
  my_digest.count++;
  my_digest.key_sum += key;
  my_digest.xor_all ^= key;
  my_digest.hash = digest_hash(my_digest.hash, key);
}

/* A value's bits go into the hash; the program counts what it means. */
static void digest_value(double v)
{
  union { double d; unsigned long long w; } u;
  u.d = v;
  my_digest.value_sum += v;
  my_digest.hash = digest_hash(my_digest.hash, u.w);
}

/* Collective. Keys (count_name NULL):
 *   PREFIX proc P count N sum S xor X hash H
 * values:
 *   PREFIX proc P COUNT_NAME N sum S hash H */
static void digest_print(const char *prefix, const char *count_name)
{
  int p;
  barrier();
  on_one {
    for (p = 0; p < PROCS; p++) {
      struct digest_t *global g = toglobal(p, &my_digest);
      struct digest_t d = *g;
      if (count_name == NULL)
        printf("%s proc %d count %d sum %lld xor %08x hash %016llx\n", prefix, p, d.count,
               d.key_sum, d.xor_all, d.hash);
      else
        printf("%s proc %d %s %d sum %.17g hash %016llx\n", prefix, p, count_name, d.count,
               d.value_sum, d.hash);
    }
  }
  barrier(); /* every digest is read before the program changes it again */
}
