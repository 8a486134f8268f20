#!/usr/bin/env bash
# Fails when a port includes what is not its to include. A port (ports/<port>/, its tests,
# bench and fuzz programs aside: those use splitc as a program does) may include:
#   <splitc/port/...>                   the porter's surface: the boundary (am.hpp), launch,
#                                       backoff, the failure call, CPU atomics, send
#                                       forwarding, the MPI launcher, on-sim, the kit
#   <splitc/...> under its include/     its own headers (splitc/backends/<name>.hpp)
#   "file" in its own directory tree    its private headers (no path out of ports/<port>/)
#   <splitc/sim_engine.h>, <splitc/sim_engine/...>   the sim engine, a substrate
#   any other <file>                    its vendor's layer (emulations/<machine>/include, MPI,
#                                       OpenSHMEM) and the system, unless the file is another
#                                       port's
# so not the core's internals (splitc/detail/), the user API (splitc/splitc.hpp, splitc.h) or
# a sibling port's files.
#   check_port_surface.sh SOURCE_DIR
set -u
root=${1:?usage: check_port_surface.sh SOURCE_DIR}
cd "$root" || exit 2
status=0
report() { echo "$1: includes $2: $3"; status=1; }

for port_dir in ports/*/; do
  port_dir=${port_dir%/}
  while IFS= read -r file; do
    while IFS= read -r line; do
      number=${line%%:*}
      text=${line#*:}
      if [[ $text =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\"([^\"]+)\" ]]; then
        target=${BASH_REMATCH[1]}
        resolved=$(realpath -m "$(dirname "$file")/$target")
        [[ $resolved == "$PWD/$port_dir/"* ]] ||
          report "$file:$number" "\"$target\"" "a file outside $port_dir/"
      elif [[ $text =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\<([^\>]+)\> ]]; then
        target=${BASH_REMATCH[1]}
        case $target in
          splitc/port/*|splitc/sim_engine.h|splitc/sim_engine/*) ;;
          splitc.h|split-c/*) report "$file:$number" "<$target>" "the C interface is for programs" ;;
          splitc/*)
            [[ -f $port_dir/include/$target ]] ||
              report "$file:$number" "<$target>" "not the porter's surface (include/splitc/port/) nor $port_dir's own header" ;;
          *)
            for other in ports/*/; do
              other=${other%/}
              [[ $other == "$port_dir" ]] && continue
              if [[ -f $other/include/$target ]]; then
                report "$file:$number" "<$target>" "a header of $other"
              fi
            done ;;
        esac
      fi
    done < <(grep -n '#[[:space:]]*include' "$file")
  done < <(find "$port_dir" -type f \( -name '*.c' -o -name '*.cc' -o -name '*.cpp' -o -name '*.h' -o -name '*.hpp' \) \
             -not -path "$port_dir/tests/*" -not -path "$port_dir/bench/*" -not -path "$port_dir/fuzz/*" | sort)
done
if ((status == 0)); then
  echo "every port includes only the porter's surface, its own files, its layer's and its substrate's"
fi
exit $status
