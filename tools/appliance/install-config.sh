#!/bin/sh
# meson install: the appliance's configuration files into /etc/fcredirect,
# each only when it is not there yet (an edited file stays as it is).
set -eu
src=$1
dest="${DESTDIR:-}/etc/fcredirect"
mkdir -p "$dest"
for f in fcredirect.env startup.cmds; do
	if [ -e "$dest/$f" ]; then
		echo "fcredirect: $dest/$f exists: kept (the shipped one is $src/$f)"
	else
		install -m 644 "$src/$f" "$dest/$f"
		echo "fcredirect: installed $dest/$f"
	fi
done
