# Sourced by the guest test scripts: named checks that print PASS/FAIL with their time, and a summary.

radio_lab_failures=0

# check NAME COMMAND [ARGS...]: runs the command; prints "PASS: NAME (S s)" or "FAIL: NAME (S s)".
check() {
    local check_name="$1" started ended
    shift
    started=$(cut -d' ' -f1 /proc/uptime)
    if "$@"; then verdict=PASS; else verdict=FAIL; radio_lab_failures=$((radio_lab_failures + 1)); fi
    ended=$(cut -d' ' -f1 /proc/uptime)
    echo "$verdict: $check_name ($(awk -v a="$started" -v b="$ended" 'BEGIN { printf "%.1f", b - a }') s)" | tee -a "$RADIO_LAB_RESULTS/checks"
}

# jq_any FILE FILTER: true when some JSON line of FILE satisfies FILTER; shows the file when none does.
jq_any() {
    if [ -s "$1" ] && jq -e -s "any(.[]; $2)" "$1" >/dev/null; then return 0; fi
    echo "  no line of $1 satisfies: $2"; head -c 1500 "$1" | sed 's/^/  | /'
    return 1
}

# jq_none FILE FILTER: true when no JSON line of FILE satisfies FILTER (and the file has lines).
jq_none() {
    if [ -s "$1" ] && jq -e -s "all(.[]; ($2) | not)" "$1" >/dev/null; then return 0; fi
    echo "  a line of $1 satisfies (or the file is empty): $2"; head -c 1500 "$1" | sed 's/^/  | /'
    return 1
}

# run_scannerd NAME ARGS...: runs scannerd (the guest's $scannerd) with ARGS under a timeout of
# $scan_timeout s (default 120), stdout into $RADIO_LAB_RESULTS/NAME.json and stderr into NAME.err;
# shows the end of stderr when it fails.
run_scannerd() {
    run_name="$1"; shift
    timeout "${scan_timeout:-120}" "$scannerd" "$@" >"$RADIO_LAB_RESULTS/$run_name.json" 2>"$RADIO_LAB_RESULTS/$run_name.err"
    run_status=$?
    [ "$run_status" -eq 0 ] || { echo "  scannerd exited $run_status"; tail -5 "$RADIO_LAB_RESULTS/$run_name.err" | sed 's/^/  ! /'; }
    return $run_status
}

# uptime_now: seconds since boot, for timings inside the VM.
uptime_now() { cut -d' ' -f1 /proc/uptime; }

finish() {
    echo "guest: $radio_lab_failures check(s) failed; uptime $(uptime_now) s"
    [ "$radio_lab_failures" -eq 0 ]
}
