#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# lib/'s folders are layers the build enforces (lib/meson.build): a library
# sees its own headers and those of the layers below it, no other. For one
# source of each library, its exact compile command from the build's
# compile_commands.json compiles a probe that includes a header of its own
# or of a lower layer (it must compile) and probes that include one of a
# layer above or of a sibling (each must fail: the header is not found).
# Usage: check_layers.sh BUILD_DIR
set -u
build=${1:?usage: check_layers.sh BUILD_DIR}
db=$build/compile_commands.json
. "$(dirname "$0")/check_lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -r "$db" ]; then
	ko "$db: not readable"
	finish
	exit
fi

# The arguments of the command that compiles $1 (a path under lib/), one a
# line, without its source, output and dependency-file arguments; then the
# directory it runs in.
command_of() {
	python3 - "$db" "$1" <<'PY'
import json, os, shlex, sys
db, src = sys.argv[1], sys.argv[2]
for e in json.load(open(db)):
    f = os.path.normpath(os.path.join(e["directory"], e["file"]))
    if not f.endswith("/" + src):
        continue
    args = e["arguments"] if "arguments" in e else shlex.split(e["command"])
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a in ("-o", "-MQ", "-MF", "-MT"):
            skip = True
        elif a in ("-c", "-MD", "-MMD") or a == e["file"]:
            pass
        else:
            out.append(a)
    print("\n".join(out))
    print(e["directory"])
    sys.exit(0)
sys.exit(1)
PY
}

# probe LAYER SOURCE HEADER want: compile '#include "HEADER"' with the
# command of SOURCE; want "ok" (compiles) or "refused" (HEADER not found).
probe() {
	local layer=$1 src=$2 hdr=$3 want=$4 lines dir out rc
	local -a cmd
	if ! lines=$(command_of "$src"); then
		ko "$layer: no compile command for $src in $db"
		return
	fi
	mapfile -t cmd <<<"$lines"
	dir=${cmd[-1]}
	unset 'cmd[-1]'
	printf '#include "%s"\n' "$hdr" >"$tmp/probe_$layer.c"
	out=$(cd "$dir" && "${cmd[@]}" -fdiagnostics-color=never -fsyntax-only "$tmp/probe_$layer.c" 2>&1)
	rc=$?
	if [ "$want" = ok ]; then
		if [ $rc -eq 0 ]; then
			ok "$layer ($src) includes $hdr"
		else
			ko "$layer ($src) includes $hdr: does not compile: $(head -3 <<<"$out")"
		fi
	elif [ $rc -ne 0 ] && grep -q "fatal error: $hdr: No such file" <<<"$out"; then
		ok "$layer ($src) cannot include $hdr: $(grep -m1 'fatal error' <<<"$out" | sed 's/.*fatal error: //')"
	else
		ko "$layer ($src) includes $hdr: it is not refused (exit $rc) $(head -3 <<<"$out")"
	fi
}

# layer, a source of its library, headers it sees (its own, lower layers'),
# headers it must not see (higher layers', siblings')
layers=(
	"frame|lib/frame/fcr_text.c|fcr_text.h fcr_cmd.h|fcr_tables.h fcr_rec.h fcr_kind.h fcr_sync.h fcr_config.h fcr_store.h"
	"forward|lib/forward/fcr_tables.c|fcr_tables.h fcr_rec.h fcr_cmd.h|fcr_kind.h fcr_sync_wire.h fcr_config.h fcr_store.h"
	"kind|lib/kind/fcr_kinds.c|fcr_kind.h fcr_tables.h fcr_text.h|fcr_sync_wire.h fcr_config.h fcr_profile.h fcr_store.h"
	"sync|lib/sync/fcr_sync.c|fcr_sync.h fcr_kind.h fcr_frame.h|fcr_config.h fcr_store.h"
	"control|lib/control/fcr_config.c|fcr_config.h fcr_kind.h fcr_rec.h|fcr_sync.h fcr_store.h"
	"store|lib/store/fcr_store.c|fcr_store.h fcr_kind.h fcr_cmd.h|fcr_sync.h fcr_config.h"
)

for row in "${layers[@]}"; do
	IFS='|' read -r layer src sees refused <<<"$row"
	for h in $sees; do probe "$layer" "$src" "$h" ok; done
	for h in $refused; do probe "$layer" "$src" "$h" refused; done
done
finish
