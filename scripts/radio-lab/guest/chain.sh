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
