#!/bin/sh
# Checks hsalite's module layering from the #include lines under src/:
#   - no module includes another module's private header (x/x_priv.h);
#   - no module includes a header of a module above it, in the order
#     kfd, util < runtime < memory < signal < queue < loader < copy < image
#     < tools
#     (src/modules.c, the module table, is the one file that names them all).
# Prints each offending line and exits 1 when there is one, 0 otherwise.
# Run from the repository root: scripts/check-layers.sh
set -eu

rank() {
	case "$1" in
	util|kfd|uapi) echo 0 ;;
	runtime) echo 1 ;;
	memory) echo 2 ;;
	signal) echo 3 ;;
	queue) echo 4 ;;
	loader) echo 5 ;;
	copy) echo 6 ;;
	image) echo 7 ;;
	tools) echo 8 ;;
	*) echo -1 ;;
	esac
}

bad=0
for f in $(find src -name '*.[ch]' | sort); do
	mod=${f#src/}
	mod=${mod%%/*}
	case "$mod" in *.c|*.h) continue ;; esac # src/modules.c, src/exports.map
	from=$(rank "$mod")
	[ "$from" -ge 0 ] || continue
	grep -n '^#include "[a-z0-9_]*/[a-z0-9_]*\.h"' "$f" | while IFS= read -r line; do
		inc=${line#*\"}
		inc=${inc%\"*}
		to_mod=${inc%%/*}
		to=$(rank "$to_mod")
		[ "$to" -ge 0 ] || continue
		[ "$to_mod" = "$mod" ] && continue
		case "$inc" in
		*_priv.h) echo "$f:$line: another module's private header"; echo x ;;
		esac
		if [ "$to" -gt "$from" ]; then
			echo "$f:$line: $mod includes $to_mod, which sits above it"
			echo x
		fi
	done
done > /tmp/check-layers.$$ || true
if grep -v '^x$' /tmp/check-layers.$$; then bad=1; fi
rm -f /tmp/check-layers.$$
if [ "$bad" -eq 0 ]; then
	echo "layers: no upward include, no foreign private header"
fi
exit "$bad"
