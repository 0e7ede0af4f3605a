# Shared by scripts/package --arch arm64, scripts/pi-test and the scripts in this folder: where the
# arm64 build root, sysroot and guest root are cached, which Debian suites they come from, and how to
# run a command in the build root. Sourced, not run.
#
# Why these suites: Debian sid is the only suite with a Swift new enough for the project (swiftlang
# 6.2.3; trixie has 6.0.3) and with an arm64 build of it; the C libraries the binaries link against
# come from bookworm, so that they run on Raspberry Pi OS bookworm (glibc 2.36) and later.

arm64_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$arm64_dir/../lib.sh"
arm64_project="$(cd "$arm64_dir/../.." && pwd)"
arm64_cache="$(realpath -m "${FLOORSCAN_ARM64_CACHE:-$arm64_project/.build-pi}")"
arm64_root="$arm64_cache/sid-root"          # Debian sid amd64 with swiftlang: the cross compiler
arm64_sysroot_path=/sysroot-arm64-bookworm   # inside the build root
arm64_sysroot="$arm64_root$arm64_sysroot_path"
arm64_sdk=bookworm-arm64                     # the Swift SDK name (scripts/arm64/sdk-bundle)
arm64_triple=aarch64-unknown-linux-gnu
arm64_toolchain_suite=sid
arm64_library_suite=bookworm

# in_build_root COMMAND...: runs COMMAND as root in the build root, in a private mount namespace with
# /proc, /dev, the project and the cache (each at its own path; the cache may lie outside the project,
# FLOORSCAN_ARM64_CACHE) and the machine's Swift package mirror (read-only, with git's insteadOf rules)
# mounted; the mounts vanish when the command ends.
in_build_root() {
    local mirror
    mirror="$(git config --system --get-regexp '^url\..*\.insteadof$' 2>/dev/null | awk 'NR == 1 { sub(/^url\./, "", $1); sub(/\.insteadof$/, "", $1); print $1 }')"
    unshare --mount --propagation private -- /bin/bash -c '
        set -e
        root="$1" project="$2" cache="$3" mirror="$4"; shift 4
        mount -t proc proc "$root/proc"
        mount --rbind /dev "$root/dev"
        mkdir -p "$root$project"
        mount --bind "$project" "$root$project"
        case "$cache/" in
            "$project"/*) ;;
            *) mkdir -p "$root$cache"; mount --bind "$cache" "$root$cache" ;;
        esac
        if [ -n "$mirror" ] && [ -d "$mirror" ]; then
            mkdir -p "$root$mirror"
            mount --bind -o ro "$mirror" "$root$mirror"
            mount -o remount,bind,ro "$root$mirror"
        fi
        cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
        exec chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
            LANG=C.UTF-8 "$@"
    ' in-build-root "$arm64_root" "$arm64_project" "$arm64_cache" "$mirror" "$@"
}

# elapsed_since START: seconds since START (from `date +%s`), for the scripts' timing lines.
elapsed_since() { echo $(($(date +%s) - $1)); }
