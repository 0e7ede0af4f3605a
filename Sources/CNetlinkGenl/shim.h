// libnl-genl-3 for scannerd's nl80211 Wi-Fi scans, with the kernel's nl80211 numbers.
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/nl80211.h>
#include <netlink/netlink.h>
#include <netlink/msg.h>
#include <netlink/attr.h>
#include <netlink/socket.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>
