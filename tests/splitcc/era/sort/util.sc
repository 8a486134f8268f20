/* util.sc: the real definitions behind era.h (gnu89 rules), and K&R helpers. */
#include <split-c/split-c.h>
#include "era.h"

/* The header's extern inline versions inline only: these are the functions. */
int key_of(int i) { return (int)((i * 7919L + 13) % KEYRANGE); }
int bucket_of(int key) { return key * PROCS / KEYRANGE; }

/* In gnu89 a file-scope inline definition is an external one, called from
 * sort.sc; a static object used in it is fine there. */
static int calls;
inline int twice(x)
     int x;
{
  return 2 * x;
}
inline int counted(int x) {
  ncounted = ++calls;
  return x;
}

/* Implicit int, K&R, register: called from sort.sc with no declaration. */
check_sorted(keys, n)
     int *keys;
{
  register i;
  for (i = 1; i < n; i++)
    if (keys[i - 1] > keys[i]) return 0;
  return 1;
}

sort_keys(keys, n)
     int *keys;
{
  register i, j, k;
  for (i = 1; i < n; i++) {
    k = keys[i];
    for (j = i; j > 0 && keys[j - 1] > k; j--) keys[j] = keys[j - 1];
    keys[j] = k;
  }
}
