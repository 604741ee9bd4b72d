#!/usr/bin/env bash
# The Debian package, staged from the frozen bundle and built with dpkg-deb (docs/operating.md,
# "Debian package"): dist/appliance_<version>_<arch>.deb, replacing an older one there.
# Usage: packaging/debian/build.sh [BUNDLE_DIR [OUT_DIR]]   (defaults dist/appliance and dist)
# The version is the program's plus the bundle's build time (0.1.0+20261127141400), so that each
# build of the bundle upgrades the one before; DEB_VERSION sets another. PYTHON (default .venv's)
# writes the settings file from the program's settings.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bundle=${1:-$root/dist/appliance}
out=${2:-$root/dist}
python=${PYTHON:-$root/.venv/bin/python}
[ -x "$bundle/appliance" ] || { echo "no bundle at $bundle: run make installer first" >&2; exit 1; }

upstream=$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' "$root/appliance/__init__.py")
version=${DEB_VERSION:-$upstream+$(date -u -r "$bundle/appliance" +%Y%m%d%H%M%S)}
arch=$(dpkg --print-architecture)
# The bundle carries every library but glibc's; it needs the newest glibc symbol version its binaries use.
glibc=$(find "$bundle" -type f \( -name '*.so*' -o -path "$bundle/appliance" \) -exec objdump -T {} + 2>/dev/null \
        | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -1)
[ -n "$glibc" ] || { echo "no glibc symbol version found in $bundle's binaries (is objdump, from binutils, here?)" >&2; exit 1; }

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/opt" "$stage/usr/bin" "$stage/DEBIAN"
cp -a "$bundle" "$stage/opt/appliance"
# Bytecode caches copied from the build tree (the migrations' folder): Python writes its own.
find "$stage/opt/appliance" -name __pycache__ -type d -prune -exec rm -rf {} +
# Some wheels' libraries are executable; a library needs only to be read.
find "$stage/opt/appliance/_internal" -type f -name '*.so*' -perm /111 -exec chmod a-x {} +
ln -s /opt/appliance/appliance "$stage/usr/bin/appliance"
install -D -m 0644 "$here/appliance.service" "$stage/lib/systemd/system/appliance.service"
install -d "$stage/etc/appliance"
"$python" "$here/env_file.py" >"$stage/etc/appliance/env"
chmod 0644 "$stage/etc/appliance/env"  # postinst gives it to root:appliance 0640
install -D -m 0644 "$here/copyright" "$stage/usr/share/doc/appliance/copyright"
install -D -m 0644 "$here/lintian-overrides" "$stage/usr/share/lintian/overrides/appliance"
maintainer="Appliance maintainers <maintainers@appliance.example>"
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo "an unknown commit")
printf 'appliance (%s) unstable; urgency=medium\n\n  * Built from the frozen bundle of %s.\n\n -- %s  %s\n' \
  "$version" "$commit" "$maintainer" "$(date -u -R -r "$bundle/appliance")" \
  | gzip -9n >"$stage/usr/share/doc/appliance/changelog.gz"

install -m 0755 "$here/postinst" "$here/prerm" "$here/postrm" "$stage/DEBIAN/"
echo /etc/appliance/env >"$stage/DEBIAN/conffiles"
cat >"$stage/DEBIAN/control" <<CONTROL
Package: appliance
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Depends: libc6 (>= $glibc), adduser
Section: net
Priority: optional
Description: business messaging appliance for WhatsApp
 One program that a small business runs on one machine to talk to its
 customers over WhatsApp: a REST API, a browser inbox for agents and
 automation, with its own SQLite database and queue.
 .
 The program is a frozen bundle that carries its own Python and libraries, in
 /opt/appliance. It runs as the systemd service appliance.service with its data
 in /var/lib/appliance and its settings in /etc/appliance/env.
CONTROL
(cd "$stage" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum >DEBIAN/md5sums)

mkdir -p "$out"
rm -f "$out"/appliance_*.deb
package="$out/appliance_${version}_${arch}.deb"
# gzip: 145 MB in about 30 s on a 2-core machine, where xz makes 118 MB in 4 minutes (CI builds
# it on every run); zstd, as fast and smaller, is what lintian calls a malformed archive.
dpkg-deb -Zgzip -z6 --root-owner-group --build "$stage" "$package" >/dev/null
echo "$package"
