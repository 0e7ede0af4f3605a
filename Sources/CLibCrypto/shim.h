// OpenSSL's libcrypto for scannerd's Bluetooth address resolution (the Core specification's ah(),
// one AES-128 block per key). libcurl already loads libcrypto on the Pi, so this adds no library
// to the process; only the EVP interface is used (the low-level AES_* calls are deprecated in
// OpenSSL 3).
#include <openssl/evp.h>
