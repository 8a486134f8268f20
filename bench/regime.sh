# Helpers for the side-by-side benchmark scripts (sourced, not run: layers/*/bench/run.sh).
#
# This machine's cross-core speed switches between two regimes ("near", ~140 ns cache-line
# round trip, and "far", ~550 ns; ../shared/reference/this-machine.md). A script places each
# round by the regime measured just before and just after it:
#
#   regime_now RUN BENCH    "near" or "far" by splitc-bench's raw cache-line round trip
#                           (RUN: splitc-run, BENCH: splitc-bench; about 2 s); "?" when
#                           BENCH is not there
#   regime_of BEFORE AFTER  the round's regime: BEFORE, or "mixed" when the two differ
#   median_rows             stdin: CSV rows "key...,value"; stdout: "key...,median,min,max,n"
#                           for each key (the key is every column but the last), sorted
regime_now() {
  local run=$1 bench=$2
  [[ -x $bench ]] || { echo "?"; return; }
  "$run" -n 2 "$bench" --only limits --no-plots 2> /dev/null |
    awk '/raw cache-line ping-pong round trip at the start/ { for (i = 1; i <= NF; i++) if ($(i + 1) == "ns") { print ($i < 300 ? "near" : "far"); exit } }'
}

regime_of() {
  if [[ $1 == "$2" ]]; then echo "$1"; else echo mixed; fi
}

median_rows() {
  awk -F, '{
      key = $1
      for (i = 2; i < NF; i++) key = key "," $i
      n[key]++; v[key, n[key]] = $NF
    }
    END {
      for (k in n) {
        c = n[k]
        for (i = 1; i <= c; i++) a[i] = v[k, i]
        for (i = 2; i <= c; i++) { x = a[i]; j = i - 1; while (j > 0 && a[j] > x) { a[j + 1] = a[j]; j-- } a[j + 1] = x }
        med = (c % 2) ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2
        printf "%s,%.6g,%.6g,%.6g,%d\n", k, med, a[1], a[c], c
      }
    }' | sort
}
