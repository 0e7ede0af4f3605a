# Shared by the scripts in this folder: find Swift and install the Debian packages floorscan needs.
# Sourced, not run.

floorscan_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# The daemons the Debian packages ship, one package floorscan-NAME each (debian/control, debian/rules):
# the products scripts/package --arch arm64 cross-builds and scripts/pi-test installs.
floorscan_daemons=(scannerd switchd)
# The offline evaluator: an executable of its own, cross-built beside the daemons but packaged in
# neither (scripts/pi-test runs it from the cross-build folder, which the emulated Pi sees).
floorscan_evaluator=floorscan-evaluate

# The Debian packages the build and the scripts need (C libraries as -dev packages).
# mosquitto and mosquitto-clients: the MQTT tests' broker and subscriber, and `scripts/demo --mqtt`.
# postgresql: the PostgreSQL store's tests start throwaway servers from its binaries (docs/scale-out.md).
floorscan_debian_packages=(libsqlite3-dev libcurl4-openssl-dev libssl-dev libxml2-dev zlib1g-dev libbluetooth-dev libnl-genl-3-dev pkg-config curl jq openssl systemd mosquitto mosquitto-clients postgresql)

# The Debian mirror apt uses on this machine (deb822 URIs: or a one-line deb entry).
floorscan_debian_mirror() {
    cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null \
        | awk '/^URIs:/ && $2 ~ /\/debian\/?$/ {print $2; exit} /^deb / && $2 ~ /\/debian\/?$/ {print $2; exit}' || true
}

floorscan_install_deps() {
    local missing=()
    for package in "${floorscan_debian_packages[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    if ((${#missing[@]})); then
        echo "==> installing Debian packages: ${missing[*]}"
        local sudo=""
        [ "$(id -u)" -eq 0 ] || sudo="sudo"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
    if ! command -v swift >/dev/null 2>&1; then
        for candidate in /opt/swift/usr/bin /usr/share/swift/usr/bin "$HOME/.local/share/swiftly/bin"; do
            [ -x "$candidate/swift" ] && export PATH="$candidate:$PATH" && break
        done
    fi
    if ! command -v swift >/dev/null 2>&1; then
        echo "error: no Swift toolchain found. floorscan needs Swift 6.1 or later (https://www.swift.org/install/linux/);" >&2
        echo "       install it, put its usr/bin on PATH, and run this again." >&2
        exit 1
    fi
}

# floorscan_build "WHAT" COMMAND...: runs a build so that a newcomer can tell it from a hang. It
# says how long a first build takes, prints a line every 30 s with the step SwiftPM is at
# ("[1234/3618] Compiling ..."), then how long it took; on failure it prints the build's output.
floorscan_build() {
    local what="$1"; shift
    local log start pid status=0 waited=0
    log="$(mktemp)"
    start=$SECONDS
    echo "==> $what"
    echo "    (a first build fetches nothing and compiles everything: about 12-15 minutes on 2 cores; later builds take seconds to a minute)"
    "$@" >"$log" 2>&1 &
    pid=$!
    while kill -0 "$pid" 2>/dev/null; do
        sleep 1
        waited=$((waited + 1))
        if ((waited % 30 == 0)); then
            local step
            step="$(grep -o '^\[[0-9]*/[0-9]*\] [A-Za-z]* [^ ]*' "$log" | tail -1 || true)"
            printf '    %dm%02ds: %s\n' $(((SECONDS - start) / 60)) $(((SECONDS - start) % 60)) "${step:-resolving packages}"
        fi
    done
    wait "$pid" || status=$?
    if ((status != 0)); then
        cat "$log"
        rm -f "$log"
        echo "error: $what failed after $((SECONDS - start)) s" >&2
        return "$status"
    fi
    rm -f "$log"
    printf '    built in %dm%02ds\n' $(((SECONDS - start) / 60)) $(((SECONDS - start) % 60))
}
