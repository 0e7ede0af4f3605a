# Phase of scripts/package-test, run by run_phase (package-test.d/root.sh) in a private network and
# PID namespace: the units' ExecStart= lines as their users, switchd's /healthz and pages, a scanner
# token issued as an operator does, scannerd reaching switchd, clean stops, RSS, and a database a
# newer switchd migrated refused.
rss_kib() { awk '/^VmRSS:/ {print $2}' "$root/proc/$1/status"; } # this PID namespace's proc

start_unit switchd
switchd=$!
healthy=false
for _ in $(seq 300); do
    if curl -fsS --max-time 2 http://127.0.0.1:8080/healthz > "$root/tmp/healthz.json" 2>/dev/null; then healthy=true; break; fi
    kill -0 "$switchd" 2>/dev/null || break
    sleep 0.1
done
check "switchd answers /healthz ($(cat "$root/tmp/healthz.json" 2>/dev/null))" $healthy
check "switchd serves the admin page from /usr/share/floorscan/admin" \
    sh -c "curl -fsS --max-time 2 http://127.0.0.1:8080/admin/ | grep -qi '<html'"
check "switchd serves the visitor page from /usr/share/floorscan/visit" \
    sh -c "curl -fsS --max-time 2 http://127.0.0.1:8080/visit/ | grep -qi '<html'"
# The operator's step: a scanner token for scannerd, issued by switchd's CLI as switchd's user.
switchd_uid="$(chroot "$root" id -u floorscan)"
chroot --userspec="$switchd_uid:$switchd_uid" "$root" /usr/bin/switchd token issue --role scanner --scanner-id default \
    --name package-test --state-dir /var/lib/floorscan/switchd > "$root/etc/floorscan/scannerd.token"
chroot "$root" chown floorscan-scanner: /etc/floorscan/scannerd.token
chmod 0600 "$root/etc/floorscan/scannerd.token"
echo 'token-file = "/etc/floorscan/scannerd.token"' >> "$root/etc/floorscan/scannerd.toml"
check "switchd token issue made a scanner token" test -s "$root/etc/floorscan/scannerd.token"
start_unit scannerd
scannerd=$!
sleep 5
check "scannerd still runs 5 s after start" kill -0 "$scannerd"
check "scannerd reached switchd with its token (it saved the switch it was given)" \
    test -s "$root/var/lib/floorscan/scannerd/switch.json"
check "scannerd's requests were accepted (no 401 or 403 in its log)" sh -c "! grep -Eq 'HTTP 40[13]|unauthorized|forbidden' $root/tmp/scannerd.log"
sleep 5
echo "RSS after start: switchd $(rss_kib "$switchd") KiB, scannerd $(rss_kib "$scannerd") KiB"
check "scannerd stops cleanly on SIGTERM (exit 0 within 30 s)" stop_cleanly "$scannerd" 30
check "switchd stops cleanly on SIGTERM (exit 0 within 30 s)" stop_cleanly "$switchd" 30
check "switchd's database is in its state directory" test -s "$root/var/lib/floorscan/switchd/switchd.sqlite"
# A downgrade's database: one a newer switchd migrated (a migration this switchd does not know) is
# refused at start, the migration named, and left as it is.
database="$root/var/lib/floorscan/switchd/switchd.sqlite"
sqlite3 "$database" "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-a-newer-switchd')"
chroot "$root" chown -R floorscan:floorscan /var/lib/floorscan/switchd
migrations_before="$(sqlite3 "$database" 'SELECT count(*) FROM grdb_migrations')"
switchd_uid="$(chroot "$root" id -u floorscan)"
# shellcheck disable=SC2046 # ExecStart= is split into words, as systemd does
timeout 60 chroot --userspec="$switchd_uid:$switchd_uid" "$root" $(unit_value switchd ExecStart) > "$root/tmp/switchd-newer.log" 2>&1
status=$?
echo "    switchd on a newer database: exit $status, $(grep -o 'migrated by a newer switchd[^;]*' "$root/tmp/switchd-newer.log" | head -1)"
check "switchd refuses a database a newer switchd migrated, naming the migration" \
    sh -c "[ $status -ne 0 ] && [ $status -ne 124 ] && grep -q 'newer switchd.*v99-from-a-newer-switchd' '$root/tmp/switchd-newer.log'"
check "and leaves that database as it was" test "$(sqlite3 "$database" 'SELECT count(*) FROM grdb_migrations')" = "$migrations_before"
for daemon in switchd scannerd; do echo "--- $daemon's output"; tail -n 20 "$root/tmp/$daemon.log"; done
