#!/usr/bin/env bash
# The Debian package as a machine gets it (docs/operating.md, "Debian package"): lintian, the unit
# checked by systemd-analyze, `dpkg -i`, the program started as appliance.service would start it,
# serving, stopped with SIGTERM, upgraded to a second build with its data, backed up, purged,
# installed again and restored from /setup, and purged.
#
# Run as root on a Debian machine where systemd is not PID 1 (CI, a container): the program is started
# with the User=, Group=, EnvironmentFile=, ExecStart=, UMask= and capabilities read from the installed
# unit file, by setpriv; the unit's sandbox (ProtectSystem=, PrivateTmp=, the system call filter...)
# needs systemd itself and is checked by `systemd-analyze verify` and `security` only.
#
# Usage: packaging/deb-check.sh [PACKAGE.deb]   (default: the one in dist/, from `make package`)
# Needs lintian, systemd (systemd-analyze), curl, python3, and .venv (PYTHON) for the migration step.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-.venv/bin/python}
say() { echo "deb-check: $*"; }
fail() { echo "deb-check: FAILED: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || fail "run as root (dpkg -i, a system user)"
# Where systemd runs, postinst starts the real service, and this check's own start would find port 80 taken.
[ ! -d /run/systemd/system ] || fail "systemd runs here: this check is for machines without it (CI, containers)"
if [ $# -gt 0 ]; then package=$1; else
  packages=(dist/appliance_*.deb)
  [ ${#packages[@]} = 1 ] && [ -f "${packages[0]}" ] || fail "expected one dist/appliance_*.deb (make package), found: ${packages[*]}"
  package=${packages[0]}
fi
package_state() { dpkg-query -W -f='${db:Status-Status}' appliance 2>/dev/null || echo not-installed; }
# The purge at the end would take an installation that was here before, and its data, with it.
if [ "$(package_state)" != not-installed ] || [ -e /var/lib/appliance ] || [ -e /etc/appliance ]; then
  fail "appliance is or was installed here ($(package_state)); this check installs and purges it: run it on a machine without it"
fi

work=$(mktemp -d)
server=""
finish() {
  status=$?
  [ -n "$server" ] && kill -TERM "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
  if [ $status != 0 ]; then
    [ -f "$work/serve.log" ] && { echo "--- the server's log"; tail -40 "$work/serve.log"; }
    dpkg --purge appliance >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap finish EXIT

version=$(dpkg-deb -f "$package" Version)
say "package $package (version $version)"

lintian --fail-on none --show-overrides "$package" >"$work/lintian.txt" 2>&1 || fail "lintian did not run: $(tail -5 "$work/lintian.txt")"
if grep -E '^[EW]: ' "$work/lintian.txt"; then fail "lintian reports the errors and warnings above"; fi
say "lintian: no error or warning; $(grep -c '^O: ' "$work/lintian.txt") findings overridden, each explained in packaging/debian/lintian-overrides"

dpkg -i "$package" >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; fail "dpkg -i"; }
[ "$(dpkg-query -W -f='${Version}' appliance)" = "$version" ] || fail "dpkg does not list version $version as installed"
say "dpkg -i installed it; its postinst coped with no systemd running (no /run/systemd/system)"

unit=$(dpkg -L appliance | grep '/systemd/system/appliance\.service$')
systemd-analyze verify "$unit" >"$work/verify.txt" 2>&1 || { cat "$work/verify.txt"; fail "systemd-analyze verify $unit"; }
[ ! -s "$work/verify.txt" ] || { cat "$work/verify.txt"; fail "systemd-analyze verify printed the lines above"; }
say "systemd-analyze verify $unit: no complaint"
say "systemd-analyze security: $(systemd-analyze security --offline=yes "$unit" 2>&1 | tail -1 | sed 's/^→ //')"

unit_value() {  # the last assignment of a key in the unit, as systemd takes it
  sed -n "s/^$1=//p" "$unit" | tail -1
}
user=$(unit_value User)
group=$(unit_value Group)
env_file=$(unit_value EnvironmentFile)
exec_start=$(unit_value ExecStart)
umask_value=$(unit_value UMask)
state_dir=/var/lib/$(unit_value StateDirectory)
capability=$(unit_value AmbientCapabilities)
[ -n "$user" ] && [ -n "$group" ] && [ -n "$env_file" ] && [ -n "$exec_start" ] && [ -n "$umask_value" ] \
  || fail "the unit lacks one of User=, Group=, EnvironmentFile=, ExecStart=, UMask="
[ "$(unit_value CapabilityBoundingSet)" = "$capability" ] || fail "the capability bounding set is not just $capability"
case "$exec_start" in [-@:+!]*) fail "ExecStart= has a prefix this check does not reproduce: $exec_start" ;; esac
case "$env_file" in -*) fail "EnvironmentFile= is optional (-): the service would start without its settings" ;; esac
read -ra command <<<"$exec_start"
# The one capability this check knows how to look for in /proc (CapAmb's bit 10).
[ "$capability" = CAP_NET_BIND_SERVICE ] || fail "AmbientCapabilities=$capability: this check knows CAP_NET_BIND_SERVICE only"
setpriv_capability=net_bind_service

uid=$(id -u "$user") || fail "no user $user"
[ "$uid" -lt 1000 ] || fail "$user is not a system user (uid $uid)"
[ "$(stat -c '%U:%G %a' "$state_dir")" = "$user:$group 700" ] || fail "$state_dir is $(stat -c '%U:%G %a' "$state_dir")"
[ "$(stat -c '%U:%G %a' "$env_file")" = "root:$group 640" ] || fail "$env_file is $(stat -c '%U:%G %a' "$env_file")"
[ "$(readlink /usr/bin/appliance)" = "${command[0]}" ] || fail "/usr/bin/appliance does not lead to ${command[0]}"
[ -L /etc/systemd/system/multi-user.target.wants/appliance.service ] || fail "the service is not enabled"
say "system user $user (uid $uid); $state_dir $user:$group 700; $env_file root:$group 640; /usr/bin/appliance -> ${command[0]}; enabled in multi-user.target"

# The environment systemd gives the service: the file's variables (systemd.exec(5), EnvironmentFile=:
# shell quoting, comments, no expansion) and those it sets itself for a User= and a StateDirectory=.
mapfile -d '' environment < <(python3 - "$env_file" <<'PY'
import re, shlex, sys
for line in open(sys.argv[1], encoding="utf-8"):
    line = line.strip()
    if not line or line.startswith(("#", ";")) or "=" not in line:
        continue
    name, value = (part.strip() for part in line.split("=", 1))
    if value[:1] in ("'", '"'):
        value = shlex.split(value)[0]  # quoted: as a shell reads it
    else:
        value = re.sub(r"\\(.)", r"\1", value)  # unquoted: backslash escapes, spaces and quotes kept
    sys.stdout.write(f"{name}={value}\0")
PY
)
home=$(getent passwd "$user" | cut -d: -f6)
environment+=("PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin" "HOME=$home" "USER=$user" "LOGNAME=$user"
              "SHELL=$(getent passwd "$user" | cut -d: -f7)" "STATE_DIRECTORY=$state_dir")
setting() { printf '%s\n' "${environment[@]}" | sed -n "s/^$1=//p" | tail -1; }
port=$(setting APPLIANCE_PORT)
[ "$(setting APPLIANCE_DATA_DIR)" = "$state_dir" ] || fail "APPLIANCE_DATA_DIR in $env_file is not the unit's StateDirectory $state_dir"

as_the_unit() {  # COMMAND...: becomes it, as the service's user, group, umask, capabilities and environment, in /
  cd / && umask "$umask_value" && exec setpriv --reuid="$user" --regid="$group" --init-groups \
    --inh-caps="-all,+$setpriv_capability" --ambient-caps="-all,+$setpriv_capability" \
    --bounding-set="-all,+$setpriv_capability" --no-new-privs env -i "${environment[@]}" "$@"
}
url="http://127.0.0.1:$port"
json_field() { python3 -c "import json, sys; print(json.load(sys.stdin)$1)"; }
start_as_the_unit() {
  ! curl -s -o /dev/null "$url/" || fail "something else already answers on port $port"
  : >"$work/serve.log"
  : >"$work/ready.json"
  (as_the_unit "${command[@]}") >"$work/serve.log" 2>&1 &
  server=$!
  for _ in $(seq 1 150); do
    curl -fsS "$url/health/ready" >"$work/ready.json" 2>/dev/null && break
    kill -0 "$server" 2>/dev/null || fail "the program exited at start"
    sleep 0.2
  done
  grep -q '"database":"ok","queue":"ok"' "$work/ready.json" || fail "not ready: $(cat "$work/ready.json")"
  [ "$(stat -c %U "/proc/$server")" = "$user" ] || fail "the program does not run as $user"
  ambient=$(sed -n 's/^CapAmb:\t//p' "/proc/$server/status")
  [ "$ambient" = "$(printf '%016x' $((1 << 10)))" ] || fail "ambient capabilities $ambient, not $capability alone"
}
stop_with_sigterm() {  # sets stop_took
  local began code=0
  began=$(date +%s%N)
  kill -TERM "$server"
  wait "$server" || code=$?
  server=""
  [ $code = 0 ] || fail "the program exited with $code after SIGTERM"
  grep -q 'stopped' "$work/serve.log" || fail "no 'stopped' in the log after SIGTERM"
  stop_took="$(( ($(date +%s%N) - began) / 1000000 )) ms"
}

(as_the_unit /usr/bin/appliance doctor) >"$work/doctor.txt" 2>&1 || { cat "$work/doctor.txt"; fail "appliance doctor as $user"; }
say "/usr/bin/appliance doctor as $user with the unit's settings: $(tail -1 "$work/doctor.txt")"

start_as_the_unit
say "started as the unit would: ${command[*]} as $user:$group, umask $umask_value, $env_file, ambient $capability only"
unprivileged_from=$(cat /proc/sys/net/ipv4/ip_unprivileged_port_start)
if [ "$port" -lt "$unprivileged_from" ]; then how="a privileged port here, bound through the capability"
else how="any user may bind it on this machine: ip_unprivileged_port_start=$unprivileged_from"; fi
say "listening on port $port ($how); $url/health/ready: $(cat "$work/ready.json")"
email=owner@example.com password='deb check pass'
curl -fsS -XPOST "$url/auth/signup" -H 'content-type: application/json' \
     -d "{\"email\":\"$email\",\"password\":\"$password\",\"name\":\"Owner\"}" | json_field '["data"]["tokens"]["accessToken"]' >/dev/null \
  || fail "sign-up"
say "signed up $email"
stop_with_sigterm
say "SIGTERM: stopped cleanly in $stop_took (exit 0, 'stopped' logged)"
[ -z "$(find "$state_dir" -perm /o=rwx)" ] || fail "files in $state_dir that others may read: $(find "$state_dir" -perm /o=rwx | head -3)"
elsewhere=$(find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /run -o -path /tmp -o -path /var/tmp \
                           -o -path "$state_dir" \) -prune -o -user "$user" -print)
[ -z "$elsewhere" ] || fail "$user wrote outside $state_dir and /tmp: $elsewhere"
say "it wrote only in $state_dir (none of it readable by others) and /tmp, as ProtectSystem=strict will hold it to"

# A second build with a migration to run: the same files as a higher version, and the database taken
# one revision back with the project's own migrations, as the build before the newest migration left it.
mkdir "$work/next"
dpkg-deb -R "$package" "$work/next/root"
next_version="$version.1"
sed -i "s/^Version: .*/Version: $next_version/" "$work/next/root/DEBIAN/control"
dpkg-deb -Zgzip -z1 --root-owner-group --build "$work/next/root" "$work/next/appliance.deb" >/dev/null
rm -rf "$work/next/root"
revisions=$("$python" - "$state_dir/appliance.db" <<'PY'
import sys
from alembic import command
from appliance import migrations
from appliance.core.db import Database

database = Database(sys.argv[1])
before = migrations.current_revision(database)
with database.writer.begin() as connection:
    command.downgrade(migrations._config(connection), "-1")
print(before, migrations.current_revision(database))
database.dispose()
PY
) || fail "taking the database one revision back with $python"
read -r head_revision older_revision <<<"$revisions"
[ -n "$older_revision" ] && [ "$older_revision" != "$head_revision" ] || fail "the database did not go back a revision: $revisions"
find "$state_dir" ! -user "$user" -exec chown "$user:$group" {} +
key_sum=$(sha256sum "$state_dir/secret.key")
dpkg -i "$work/next/appliance.deb" >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; fail "dpkg -i of the second build"; }
[ "$(dpkg-query -W -f='${Version}' appliance)" = "$next_version" ] || fail "dpkg does not list $next_version"
[ "$(sha256sum "$state_dir/secret.key")" = "$key_sum" ] || fail "the upgrade changed the secret key"
[ "$(id -u "$user")" = "$uid" ] || fail "the upgrade changed $user's uid"
say "upgraded with dpkg -i to $next_version (the same bundle repacked); data, key and user kept"
(as_the_unit /usr/bin/appliance doctor) >"$work/doctor.txt" 2>&1 || { cat "$work/doctor.txt"; fail "appliance doctor"; }
grep -q "at $older_revision, needs migrate" "$work/doctor.txt" || { cat "$work/doctor.txt"; fail "doctor does not see the older revision"; }

say "appliance doctor: the database at $older_revision, needs migrate"
start_as_the_unit
(as_the_unit /usr/bin/appliance doctor) >"$work/doctor.txt" 2>&1 || { cat "$work/doctor.txt"; fail "appliance doctor"; }
grep -q "at $head_revision, up to date" "$work/doctor.txt" || { cat "$work/doctor.txt"; fail "the start did not migrate to $head_revision"; }
say "started again as the unit: the start migrated it to $head_revision (doctor: up to date)"
curl -fsS -XPOST "$url/auth/login" -H 'content-type: application/json' \
     -d "{\"email\":\"$email\",\"password\":\"$password\"}" | json_field '["data"]["tokens"]["accessToken"]' >/dev/null \
  || fail "$email cannot sign in after the upgrade"
say "$email, made before the upgrade, signs in"

# A backup made through the API and downloaded; the package purged and installed again; the archive
# restored from the new installation's /setup (the program starts again in place on the restored data).
token=$(curl -fsS -XPOST "$url/auth/login" -H 'content-type: application/json' \
        -d "{\"email\":\"$email\",\"password\":\"$password\"}" | json_field '["data"]["tokens"]["accessToken"]')
curl -fsS -XPOST "$url/installation/backups" -H "authorization: Bearer $token" >"$work/backup.json" || fail "POST /installation/backups"
backup_id=$(json_field '["data"]["id"]' <"$work/backup.json")
backup_key=$(json_field '["data"]["backupKey"]' <"$work/backup.json")
for _ in $(seq 1 300); do
  backup_status=$(curl -fsS "$url/installation/backups/$backup_id" -H "authorization: Bearer $token" | json_field '["data"]["status"]')
  [ "$backup_status" = RUNNING ] || break
  sleep 0.2
done
[ "$backup_status" = READY ] || fail "the backup ended $backup_status"
curl -fsS -o "$work/backup.tar.gz" "$url/installation/backups/$backup_id/download" -H "authorization: Bearer $token" \
  || fail "downloading the backup"
say "backup made and downloaded ($(stat -c %s "$work/backup.tar.gz") bytes); its key shown once: ${backup_key:0:4}-…"
stop_with_sigterm
say "SIGTERM: stopped cleanly in $stop_took"

dpkg --purge appliance >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; fail "dpkg --purge before the restore"; }
[ ! -e "$state_dir" ] || fail "$state_dir is left after the purge"
dpkg -i "$work/next/appliance.deb" >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; fail "dpkg -i after the purge"; }
start_as_the_unit
curl -fsS -c "$work/cookies" -o "$work/restore.html" "$url/setup/restore" || fail "GET /setup/restore on the new installation"
csrf=$(sed -n 's/.*name="csrf" value="\([^"]*\)".*/\1/p' "$work/restore.html" | head -1)
answer=$(curl -sS -b "$work/cookies" -o /dev/null -w '%{http_code}' -F "csrf=$csrf" -F "key=$backup_key" \
              -F "archive=@$work/backup.tar.gz;type=application/gzip" "$url/setup/restore")
[ "$answer" = 302 ] || fail "POST /setup/restore answered $answer"
for _ in $(seq 1 300); do  # checked, then the program starts again in place: the same process, other data
  restored=$(curl -sS -o /dev/null -w '%{http_code} %{redirect_url}' "$url/setup/restore" 2>/dev/null || true)
  case "$restored" in "302 "*/sign-in) break ;; esac
  kill -0 "$server" 2>/dev/null || fail "the program exited during the restore: $(tail -5 "$work/serve.log")"
  sleep 0.2
done
case "$restored" in "302 "*/sign-in) ;; *) fail "the restore did not finish: $restored; $(tail -5 "$work/serve.log")" ;; esac
curl -fsS -XPOST "$url/auth/login" -H 'content-type: application/json' \
     -d "{\"email\":\"$email\",\"password\":\"$password\"}" | json_field '["data"]["tokens"]["accessToken"]' >/dev/null \
  || fail "$email cannot sign in after the restore"
[ -z "$(find "$state_dir" ! -user "$user")" ] || fail "files in $state_dir not $user's after the restore"
say "purged, installed again, restored from /setup: $email signs in on the restored data"
stop_with_sigterm
say "SIGTERM: stopped cleanly in $stop_took"

dpkg --purge appliance >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; fail "dpkg --purge"; }
[ "$(package_state)" = not-installed ] || fail "dpkg lists it as $(package_state) after the purge"
for path in /var/lib/appliance /etc/appliance /opt/appliance /usr/bin/appliance "$unit" \
            /etc/systemd/system/multi-user.target.wants/appliance.service; do
  [ ! -e "$path" ] && [ ! -L "$path" ] || fail "$path is left after the purge"
done
! getent passwd "$user" >/dev/null || fail "the user $user is left after the purge"
! getent group "$group" >/dev/null || fail "the group $group is left after the purge"
say "dpkg --purge: /var/lib/appliance, /etc/appliance, /opt/appliance, the unit, the user and the group are gone"
say "ok"
