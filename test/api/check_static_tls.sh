#!/bin/sh
# The library's thread-local variables live in the static TLS block
# (src/CMakeLists.txt, HSALITE_TLS_MODEL): it imports no __tls_get_addr and
# carries DF_STATIC_TLS, so a dlopened hsalite gives no thread a lazily
# malloc'd dynamic-TLS block (which gcc 12's LeakSanitizer can misread at
# exit while a service thread runs: test/lifecycle/test_exit.c's late case
# meets it only by heap layout, this check always).
# Usage: check_static_tls.sh LIB.so.  Exit 77 (skip) without nm/readelf.
lib=$1
command -v nm >/dev/null 2>&1 || { echo "nm not found: skipped"; exit 77; }
command -v readelf >/dev/null 2>&1 || { echo "readelf not found: skipped"; exit 77; }
[ -f "$lib" ] || { echo "$lib not found"; exit 1; }
status=0
if nm -D --undefined-only "$lib" | grep -q '__tls_get_addr'; then
	echo "$lib imports __tls_get_addr: some thread-local variable is dynamic TLS"
	status=1
fi
# Only a library with thread-local variables needs the flag.
if readelf -lW "$lib" | grep -q '^ *TLS ' &&
	! readelf -dW "$lib" | grep -q 'FLAGS.*STATIC_TLS'; then
	echo "$lib has a TLS segment but no DF_STATIC_TLS flag"
	status=1
fi
[ $status = 0 ] && echo "$lib: static TLS only"
exit $status
