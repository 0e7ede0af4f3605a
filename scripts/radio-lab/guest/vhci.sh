# Sourced by the guest scripts: the emulated LE controller (../vhci-controller.py) on /dev/vhci,
# advertising $beacon_a and $beacon_b (set them before calling).

lab="$(dirname "$0")/.."

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

