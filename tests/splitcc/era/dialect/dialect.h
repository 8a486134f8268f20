/* dialect.h: included by both files, written for GCC 2.x (gnu89). */
extern inline int square(int x) { return x * x; }   /* inlines only: util.sc defines it */
extern inline int owner(int i) { return i % PROCS; }
int ticks;                                           /* a common symbol in both files */
