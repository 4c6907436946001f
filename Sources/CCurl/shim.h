// libcurl's easy interface, through one shim so the module map does not
// depend on where the distribution puts the headers (pkg-config libcurl).
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot
// call: these typed wrappers can.
#include <curl/curl.h>

static inline CURLcode trackee_curl_setopt_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode trackee_curl_setopt_pointer(CURL *curl, CURLoption option, const void *value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode trackee_curl_setopt_write(CURL *curl, CURLoption option,
                                                 size_t (*callback)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(curl, option, callback);
}

static inline CURLcode trackee_curl_getinfo_long(CURL *curl, CURLINFO info, long *value) {
    return curl_easy_getinfo(curl, info, value);
}
