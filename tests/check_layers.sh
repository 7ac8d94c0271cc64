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

# app/ is one program, not layers, but its files form no include cycle
# either (a file that only logs never reaches one that sends frames, the
# command line and the terminal do not call each other both ways): the
# graph of which app/ file includes the header of which other, walked for
# a cycle. The same walk must find the cycle planted in a copy, so the
# check cannot pass by reading nothing.
app_cycle() {
	python3 - "$1" <<'PY'
import glob, os, re, sys
app = sys.argv[1]
files = {os.path.basename(c)[:-2] for c in glob.glob(app + "/*.c")}
deps = {}
for n in files:
    inc = re.findall(r'#include "(\w+)\.h"', open("%s/%s.c" % (app, n)).read())
    deps[n] = sorted(i for i in inc if i in files and i != n)
state = {}
def walk(n, path):
    state[n] = 1
    for d in deps[n]:
        if state.get(d) == 1:
            return path[path.index(d):] + [d]
        if d not in state:
            c = walk(d, path + [d])
            if c:
                return c
    state[n] = 2
    return None
for n in sorted(files):
    if n not in state:
        c = walk(n, [n])
        if c:
            print(" -> ".join(c))
            sys.exit(1)
print("%d files" % len(files))
PY
}
src=$(cd "$(dirname "$0")/.." && pwd)
if out=$(app_cycle "$src/app"); then
	ok "app/: no include cycle among its files ($out)"
else
	ko "app/: an include cycle: $out"
fi
mkdir "$tmp/app"
printf '#include "b.h"\n' >"$tmp/app/a.c"
printf '#include "c.h"\n' >"$tmp/app/b.c"
printf '#include "a.h"\n' >"$tmp/app/c.c"
if out=$(app_cycle "$tmp/app"); then
	ko "the cycle check misses a planted cycle ($out)"
else
	ok "the cycle check finds a planted one: $out"
fi
finish
