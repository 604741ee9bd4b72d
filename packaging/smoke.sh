#!/usr/bin/env bash
# Start the frozen bundle on a scratch data directory and check that it really serves:
# readiness (database + queue), a sign-up that writes, the knowledge base reading a file and finding
# it again (the embedding model, its weights and the extractors travel in the bundle), a signed
# webhook test delivered by libcurl, the offline docs, a page in Spanish (the gettext catalogs), and a
# clean SIGTERM stop.
set -euo pipefail
binary=${1:?usage: smoke.sh path/to/appliance}
data=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# The webhook receiver below listens on this machine: the installation allows that one private server.
hook_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
log="$data/serve.log"
# The bundle holds the shipped data files and nothing a running appliance wrote into ./data.
bundled_data=$(dirname "$binary")/_internal/data
shipped=$(cd "$(dirname "$0")/.." && git ls-files data | xargs -n1 basename | sort)
found=$(ls -A "$bundled_data" | sort)
[ "$shipped" = "$found" ] || { echo "bundle data differs from the tracked data files:"; diff <(echo "$shipped") <(echo "$found"); exit 1; }
"$binary" --data-dir "$data" doctor
APPLIANCE_ALLOWED_PRIVATE_URLS="http://127.0.0.1:$hook_port" "$binary" --data-dir "$data" serve --port "$port" >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -rf "$data"' EXIT
for _ in $(seq 1 100); do
  if curl -fsS "http://127.0.0.1:$port/health/ready" >"$data/ready.json" 2>/dev/null; then break; fi
  kill -0 $pid 2>/dev/null || { cat "$log"; echo "bundle exited early"; exit 1; }
  sleep 0.3
done
grep -q '"database":"ok","queue":"ok"' "$data/ready.json" || { cat "$log"; echo "not ready"; exit 1; }
json_field() { python3 -c "import json, sys; print(json.load(sys.stdin)$1)"; }
token=$(curl -fsS -XPOST "http://127.0.0.1:$port/auth/signup" -H 'content-type: application/json' \
     -d '{"email":"smoke@example.com","password":"smoke test pass","name":"Smoke"}' | json_field '["data"]["tokens"]["accessToken"]')
org=$(curl -fsS -XPOST "http://127.0.0.1:$port/organizations" -H 'content-type: application/json' -H "authorization: Bearer $token" \
     -d '{"name":"Smoke","slug":"smoke","billingEmail":"b@smoke.test"}' | json_field '["data"]["id"]')
printf '# Envíos\n\nEl envío a domicilio cuesta 5 euros.\n' >"$data/envios.md"
curl -fsS -o /dev/null -F "file=@$data/envios.md" -H "authorization: Bearer $token" "http://127.0.0.1:$port/organizations/$org/bot/knowledge"
for _ in $(seq 1 100); do
  status=$(curl -fsS -H "authorization: Bearer $token" "http://127.0.0.1:$port/organizations/$org/bot/knowledge" | json_field '["data"][0]["status"]')
  [ "$status" = PROCESSING ] || break
  sleep 0.3
done
[ "$status" = READY ] || { cat "$log"; echo "the knowledge base did not read a file: $status"; exit 1; }
curl -fsS -XPOST "http://127.0.0.1:$port/organizations/$org/bot/knowledge/search" -H 'content-type: application/json' \
     -H "authorization: Bearer $token" -d '{"query":"¿cuánto cuesta el envío?"}' | grep -q '5 euros' \
  || { cat "$log"; echo "the knowledge base did not find it"; exit 1; }
# Attendance's holidays come from the holidays package's data (modules it imports by country name).
curl -fsS -XPATCH "http://127.0.0.1:$port/organizations/$org/attendance/settings" -H 'content-type: application/json' \
     -H "authorization: Bearer $token" -d '{"enabled":true}' >/dev/null
curl -fsS -XPOST "http://127.0.0.1:$port/organizations/$org/attendance/holidays/seed?year=2026&country=CO" \
     -H "authorization: Bearer $token" | grep -q 'Navidad' \
  || { cat "$log"; echo "the holidays data is missing from the bundle"; exit 1; }
# The agenda's ICS feed is written by the icalendar package: an appointment booked (next week) is in it.
soon=$(python3 -c 'import datetime; print(datetime.date.today() + datetime.timedelta(days=7))')
curl -fsS -XPOST "http://127.0.0.1:$port/organizations/$org/agenda/appointments" -H 'content-type: application/json' \
     -H "authorization: Bearer $token" -d "{\"title\":\"Prueba de cita\",\"start\":\"${soon}T10:00:00Z\",\"end\":\"${soon}T10:30:00Z\"}" >/dev/null
feed=$(curl -fsS -XPOST "http://127.0.0.1:$port/organizations/$org/agenda/feed-token" -H "authorization: Bearer $token" \
       | json_field '["data"]["url"]')
curl -fsS "http://127.0.0.1:$port/${feed#*://*/}" | grep -q 'SUMMARY:Prueba de cita' \
  || { cat "$log"; echo "the agenda's ICS feed failed in the bundle"; exit 1; }
# A signed webhook test reaches a local receiver: libcurl (pycurl's wheel) and certifi's store travel in the bundle.
python3 -c '
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["content-length"]))
        ok = self.headers.get("webhook-signature", "").startswith("v1,") and b"webhook.test" in body
        self.send_response(200 if ok else 400); self.send_header("content-length", "0"); self.end_headers()
    def log_message(self, *args): pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()' "$hook_port" &
receiver=$!
trap 'kill $pid $receiver 2>/dev/null || true; rm -rf "$data"' EXIT
hook=$(curl -fsS -XPOST "http://127.0.0.1:$port/organizations/$org/webhooks-outbound" -H 'content-type: application/json' \
       -H "authorization: Bearer $token" -d "{\"url\":\"http://127.0.0.1:$hook_port/hook\",\"events\":[\"conversation.updated\"]}" \
       | json_field '["data"]["id"]')
curl -fsS -o /dev/null -XPOST "http://127.0.0.1:$port/organizations/$org/webhooks-outbound/$hook/test" -H "authorization: Bearer $token"
for _ in $(seq 1 50); do
  delivered=$(curl -fsS -H "authorization: Bearer $token" "http://127.0.0.1:$port/organizations/$org/webhooks-outbound/$hook/deliveries" \
              | json_field '["data"]["items"][0]["status"]')
  [ "$delivered" = DELIVERED ] && break
  sleep 0.2
done
[ "$delivered" = DELIVERED ] || { cat "$log"; echo "the webhook test was not delivered from the bundle: $delivered"; exit 1; }
curl -fsS "http://127.0.0.1:$port/docs" | grep -q swagger-ui-bundle.js
# The web chat's Socket.IO handshake: python-socketio and its threading driver (named by string) travel in the bundle.
curl -fsS "http://127.0.0.1:$port/socket.io/?EIO=4&transport=polling" | grep -q '"sid"' \
  || { echo "the web chat's Socket.IO handshake did not answer"; exit 1; }
# The gettext catalogs travel in the bundle: a page in the reader's language.
curl -fsS -H 'Accept-Language: es' "http://127.0.0.1:$port/sign-in" | grep -q 'Iniciar sesión'
curl -fsS -o /dev/null "http://127.0.0.1:$port/docs/assets/swagger-ui-bundle.js"
kill -TERM $pid
wait $pid
grep -q "stopped" "$log"
echo "installer smoke: ok (only shipped data, ready, sign-up, knowledge read and found, holidays seeded, ICS feed, a signed webhook delivered, offline docs, a page in Spanish, clean stop)"
