# Phase of scripts/upgrade-test: the new switchd and scannerd together; scannerd sends the batches it
# spooled under the previous release.
source "$(dirname "${BASH_SOURCE[0]}")/api.sh"
start_unit switchd
switchd=$!
check "the new switchd answers /healthz" wait_healthy "$switchd"
start_unit scannerd
scannerd=$!
spooled_sent() { # every batch ID in $root/tmp/spooled-batches is stored by switchd
    local stored
    stored="$(sqlite3 "$root/var/lib/floorscan/switchd/switchd.sqlite" 'SELECT lower(hex(uuid)) FROM batch')"
    while read -r id; do grep -qx "$id" <<< "$stored" || return 1; done < "$root/tmp/spooled-batches"
}
check "every batch spooled under the previous release reaches the new switchd" wait_for 120 spooled_sent
check "the new scannerd stops cleanly" stop_cleanly "$scannerd" 30
check "the new switchd stops cleanly" stop_cleanly "$switchd" 30
