// BlueZ's libbluetooth for scannerd's raw HCI socket. The wrappers below exist because Swift
// cannot call them directly: ioctl() is variadic and HCIDEVUP is a function-like macro, and
// Swift's MemoryLayout<hci_filter>.size is 14 (no tail padding) where the kernel insists on the
// padded sizeof, 16 (14 gives EINVAL and the socket then receives nothing).
#include <errno.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>

/// HCIDEVUP on `dev_id`: powers the controller on and cancels the kernel's automatic power-off of
/// a controller nobody manages. -1 with errno on failure (EALREADY when it is already up).
static inline int floorscan_hci_device_up(int fd, int dev_id) {
    return ioctl(fd, HCIDEVUP, dev_id);
}

/// getsockopt(SOL_HCI, HCI_FILTER) with the padded struct size.
static inline int floorscan_hci_get_filter(int fd, struct hci_filter *filter) {
    socklen_t length = sizeof(*filter);
    return getsockopt(fd, SOL_HCI, HCI_FILTER, filter, &length);
}

/// setsockopt(SOL_HCI, HCI_FILTER) with the padded struct size.
static inline int floorscan_hci_set_filter(int fd, const struct hci_filter *filter) {
    return setsockopt(fd, SOL_HCI, HCI_FILTER, filter, sizeof(*filter));
}

/// recv() without blocking (MSG_DONTWAIT): -1 with errno EAGAIN when no packet waits. A wrapper
/// because this header brings in <sys/socket.h>: a Swift file of scannerd that spelled
/// MSG_DONTWAIT beside this module would have the importer take the constant as this module's,
/// and files that do not import it (the nl80211 socket) would then no longer find it.
static inline ssize_t floorscan_recv_nowait(int fd, void *buffer, size_t length) {
    return recv(fd, buffer, length, MSG_DONTWAIT);
}

// LE extended scanning (Bluetooth 5), which lib/hci.h of BlueZ 5.66 does not define. Values from
// the Core Specification v5.3, Vol 4, Part E, §7.8.64–65 (BlueZ's monitor/bt.h names them
// BT_HCI_CMD_LE_SET_EXT_SCAN_PARAMS / _ENABLE).
#define FLOORSCAN_OCF_LE_SET_EXT_SCAN_PARAMETERS 0x0041
#define FLOORSCAN_OCF_LE_SET_EXT_SCAN_ENABLE 0x0042

// Where the supported-commands bitmap of Read Local Supported Commands says a command exists
// (Core v5.3, Vol 4, Part E, §6.27): octet and bit.
#define FLOORSCAN_SUPPORTED_LE_SET_SCAN_PARAMETERS_OCTET 26
#define FLOORSCAN_SUPPORTED_LE_SET_SCAN_PARAMETERS_BIT 2
#define FLOORSCAN_SUPPORTED_LE_SET_SCAN_ENABLE_OCTET 26
#define FLOORSCAN_SUPPORTED_LE_SET_SCAN_ENABLE_BIT 3
#define FLOORSCAN_SUPPORTED_LE_SET_EXT_SCAN_PARAMETERS_OCTET 37
#define FLOORSCAN_SUPPORTED_LE_SET_EXT_SCAN_PARAMETERS_BIT 5
#define FLOORSCAN_SUPPORTED_LE_SET_EXT_SCAN_ENABLE_OCTET 37
#define FLOORSCAN_SUPPORTED_LE_SET_EXT_SCAN_ENABLE_BIT 6
