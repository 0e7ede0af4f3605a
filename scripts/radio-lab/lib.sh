# Shared by the radio-lab scripts: where the cache lives, which kernel boots, and the Debian packages.
# Sourced, not run.

radio_lab_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
radio_lab_root="$(cd "$radio_lab_dir/../.." && pwd)"
radio_lab_cache="${RADIO_LAB_CACHE:-$radio_lab_root/.build/radio-lab}"

# What the lab needs on the host; the VM sees the same files through the read-only 9p root.
radio_lab_packages=(qemu-system-x86 linux-image-amd64 busybox-static cpio kmod iw hostapd wireless-regdb xz-utils python3 jq bluez)

# Installs the missing packages with apt-get. Returns 1 (with a message) when they cannot be
# installed; callers fail loudly then, the lab never skips silently.
radio_lab_install_packages() {
    local missing=()
    for package in "${radio_lab_packages[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    ((${#missing[@]})) || return 0
    echo "==> radio lab: installing Debian packages: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || {
        echo "error: radio lab: could not install ${missing[*]}" >&2
        return 1
    }
}

# The newest kernel under /boot that has its modules installed; prints its version (e.g. 6.1.0-56-amd64).
radio_lab_kernel_version() {
    local image version
    for image in $(ls -1 /boot/vmlinuz-* 2>/dev/null | sort -rV); do
        version="${image#/boot/vmlinuz-}"
        [ -d "/lib/modules/$version" ] && { echo "$version"; return 0; }
    done
    echo "error: radio lab: no /boot/vmlinuz-* with modules in /lib/modules (is linux-image-amd64 installed?)" >&2
    return 1
}
