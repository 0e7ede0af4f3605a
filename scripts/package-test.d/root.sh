# Sourced by scripts/package-test and scripts/upgrade-test, on the host and in the namespaces they
# run units in: a debootstrap root with the floorscan repository as a signed apt source, and the
# units run without systemd as PID 1 (each unit's ExecStart= as its User=, its StateDirectory= made
# as systemd would). Needs $root.

check() { # check NAME COMMAND...: runs the command, counts and reports the result
    local name="$1"; shift
    if "$@"; then echo "ok   $name"; passed=$((passed + 1)); else echo "FAIL $name"; failed=$((failed + 1)); fi
}

in_root() { unshare --mount -- sh -c 'mount -t proc proc "$0/proc" && mount --rbind /dev "$0/dev" && exec chroot "$0" "$@"' "$root" "$@"; }

# A fresh root copied from BASE, whose maintainer scripts may not start services: policy-rc.d
# refuses (101, as without an init system) and logs each request to /tmp/invoke-rc.log.
fresh_root() { # fresh_root BASE
    rm -rf "$root"
    cp -a "$1" "$root"
    rm -f "$root/.floorscan-complete"
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    printf '#!/bin/sh\necho "$*" >> /tmp/invoke-rc.log\nexit 101\n' > "$root/usr/sbin/policy-rc.d"
    chmod +x "$root/usr/sbin/policy-rc.d"
}

# The repository as an operator's Pi has it (docs/install-from-apt.md), as a file: source.
use_repository() { # use_repository REPO: (again) copies REPO into the root and names it
    rm -rf "$root/srv/floorscan-apt"
    cp -a "$1" "$root/srv/floorscan-apt"
    chmod -R a+rX "$root/srv/floorscan-apt"
    mkdir -p "$root/etc/apt/keyrings"
    install -m 0644 "$1/floorscan-archive-keyring.gpg" "$root/etc/apt/keyrings/floorscan.gpg"
    echo 'deb [signed-by=/etc/apt/keyrings/floorscan.gpg] file:/srv/floorscan-apt bookworm main' \
        > "$root/etc/apt/sources.list.d/floorscan.list"
}

unit_value() { sed -n "s/^$2=//p" "$root/lib/systemd/system/$1.service" | tail -1; } # one key of a unit's [Service]

prepare_unit() { # what systemd does before ExecStart=: the StateDirectory= owned by User= and Group=
    local user group state mode
    user="$(unit_value "$1" User)" group="$(unit_value "$1" Group)" state="$(unit_value "$1" StateDirectory)"
    mode="$(unit_value "$1" StateDirectoryMode)"
    mkdir -p "$root/var/lib/$state"
    chroot "$root" chown "$user:$group" "/var/lib/$state"
    chmod "${mode:-0755}" "$root/var/lib/$state"
}

# In a private PID and network namespace (run_phase), with the root's /proc and /dev mounted.
start_unit() { # start_unit NAME: ExecStart= in the background as User=:Group=, output appended to /tmp/NAME.log; $! is its PID
    local uid gid
    uid="$(chroot "$root" id -u "$(unit_value "$1" User)")" gid="$(chroot "$root" getent group "$(unit_value "$1" Group)" | cut -d: -f3)"
    # shellcheck disable=SC2046 # ExecStart= is split into words, as systemd does
    chroot --userspec="$uid:$gid" "$root" $(unit_value "$1" ExecStart) >> "$root/tmp/$1.log" 2>&1 &
}
stop_cleanly() { # stop_cleanly PID SECONDS: SIGTERM, then the exit status within SECONDS
    kill -TERM "$1"
    for _ in $(seq $(( $2 * 10 ))); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$1" 2>/dev/null; then kill -KILL "$1"; return 1; fi
    wait "$1"
}
wait_healthy() { # wait_healthy PID: until switchd answers /healthz (30 s at most), or has exited
    for _ in $(seq 300); do
        curl -fsS --max-time 2 http://127.0.0.1:8080/healthz > /dev/null 2>&1 && return 0
        kill -0 "$1" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}

# run_phase FILE: runs the phase script FILE (bash, which sources this file and finds $root set)
# in a private network, PID and mount namespace, the root's /proc and /dev mounted, lo up; its
# checks are added to this shell's counts.
run_phase() {
    local phase_passed phase_failed
    unshare --net --pid --mount --fork -- bash -c '
        root="$1" lib="$2" phase="$3" passed=0 failed=0
        source "$lib"
        ip link set lo up
        mount -t proc proc "$root/proc"
        mount --rbind /dev "$root/dev"
        source "$phase"
        echo "$passed $failed" > "$root/tmp/phase.result"
    ' phase "$root" "${BASH_SOURCE[0]}" "$1" || true
    read -r phase_passed phase_failed < "$root/tmp/phase.result" || { phase_passed=0; phase_failed=1; }
    rm -f "$root/tmp/phase.result"
    passed=$((passed + phase_passed)) failed=$((failed + phase_failed))
}
