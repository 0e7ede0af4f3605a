# Sourced by the phases of scripts/upgrade-test: switchd's API as its admin, and the spool.
api=http://127.0.0.1:8080
admin_header() { # the admin token switchd made on its first start, as a header file curl reads (not on a command line)
    printf 'Authorization: Bearer %s\n' "$(cat "$root/var/lib/floorscan/switchd/admin.token")" > "$root/tmp/admin.header"
    chmod 0600 "$root/tmp/admin.header"
}
call() { # call METHOD PATH [JSON]: the answer's body; fails on an HTTP error
    curl -fsS --max-time 10 -X "$1" "$api$2" -H "@$root/tmp/admin.header" -H 'Content-Type: application/json' ${3:+--data "$3"}
}
wait_for() { # wait_for SECONDS COMMAND...: until COMMAND succeeds
    local tries=$(( $1 * 10 )); shift
    for _ in $(seq "$tries"); do "$@" && return 0; sleep 0.1; done
    return 1
}
spool_ready() { find "$root/var/lib/floorscan/scannerd" -path '*/ready/*' -type f -name '*.json' 2>/dev/null; } # the sealed batches waiting
measurements_at() { # measurements_at LOCATION: succeeds when switchd stored readings taken there
    [ "$(call GET "/v1/measurements?location=$1&limit=1" | jq '.items | length')" -gt 0 ]
}
