# Phase of scripts/upgrade-test, run by run_phase after the upgrade: the new switchd starts on the
# previous one's database (migrating it) and stops; nothing else runs, so what it stored is compared
# before scannerd sends its spool.
source "$(dirname "${BASH_SOURCE[0]}")/api.sh"
start_unit switchd
switchd=$!
check "the new switchd starts on the previous database and answers /healthz" wait_healthy "$switchd"
check "the new switchd stops cleanly" stop_cleanly "$switchd" 30
