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
floorscan_debian_packages=(libsqlite3-dev libcurl4-openssl-dev libxml2-dev zlib1g-dev libbluetooth-dev libnl-genl-3-dev pkg-config curl jq openssl systemd mosquitto mosquitto-clients postgresql)

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
