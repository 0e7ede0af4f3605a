# Sourced by the guest scripts that run the whole chain (chain, and scripts/arm64/guest/units): calls
# to switchd's API as admin, a survey of one location, and the check of what switchd stored.
# Needs $api (switchd's URL), $out (the results folder), /tmp/admin.header, and vhci.sh sourced.

# call METHOD PATH [JSON]: one switchd API call as admin; prints the body, fails on a non-2xx status.
call() {
    curl -sS -f -X "$1" "$api$2" -H @/tmp/admin.header -H 'Content-Type: application/json' ${3:+--data "$3"}
}

# survey: makes a floor, room and location and turns the default scanner's switch on for 2 survey scans;
# waits (up to 180 s) until the switch is off again; the location's measurements go to $out/chain-measurements.json.
survey() {
    floor=$(call POST /v1/floors '{"name":"Lab floor","building":"Radio lab","level":0}' | jq .id) &&
        room=$(call POST /v1/rooms "{\"floorID\":$floor,\"name\":\"Lab\"}" | jq .id) &&
        location=$(call POST /v1/locations "{\"roomID\":$room,\"name\":\"bench\",\"x\":1,\"y\":1}" | jq .id) &&
        switch=$(call PATCH /v1/scanners/default/switch "{\"scanning\":true,\"mode\":\"survey\",\"locationID\":$location,\"stopAfter\":{\"scans\":2}}") ||
        return 1
    revision=$(echo "$switch" | jq .revision)
    deadline=$(($(date +%s) + 180))
    while [ "$(echo "$switch" | jq .scanning)" != "false" ]; do
        [ "$(date +%s)" -lt "$deadline" ] || { echo "  the survey did not finish in 180 s"; tail -5 "$out/chain-scannerd.log"; return 1; }
        switch=$(call GET "/v1/scanners/default/switch?revision=$revision&wait=30") || return 1
        revision=$(echo "$switch" | jq .revision)
    done
    sleep 1 # the last batch of the last scan
    call GET "/v1/measurements?location=$location&limit=1000" | jq -c '.items[]' >"$out/chain-measurements.json"
}
# readings: the measurements hold the 3 hwsim APs (wifi_readings) and the 2 vhci iBeacons (ble_readings).
readings() { wifi_readings && ble_readings; }
wifi_readings() {
    for k in 0 1 2; do
        jq_any "$out/chain-measurements.json" ".kind == \"wifi\" and (.bssid | ascii_downcase) == \"02:00:00:00:0$k:00\"
            and .ssid == \"floorscan-lab-ch$((1 + 5 * k))\" and .frequencyMHz == $((2412 + 25 * k))" || return 1
    done
}
ble_readings() {
    jq_any "$out/chain-measurements.json" ".kind == \"ble\" and (.uuid | ascii_downcase) == \"$uuid_a\" and .major == 100 and .minor == 1 and .rssi == -60" &&
        jq_any "$out/chain-measurements.json" ".kind == \"ble\" and (.uuid | ascii_downcase) == \"$uuid_b\" and .major == 200 and .minor == 2 and .rssi == -72"
}

# The phone of the chain test: the Core specification's sample key (Vol 3 Part H, Appendix D.7).
phone_irk=ec0234a357c8ad05341010a60a397d9b
phone_rotate_every=4

# phone: registers the phone as an `irk` tag and places the default scanner on the survey's floor
# (after survey); then, within 90 s, the tag must have positions in at least 3 of the phone's
# address periods ($out/phone-rotations), and no sightings batch scannerd sent may hold an identity
# switchd ignored (a stranger's address forwarded).
phone() {
    tag=$(call POST /v1/tags "{\"name\":\"Lab phone\",\"identity\":{\"kind\":\"irk\",\"key\":\"$phone_irk\"}}" | jq .id) &&
        call PUT /v1/scanners/default/placement "{\"floorID\":$floor,\"x\":2,\"y\":2,\"height\":1,\"pathLossExponent\":2}" >/dev/null ||
        return 1
    deadline=$(($(date +%s) + 90))
    while :; do
        call GET "/v1/tags/$tag/positions?limit=1000" | jq -c '.items[]' >"$out/phone-positions.json" || return 1
        periods=$(rotation_periods "$out/phone-positions.json")
        [ "$periods" -ge 3 ] && break
        [ "$(date +%s)" -lt "$deadline" ] || {
            echo "  the phone was located in $periods address period(s) in 90 s"; tail -5 "$out/chain-scannerd.log"; return 1
        }
        sleep 2
    done
    echo "  located in $periods address periods ($(wc -l <"$out/phone-rotations") addresses so far)"
    jq_any "$out/chain-events.jsonl" '.event == "sightings" and .stored > 0' &&
        jq_none "$out/chain-events.jsonl" '.event == "sightings" and .ignored > 0'
}

# rotation_periods POSITIONS: how many of the phone's address periods hold a position's time.
rotation_periods() {
    jq -r '.time' "$1" | while read -r time; do date -d "$time" +%s.%N; done |
        awk 'NR == FNR { start[n++] = $1; next }
             { for (i = n - 1; i >= 0; i--) if ($1 >= start[i]) { seen[i] = 1; break } }
             END { c = 0; for (i in seen) c++; print c }' "$out/phone-rotations" -
}
