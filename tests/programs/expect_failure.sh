#!/usr/bin/env bash
# Runs a job that must fail: requires a non-zero exit status (optionally a given one), a match
# of REGEX in its combined output, the job's end within a time limit, and afterwards no
# process of the job left and no splitc job memory (memfd) held by any process of the job.
#
#   expect_failure.sh --regex REGEX [--status N] [--within SECONDS] [--timeout SECONDS]
#                     [--absent REGEX] [--program NAME] [--kill-rank RANK | --kill-printed-pid |
#                      --signal-launcher SIG] [--ready REGEX]
#                     -- COMMAND [ARGS...]
#
#   --absent REGEX   no line of the output may match it (a second, misleading account);
#                    given twice, neither may match
#   --program NAME   the job's program, a name used by no other test: afterwards
#                    no live process may run NAME (its comm and /proc/PID/exe)
#   --kill-rank R    once the output matches --ready, `kill -9` the job's processor R (found
#                    by SPLITC_MYPROC=R in its initial environment: launchers that set it)
#   --kill-printed-pid  once the output matches --ready, `kill -9` the process whose id
#                    follows "pid " in the matching line (any backend, any launcher)
#   --signal-launcher SIG  once the output matches --ready, send SIG to splitc-run itself (or
#                    to mpirun when the job was started by mpirun without splitc-run)
#   --within S       the job must have ended S seconds after it started (default 20)
#   --timeout S      hard limit: the job is killed after S seconds (default 60)
#
# Every process of the job (not this script) inherits SPLITC_TEST_TAG, unique per run: it
# finds the job's processes (orphans) and the holders of its memfd even when other jobs run at
# the same time on this machine. Times and counts are bash's own ($EPOCHREALTIME, arithmetic):
# each program this script starts costs about 10 ms of CPU on a machine whose kernel work is
# dear (docs/running.md, "The harness's own cost"), and the suite runs it 1,437 times.
set -u

absent="" regex="" status="" within=20 hard=60 program="" kill_rank="" ready="" launcher_signal=""
launcher="" mpi_launcher=""
kill_printed=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --regex) regex=$2; shift 2 ;;
    --absent) absent=${absent:+$absent|}$2; shift 2 ;;
    --status) status=$2; shift 2 ;;
    --within) within=$2; shift 2 ;;
    --timeout) hard=$2; shift 2 ;;
    --program) program=$2; shift 2 ;;
    --kill-rank) kill_rank=$2; shift 2 ;;
    --kill-printed-pid) kill_printed=1; shift ;;
    --ready) ready=$2; shift 2 ;;
    --signal-launcher) launcher_signal=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "expect_failure: unknown option $1" >&2; exit 2 ;;
  esac
done
if [[ -z $regex || $# -eq 0 ]]; then
  echo "usage: expect_failure.sh --regex REGEX [options] -- COMMAND [ARGS...]" >&2
  exit 2
fi

tag="expect-failure-$$-$RANDOM$RANDOM"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
failures=0
fail() {
  echo "expect_failure: FAIL: $*" >&2
  failures=$((failures + 1))
}

# The processes whose environment carries our tag (the job's, however deep).
tagged_pids() {
  local file
  for file in $(grep -lzx -- "SPLITC_TEST_TAG=$tag" /proc/[0-9]*/environ 2>/dev/null); do
    file=${file#/proc/}
    echo "${file%/environ}"
  done
}
# SECONDS[.FRACTION] in microseconds (--within's value).
to_us() {
  local whole=${1%%.*} fraction=000000
  [[ $1 == *.* ]] && fraction=${1#*.}000000
  echo $((10#${whole:-0} * 1000000 + 10#${fraction:0:6}))
}
# The parent process id of PID (the fourth field of /proc/PID/stat, after the parenthesised name).
parent_of() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
  stat=${stat##*) }
  read -r _ ppid _ <<<"$stat"
  echo "$ppid"
}
# Whether process PID runs the program NAME: its comm (the kernel keeps 15 characters of it)
# and the name it was started by, its argv[0] (names longer than that share prefixes:
# xf_broadcast_root_smp, _mpi; a test program is a link to its backend's test driver, so the
# file it executes is the driver's).
runs_program() {  # runs_program PID NAME
  local argv0
  [[ $(cat "/proc/$1/comm" 2>/dev/null) == "${2:0:15}" ]] || return 1
  IFS= read -r -d '' argv0 < "/proc/$1/cmdline" 2>/dev/null
  [[ $(basename -- "$argv0") == "$2" ]]
}
# Live (not zombie) processes that run NAME. A process killed with its launcher is reparented
# and stays a zombie until init reaps it: dead, so not an orphan.
live_named() {
  local pid
  for pid in $(pgrep -x "${1:0:15}"); do
    runs_program "$pid" "$1" || continue
    [[ $(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null) == [^Z]* ]] && echo "$pid"
  done
}
has_env() {  # has_env PID NAME=VALUE
  grep -qzx -- "$2" "/proc/$1/environ" 2>/dev/null
}

within_us=$(to_us "$within")
start=${EPOCHREALTIME/[.,]/}  # microseconds, whatever the locale's decimal point
SPLITC_TEST_TAG=$tag timeout --kill-after=5 "$hard" "$@" > "$out" 2>&1 &
job=$!

if [[ -n $kill_rank || -n $kill_printed || -n $launcher_signal ]]; then
  # Wait for the program to say it is ready.
  until grep -qE "$ready" "$out"; do
    if ! kill -0 "$job" 2>/dev/null; then break; fi
    sleep 0.05
  done
  victim=""
  for pid in $(tagged_pids); do
    comm=$(cat "/proc/$pid/comm" 2>/dev/null)
    if [[ -n $kill_rank ]] && has_env "$pid" "SPLITC_MYPROC=$kill_rank" &&
       { [[ -z $program ]] || runs_program "$pid" "$program"; }; then
      victim=$pid
    fi
    # splitc-run (it runs mpirun for the mpi backends); mpirun only when there is none. The
    # launcher is timeout's child: splitc-run's own forks (its janitor, the ranks' supervisors)
    # carry the tag and the name too.
    if [[ -n $launcher_signal && $comm == splitc-run* && $(parent_of "$pid") == "$job" ]]; then
      launcher=$pid
    elif [[ -n $launcher_signal && ($comm == mpirun* || $comm == mpiexec*) ]]; then
      mpi_launcher=$pid
    fi
  done
  if [[ -n $launcher_signal ]]; then
    victim=${launcher:-${mpi_launcher:-}}
  fi
  if [[ -n $kill_printed ]]; then
    victim=$(grep -E "$ready" "$out" | head -n 1 | sed -nE 's/.*pid ([0-9]+).*/\1/p')
  fi
  if [[ -z $victim ]]; then
    fail "found no process to signal"
  elif [[ -n $kill_printed ]]; then
    echo "expect_failure: kill -9 $victim (the pid it printed)"
    kill -9 "$victim"
  elif [[ -n $kill_rank ]]; then
    echo "expect_failure: kill -9 $victim (processor $kill_rank)"
    kill -9 "$victim"
  else
    echo "expect_failure: kill -$launcher_signal $victim (splitc-run)"
    kill -"$launcher_signal" "$victim"
  fi
fi

wait "$job"
rc=$?
end=${EPOCHREALTIME/[.,]/}
elapsed_us=$((end - start))
printf -v elapsed '%d.%02d' $((elapsed_us / 1000000)) $((elapsed_us / 10000 % 100))

echo "----- output of: $* -----"
cat "$out"
echo "----- exit status $rc after ${elapsed}s -----"

if [[ $rc -eq 0 ]]; then
  fail "the job exited 0; it must fail"
elif [[ $rc -eq 124 || ($rc -eq 137 && $status != 137) ]]; then
  fail "the job did not end by itself: timeout ended it after ${hard}s"
fi
if [[ -n $status && $rc -ne $status ]]; then
  fail "exit status $rc, expected $status"
fi
if ! grep -qE -- "$regex" "$out"; then
  fail "the output does not match: $regex"
fi
if [[ -n $absent ]] && grep -E -- "$absent" "$out" >&2; then
  fail "the output has a line it must not have (above): $absent"
fi
if ((elapsed_us > within_us)); then
  fail "the job took ${elapsed}s to end; the limit is ${within}s"
fi

# Nothing of the job may remain. Processes killed by the launcher or by PDEATHSIG may take a
# moment to be reaped: look for up to 5 seconds before calling them orphans.
for ((round = 0; round < 50; round++)); do
  left=$(tagged_pids)
  named=""
  [[ -n $program ]] && named=$(live_named "$program")
  [[ -z $left && -z $named ]] && break
  sleep 0.1
done
if [[ -n $left ]]; then
  fail "processes of the job are still alive: $(ps -o pid=,comm= -p "$(echo $left | tr ' ' ,)" | tr '\n' ';')"
fi
if [[ -n $named ]]; then
  fail "processes named $program are still alive: $named"
fi
# The job's memory is a memfd ("memfd:splitc-job"); it vanishes with the last process that
# holds it. No process of the job may hold one (other jobs' memfds are not ours to judge): only
# a process still alive with our tag can, so only those left above are looked at.
holders=""
for pid in $left; do
  if find "/proc/$pid/fd" -maxdepth 1 -lname '/memfd:splitc-job*' 2>/dev/null | grep -q .; then
    holders="$holders $pid"
  fi
done
if [[ -n $holders ]]; then
  fail "splitc job memory is still held by process(es)$holders"
fi

if [[ $failures -ne 0 ]]; then
  exit 1
fi
echo "expect_failure: ok (exit status $rc, ${elapsed}s, nothing left behind)"
exit 0
