#!/bin/sh
# `make dist`: the tarball of a portable build (-DCAUSEGATE_PORTABLE=ON):
# causegate-VERSION-linux-ARCH/ with bin/ (every binary `cmake --install`
# puts there, stripped), lib/ (the shared libraries they need that are not
# the C library's own, and ICU, which evidence/confusables.cc loads with
# dlopen), share/ (man page, packs, plugin, licence, changelog), README.md.
# The binaries find lib/ through their $ORIGIN/../lib RPATH.
# Usage: scripts/dist.sh BUILD_DIR   (prints the tarball's path last)
set -eu
build=${1:?usage: scripts/dist.sh BUILD_DIR}
src=$(cd "$(dirname "$0")/.." && pwd)
grep -q '^CAUSEGATE_PORTABLE:BOOL=ON' "$build/CMakeCache.txt" || {
  echo "dist: $build is not a portable build (configure it with -DCAUSEGATE_PORTABLE=ON)" >&2; exit 2; }
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
name=causegate-$version-linux-$(uname -m)
out=$(cd "$build" && pwd)/dist
stage=$out/$name
rm -rf "$stage" "$out/$name.tar.gz"
mkdir -p "$stage"
cmake --install "$build" --prefix "$stage" --strip >/dev/null
cp "$src/README.md" "$src/LICENSE" "$src/CHANGELOG.md" "$stage/"
mkdir -p "$stage/lib"

# The C library's own objects stay the system's: they must match its kernel
# interface and loader.
is_libc() {
  case $1 in
    linux-vdso.so*|ld-linux*|libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|libresolv.so*|libutil.so*) return 0 ;;
  esac
  return 1
}
bundle() {  # the libraries $1 needs, resolved on this machine, copied to lib/
  ldd "$1" | awk '/=> \// { print $1, $3 }' | while read -r soname path; do
    is_libc "$soname" && continue
    [ -e "$stage/lib/$soname" ] && continue
    cp -L "$path" "$stage/lib/$soname"
    chmod 644 "$stage/lib/$soname"
    bundle "$path"
  done
}
for bin in "$stage"/bin/*; do bundle "$bin"; done
# ICU is not linked but opened by name (libicui18n.so.MAJOR) on the first
# look-alike letter: bundle it and what it needs.
icu=$(grep -ao 'libicui18n\.so\.[0-9]*' "$stage/bin/causegate" | head -1 || true)
if [ -n "$icu" ]; then
  path=$(ldconfig -p | awk -v n="$icu" '$1 == n { print $NF; exit }')
  [ -n "$path" ] || { echo "dist: $icu not found on this machine" >&2; exit 2; }
  cp -L "$path" "$stage/lib/$icu"
  chmod 644 "$stage/lib/$icu"
  bundle "$path"
fi
tar -C "$out" -czf "$out/$name.tar.gz" "$name"
bytes=$(wc -c < "$out/$name.tar.gz")
echo "dist: $out/$name.tar.gz ($bytes bytes; bin/causegate $(wc -c < "$stage/bin/causegate") bytes, lib/ $(du -sb "$stage/lib" | cut -f1) bytes)" >&2
echo "$out/$name.tar.gz"
