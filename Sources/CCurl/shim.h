// libcurl for scannerd's HTTP client. curl_easy_setopt, curl_multi_setopt and curl_easy_getinfo
// are variadic, which Swift cannot call, so each kind of argument scannerd passes gets a typed
// wrapper here; CURL_GLOBAL_DEFAULT is a macro built of other macros.
#include <curl/curl.h>

/// curl_global_init with the default flags (SSL included). Not thread-safe before curl 7.84:
/// call once, before any other thread uses libcurl.
static inline CURLcode floorscan_curl_global_init(void) {
    return curl_global_init(CURL_GLOBAL_DEFAULT);
}

/// An option that takes a long (flags, timeouts in milliseconds).
static inline CURLcode floorscan_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/// An option that takes a pointer: a string libcurl copies, a header list, callback data, a buffer.
static inline CURLcode floorscan_curl_set_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// An option that takes a curl_off_t (sizes).
static inline CURLcode floorscan_curl_set_size(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// CURLOPT_WRITEFUNCTION or CURLOPT_HEADERFUNCTION, which share the callback's type.
static inline CURLcode floorscan_curl_set_data_callback(CURL *handle, CURLoption option, curl_write_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

/// The last response's status code, 0 when none was received.
static inline long floorscan_curl_response_code(CURL *handle) {
    long code = 0;
    if (curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code) != CURLE_OK) return 0;
    return code;
}

/// A multi option that takes a long (CURLMOPT_MAXCONNECTS).
static inline CURLMcode floorscan_curl_multi_set_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}
