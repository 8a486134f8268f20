#!/usr/bin/env bash
# A shmem job killed while OpenSHMEM (UCX) writes its symmetric heaps leaves nothing behind
# (issue 45): splitc-run points UCX's posix directory (UCX_POSIX_DIR) and Open MPI's vader
# directory at the job's private directory, which the launcher's janitor removes however the
# job ends. UCX_ALLOC_PRIO=md:posix makes UCX write each heap as a file there (its fallback
# when System V memory refuses one), so that the job can be killed in the middle.
#   killed_mid_allocation.sh SPLITC_RUN_SHMEM PROGRAM
# Passes when, after splitc-run is killed with SIGKILL mid-allocation, the directory and every
# process of the job are gone within 20 s. On the way it checks that oshrun, like mpirun, got
# no SIGTERM grace from splitc-run (OMPI_MCA_odls_base_sigkill_timeout=0: docs/running.md).
#
# The job is held still where it is caught: once a heap file has grown past 1 MiB, every
# process under oshrun (the PEs' supervisors and the PEs) is stopped (SIGSTOP), so that what
# the test then checks and kills is that state, however slowly the machine runs. (Two CI runs
# beside the suite's other tests failed, where 194 runs alone, beside busy loops or beside the
# suite passed: one found a heap file in the waiting loop and none just after, the output of
# the other was not kept.) A process counts as gone once it is a zombie (the job's processes
# are reaped by whoever inherits them, init here, which may take a moment) or its pid names
# another process.
set -u
run=$1 program=$2
begun=$EPOCHREALTIME
elapsed() { awk -v a="$begun" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f s", b - a }'; }
frozen=""
# A failure ends the job too (its janitor then removes the directory).
fail() {
  kill -CONT $frozen 2>/dev/null
  kill -KILL "${job:-0}" 2>/dev/null
  echo "FAIL ($(elapsed) into the job): $*"
  exit 1
}
export UCX_ALLOC_PRIO=md:posix SPLITC_SEGMENT_SIZE=2G
unset UCX_POSIX_DIR OMPI_MCA_btl_vader_backing_directory OMPI_MCA_odls_base_sigkill_timeout
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$run" -n 2 "$program" > "$log" 2>&1 &
job=$!

# A heap file being written: more than 1 MiB (a heap grows to SPLITC_SEGMENT_SIZE as UCX
# writes it).
heap_file() { [[ -n $(find "$dir" -maxdepth 1 -name 'ucx_shm_posix_*' -size +1M 2>/dev/null) ]]; }
# Every process below pid $1, deepest last ("PID" lines).
descendants() {
  local child
  for child in $(pgrep -P "$1"); do
    echo "$child"
    descendants "$child"
  done
}
# "PID:START" of a process (START: its start time in clock ticks after boot, field 22 of
# /proc/PID/stat), empty when it is gone.
identity() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
  stat=${stat##*) }  # after "PID (COMM) ", COMM may hold spaces and parentheses
  set -- $stat       # STATE PPID ... : field 22 of the line is the 20th here
  echo "$1 ${20}"
}
alive() {  # alive PID START: the same process, not a zombie
  local now
  now=$(identity "$1")
  [[ -n $now && ${now#* } == "$2" && ${now%% *} != [ZX] ]]
}

# The job's directory and processes, from the environment and children of its launcher: 40 s at
# most (the test's limit is 60).
dir="" launcher="" pes=""
until [[ -n $dir && -n $pes ]] && heap_file; do
  (( ${EPOCHREALTIME%.*} - ${begun%.*} < 40 )) || break
  kill -0 "$job" 2>/dev/null || fail "the job ended before a heap file was written; output: $(cat "$log")"
  for child in $(pgrep -P "$job"); do
    d=$(tr '\0' '\n' < "/proc/$child/environ" 2>/dev/null | sed -n 's/^UCX_POSIX_DIR=//p')
    if [[ -n $d ]]; then dir=$d launcher=$child; fi
  done
  [[ -n $launcher ]] && pes=$(pgrep -P "$launcher" | tr '\n' ' ')
  sleep 0.05
done
[[ -n $dir ]] || fail "no UCX_POSIX_DIR in the environment of splitc-run's launcher; output: $(cat "$log")"
[[ $dir == /dev/shm/splitc-job-* ]] || fail "UCX_POSIX_DIR=$dir is not the job's directory"
# Held still: the PEs and their supervisors, with who each one is.
job_processes=""
for p in $(descendants "$launcher"); do
  kill -STOP "$p" 2>/dev/null && frozen="$frozen $p" && job_processes="$job_processes $p:$(identity "$p" | cut -d' ' -f2)"
done
grace=$(tr '\0' '\n' < "/proc/$launcher/environ" 2>/dev/null |
          sed -n 's/^OMPI_MCA_odls_base_sigkill_timeout=//p')
caught=$(elapsed)
[[ $grace == 0 ]] || fail "oshrun's SIGTERM grace is '$grace', expected 0"
heap_file || fail "UCX wrote no heap file into the job's directory $dir ($(ls -l "$dir" 2>&1 |
  tr '\n' ' '); /dev/shm: $(df -h /dev/shm | tail -1); processes stopped:$frozen); output: $(cat "$log")"
written=$(du -sb "$dir" 2>/dev/null | cut -f1)
# bash reports the killed job ("line N: PID Killed ...") when it reaps it, which may be before
# `wait`: the notice is kept out of the output the test's pass line is matched in.
{
  kill -KILL "$job"
  wait "$job"
} 2> /dev/null
killed=$EPOCHREALTIME

for _ in $(seq 1 200); do
  left=""
  [[ -e $dir ]] && left="the directory"
  for p in $job_processes; do alive "${p%:*}" "${p#*:}" && left="$left process ${p%:*}"; done
  [[ -z $left ]] && break
  sleep 0.1
done
[[ -z $left ]] || fail "20 s after splitc-run was killed, left: $left ($(ls "$dir" 2>/dev/null | tr '\n' ' '); $(ps -o pid,ppid,stat,comm -p "$(echo $frozen | tr ' ' ,)" 2>/dev/null | tr '\n' ' '))"
echo "PASS killed mid-allocation: ${written:-?} bytes of heap files written in $dir, all gone" \
  "$(awk -v a="$killed" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f s", b - a }') after the kill" \
  "(caught $caught into the job; processes:$job_processes)"
