# Sourced by the guest scripts: mac80211_hwsim radios wlan0–wlan3, hostapd access points on wlan0–2
# (channels 1, 6, 11; SSIDs floorscan-lab-chN; BSSIDs 02:00:00:00:0K:00), wlan3 up for the scanner.

# start_access_points: loads hwsim and starts the three hostapd; returns 1 when hwsim cannot load.
start_access_points() {
    modprobe mac80211_hwsim radios=4 || { echo "FAIL: modprobe mac80211_hwsim"; return 1; }
    for k in 0 1 2; do
        channel=$((1 + 5 * k))
        printf 'interface=wlan%s\ndriver=nl80211\nssid=floorscan-lab-ch%s\nhw_mode=g\nchannel=%s\n' "$k" "$channel" "$channel" \
            >/tmp/hostapd-wlan$k.conf
        hostapd -B -P /tmp/hostapd-wlan$k.pid /tmp/hostapd-wlan$k.conf >/dev/null || echo "hostapd on wlan$k failed"
    done
    ip link set wlan3 up
    echo "guest: hwsim and 3 hostapd access points up at $(uptime_now) s"
}

# set_txpower IFACE MBM: the AP's transmit power; the signal seen is power − 50 dB with hwsim's own medium.
set_txpower() { iw dev "$1" set txpower fixed "$2"; }
