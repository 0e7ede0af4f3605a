# Phase of scripts/upgrade-test, run by run_phase with the previous release installed: fills switchd
# through its API (a survey with readings, a beacon, a tag, a webhook, a scanner token) and leaves
# scannerd's spool with batches switchd has not received (switchd stopped while scannerd scans).
source "$(dirname "${BASH_SOURCE[0]}")/api.sh"
start_unit switchd
switchd=$!
check "the previous switchd answers /healthz" wait_healthy "$switchd"
admin_header
switchd_uid="$(chroot "$root" id -u floorscan)"
chroot --userspec="$switchd_uid:$switchd_uid" "$root" /usr/bin/switchd token issue --role scanner --scanner-id default \
    --name upgrade-test --state-dir /var/lib/floorscan/switchd > "$root/etc/floorscan/scannerd.token"
chroot "$root" chown floorscan-scanner: /etc/floorscan/scannerd.token
chmod 0600 "$root/etc/floorscan/scannerd.token"

floor=$(call POST /v1/floors '{"name":"Upgrade floor","building":"Upgrade building","level":0}' | jq .id)
room=$(call POST /v1/rooms "{\"floorID\":$floor,\"name\":\"Office\"}" | jq .id)
first=$(call POST /v1/locations "{\"roomID\":$room,\"name\":\"first\",\"x\":5,\"y\":5}" | jq .id)
second=$(call POST /v1/locations "{\"roomID\":$room,\"name\":\"second\",\"x\":15,\"y\":8}" | jq .id)
beacon=$(call POST /v1/beacons "{\"uuid\":\"F7826DA6-4FA2-4E98-8024-BC5B71E0893E\",\"major\":1,\"minor\":1,\"floorID\":$floor,\"x\":10,\"y\":5,\"measuredPower\":-59}" | jq .id)
tag=$(call POST /v1/tags '{"name":"Upgrade bike","identity":{"kind":"ibeacon","uuid":"F7826DA6-4FA2-4E98-8024-BC5B71E0893E","major":2,"minor":1},"txPower":-59,"height":1}' | jq .id)
# switchd refuses loopback and private addresses for webhooks; this name is never resolved here
# (the namespace has no network), so nothing leaves the machine.
webhook=$(call POST /v1/webhooks '{"url":"https://hooks.example.org/floorscan"}' | jq .webhook.id)
check "the survey, a beacon, a tag and a webhook made through the API" \
    sh -c "for id in '$floor' '$room' '$first' '$second' '$beacon' '$tag' '$webhook'; do [ -n \"\$id\" ] && [ \"\$id\" != null ] || exit 1; done"

start_unit scannerd
scannerd=$!
call PATCH /v1/scanners/default/switch "{\"scanning\":true,\"mode\":\"survey\",\"locationID\":$first,\"stopAfter\":{\"scans\":4}}" > /dev/null
check "scannerd's survey readings reach switchd" wait_for 90 measurements_at "$first"
# Surveying the second location when switchd stops: scannerd keeps scanning and spools.
call PATCH /v1/scanners/default/switch "{\"scanning\":true,\"mode\":\"survey\",\"locationID\":$second,\"stopAfter\":null}" > /dev/null
check "readings at the second location reach switchd" wait_for 90 measurements_at "$second"
check "the previous switchd stops cleanly" stop_cleanly "$switchd" 30
check "scannerd spools what it cannot send (3 batches or more)" wait_for 90 sh -c "[ \$(find '$root/var/lib/floorscan/scannerd' -path '*/ready/*' -name '*.json' | wc -l) -ge 3 ]"
check "the previous scannerd stops cleanly" stop_cleanly "$scannerd" 30
