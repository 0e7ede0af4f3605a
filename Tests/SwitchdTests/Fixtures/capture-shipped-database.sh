#!/bin/sh
# Makes the two fixtures of StoreMigrationTests from a switchd built from the code that shipped
# (the commit named in README.md), never from the code under test:
#   shipped-schema.json  sqlite_master of a fresh database, as `sqlite3 -json` prints it
#   shipped-with-rows.sql  `sqlite3 .dump` of a database that switchd filled through its API
# Usage: capture-shipped-database.sh <path to that switchd executable>
set -eu
switchd=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT

"$switchd" serve --state-dir "$work/state" --port 0 --log-level error >"$work/out" 2>&1 &
pid=$!
until grep -q "listening on" "$work/out"; do
    kill -0 "$pid" || { cat "$work/out"; exit 1; }
    sleep 0.2
done
base=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$work/out" | head -n 1)
auth="Authorization: Bearer $(cat "$work/state/admin.token")"
call() { curl -sS --fail-with-body -H "$auth" -H "Content-Type: application/json" -X "$1" "$base$2" ${3:+-d "$3"}; echo; }

sqlite3 -json "$work/state/switchd.sqlite" \
    "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name" \
    >"$here/shipped-schema.json"

call POST /v1/floors '{"name":"Ground","building":"north","level":0}'
call POST /v1/floors '{"name":"First","building":"north","level":1}'
call PATCH /v1/floors/1 '{"scale":{"metresPerPixel":0.05,"originX":1,"originY":2}}'
printf '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>' >"$work/plan.svg"
curl -sS --fail-with-body -H "$auth" -H "Content-Type: image/svg+xml" -X PUT --data-binary @"$work/plan.svg" "$base/v1/floors/1/plan"; echo
call POST /v1/rooms '{"floorID":1,"name":"Lab"}'
call POST /v1/rooms '{"floorID":2,"name":"Stairwell"}'
call POST /v1/locations '{"roomID":1,"x":2.5,"y":3}'
call POST /v1/locations '{"roomID":2,"name":"landing","x":4,"y":1}'
call POST /v1/links '{"from":1,"to":2,"kind":"stairs"}'
call POST /v1/beacons '{"uuid":"F7826DA6-4FA2-4E98-8024-BC5B71E0893E","major":1,"minor":2,"floorID":1,"x":1,"y":1,"z":2.5,"measuredPower":-59,"metadata":{"label":"door"}}'
call POST /v1/scanners '{"id":"pi-lab","name":"Lab Pi"}'
call PATCH /v1/scanners/pi-lab/switch '{"scanning":true,"mode":"survey","locationID":1}'
call POST /v1/measurements '{"batchID":"1B4E28BA-2FA1-41D2-883F-0016D3CCA427","scannerID":"pi-lab","switchRevision":2,"scansCompleted":1,"measurements":[
 {"id":"8A1C2F70-5B7B-4C36-9E0A-2B7B1D3E0001","time":"2026-11-22T06:50:00.123Z","rssi":-61,"scan":0,"kind":"wifi","bssid":"02:00:00:00:01:00","ssid":"floorscan-lab","frequencyMHz":2412},
 {"id":"8A1C2F70-5B7B-4C36-9E0A-2B7B1D3E0002","time":"2026-11-22T06:50:00.456Z","rssi":-72,"scan":0,"kind":"ble","address":"C0:FF:EE:00:00:01","uuid":"F7826DA6-4FA2-4E98-8024-BC5B71E0893E","major":1,"minor":2,"txPower":-59}]}'
call POST /v1/positions '{"scannerID":"pi-lab","time":"2026-11-22T06:51:00.000Z","building":"north","floor":1,"x":2.4,"y":3.1,"roomID":1,"nearestLocationID":1,"accuracyMetres":1.5,"method":"wifi-knn","beacons":[{"uuid":"F7826DA6-4FA2-4E98-8024-BC5B71E0893E","major":1,"minor":2,"rssi":-72.5,"samples":3,"distanceMetres":2.1,"proximity":"near"}]}'
call POST /v1/tokens '{"name":"wall display","role":"reader"}' >/dev/null
call DELETE /v1/tokens/2
call PATCH /v1/scanners/pi-lab/switch '{"scanning":false}'

kill "$pid"
wait "$pid" || true
sqlite3 "$work/state/switchd.sqlite" .dump >"$here/shipped-with-rows.sql"
