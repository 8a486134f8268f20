/* cmmd-run: start a CM-5 node program on a partition of N nodes made of real
 * processes of this host (the emulation's loader, for programs written to
 * CMAML, CMAM and CMMD directly; splitc's ports use splitc-run instead).
 *
 *   cmmd-run -n N program [arguments...]
 *
 * Makes the partition (CMMD_partition_create), starts N processes with
 * CMMD_PARTITION_FD and CMMD_NODE set, and waits. The first node that fails
 * (non-zero status or a signal) ends the others (SIGTERM, then SIGKILL after
 * a second); the status is that node's (128 + signal for a signal), and a
 * line names it. */
#define _GNU_SOURCE
#include <cmmd.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int status_of(int wstatus) {
  return WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
}

int main(int argc, char **argv) {
  if (argc < 4 || strcmp(argv[1], "-n") != 0) {
    fprintf(stderr, "usage: cmmd-run -n NODES program [arguments...]\n");
    return 2;
  }
  char *end;
  const long nodes = strtol(argv[2], &end, 10);
  if (*end != 0 || nodes < 1 || nodes > 4096) {
    fprintf(stderr, "cmmd-run: -n %s is not a number of nodes (1 to 4096)\n", argv[2]);
    return 2;
  }
  const int fd = CMMD_partition_create((int)nodes);
  if (fd < 0) {
    fprintf(stderr, "cmmd-run: cannot make the partition: %s\n", strerror(errno));
    return 70;
  }
  pid_t *pids = calloc((size_t)nodes, sizeof *pids);
  char fd_text[32];
  snprintf(fd_text, sizeof fd_text, "%d", fd);
  for (long i = 0; i < nodes; ++i) {
    pids[i] = fork();
    if (pids[i] < 0) {
      fprintf(stderr, "cmmd-run: fork: %s\n", strerror(errno));
      return 70;
    }
    if (pids[i] == 0) {
      char node_text[32];
      snprintf(node_text, sizeof node_text, "%ld", i);
      setenv("CMMD_PARTITION_FD", fd_text, 1);
      setenv("CMMD_NODE", node_text, 1);
      execvp(argv[3], argv + 3);
      fprintf(stderr, "cmmd-run: cannot run %s: %s\n", argv[3], strerror(errno));
      _exit(127);
    }
  }
  int result = 0, running = (int)nodes;
  long failed = -1;
  time_t killed_at = 0;
  while (running > 0) {
    int wstatus;
    const pid_t pid = waitpid(-1, &wstatus, failed >= 0 ? WNOHANG : 0);
    if (pid < 0) break;
    if (pid == 0) {
      if (time(NULL) - killed_at >= 2)
        for (long i = 0; i < nodes; ++i)
          if (pids[i] > 0) kill(pids[i], SIGKILL);
      const struct timespec t = {0, 10000000};
      nanosleep(&t, NULL);
      continue;
    }
    --running;
    long node = -1;
    for (long i = 0; i < nodes; ++i)
      if (pids[i] == pid) node = i, pids[i] = 0;
    if (status_of(wstatus) != 0 && failed < 0) {
      failed = node;
      result = status_of(wstatus);
      fprintf(stderr, "cmmd-run: node %ld failed (%s %d); ending the others\n", node,
              WIFEXITED(wstatus) ? "status" : "signal",
              WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : WTERMSIG(wstatus));
      for (long i = 0; i < nodes; ++i)
        if (pids[i] > 0) kill(pids[i], SIGTERM);
      killed_at = time(NULL);
    }
  }
  return result;
}
