# Sourced by the guest scripts: the emulated LE controller (../vhci-controller.py) on /dev/vhci,
# advertising two iBeacons (UUID:MAJOR:MINOR:MEASURED-POWER:RSSI).

lab="$(dirname "$0")/.."
uuid_a=e2c56db5-dffb-48d2-b060-d0f5a71096e0
uuid_b=74278bda-b644-4520-8f0c-720eaf059935
beacon_a="$uuid_a:100:1:-59:-60"
beacon_b="$uuid_b:200:2:-65:-72"

# controller NAME [ARGS...]: starts the emulated controller (log in $out/NAME-controller.log) and
# waits until hci0 is up; --bring-up stands in for bluetoothd, which powers adapters on a real system.
controller() {
    controller_name="$1"; shift
    python3 "$lab/vhci-controller.py" --bring-up --beacon "$beacon_a" --beacon "$beacon_b" "$@" \
        >"$out/$controller_name-controller.log" 2>&1 &
    controller_pid=$!
    for _ in $(seq 150); do
        hciconfig hci0 2>/dev/null | grep -q "UP RUNNING" && return 0
        sleep 0.2
    done
    echo "  hci0 never came up"; cat "$out/$controller_name-controller.log"; return 1
}
stop_controller() { [ -z "$controller_pid" ] || { kill "$controller_pid"; wait "$controller_pid" 2>/dev/null; }; controller_pid=; }

