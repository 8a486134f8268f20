#!/usr/bin/env bash
# The collectives' one copy between processes of one host in different pid namespaces (as
# containers sharing a host's /dev/shm and network are): a udp job of four processes on one
# "host" of a hosts file, started through a spawn template that puts processors 1 and 3 each
# in a pid namespace of its own (a child of this one) and leaves 0 and 2 here. Processors 0
# and 2 must read each other's blocks in one copy; every other pair, parent and child as well
# as two siblings, must stage them at both ends; the results exact (collective_one_copy's
# "pidns" mode checks each pair and the bytes read). Exits 77 (skipped) unless `unshare --pid`
# works here (root, or unprivileged user namespaces).
#   same_host_pidns_test.sh SPLITC_RUN_UDP COLLECTIVE_ONE_COPY_PROGRAM
set -u
run=$1 prog=$2
skip() { echo "same_host_pidns_test: skipped: $*"; exit 77; }
fail() { echo "same_host_pidns_test: $*" >&2; exit 1; }

command -v unshare >/dev/null || skip "no unshare command"
unshare --pid --fork --kill-child true 2>/dev/null || skip "unshare --pid is not allowed here"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf 'pidhost slots=4\n' >"$dir/hosts"
# The spawn template's command: `spawn.sh RANK env VARS... PROGRAM ARGS...`. Odd ranks run
# under a shell in a new pid namespace (the shell its pid 1, the program a child of it).
cat >"$dir/spawn.sh" <<'EOF'
#!/usr/bin/env bash
rank=$1
shift
if (( rank % 2 == 1 )); then
  exec unshare --pid --fork --kill-child bash -c '"$@"; exit $?' spawn "$@"
fi
exec "$@"
EOF

out=$(SPLITC_UDP_HOSTS="$dir/hosts" SPLITC_UDP_SPAWN="bash $dir/spawn.sh {rank}" \
      SPLITC_UDP_LISTEN=127.0.0.1 SPLITC_VERBOSE=1 timeout 200 "$run" -n 4 "$prog" pidns 2>&1)
rc=$?
echo "$out"
[[ $rc -eq 0 ]] || fail "the job failed with status $rc"
grep -q "^PASS collective_one_copy" <<<"$out" || fail "no PASS line"
# Every processor shares the host's memory with the other three: only the one copy differs.
for p in 0 1 2 3; do
  grep -q "processor $p of 4: udp: shares memory with processors 0-3 (4 on this host)" <<<"$out" ||
    fail "processor $p does not share memory with processors 0-3"
done
echo "PASS same_host_pidns_test"
