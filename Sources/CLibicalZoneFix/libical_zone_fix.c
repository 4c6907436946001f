// libical 3.0 opens an ICU calendar for every recurrence iterator, naming
// its zone with UCAL_UNKNOWN_ZONE_ID cast to UTF-16. That macro is a char
// string ("Etc/Unknown"), so ICU reads it as UTF-16 with length -1 and scans
// on through whatever string constants the linker happens to place after it
// until it meets two zero bytes. In the shared libical that is soon; in a
// static link it was 150 KB on, which made every iterator cost 0.4 ms and
// reading a 10,000-event calendar six times slower.
//
// The static release build links with --wrap=ucal_open_NN (Makefile), which
// sends libical's calls here; the zone name is given to ICU as it was meant.
// Other builds never call this function.
#include <string.h>
#include <unicode/ucal.h>

#define TRACKEE_CAT2(a, b) a##b
#define TRACKEE_CAT(a, b) TRACKEE_CAT2(a, b)

UCalendar *TRACKEE_CAT(__real_, ucal_open)(const UChar *zoneID, int32_t len, const char *locale, UCalendarType type,
                                          UErrorCode *status) __attribute__((weak));

UCalendar *TRACKEE_CAT(__wrap_, ucal_open)(const UChar *zoneID, int32_t len, const char *locale, UCalendarType type,
                                          UErrorCode *status) {
    static const UChar unknown[] = {'E', 't', 'c', '/', 'U', 'n', 'k', 'n', 'o', 'w', 'n', 0};
    if (zoneID != NULL && len < 0 && memcmp(zoneID, UCAL_UNKNOWN_ZONE_ID, sizeof(UCAL_UNKNOWN_ZONE_ID)) == 0) {
        zoneID = unknown;
        len = 11;
    }
    return TRACKEE_CAT(__real_, ucal_open)(zoneID, len, locale, type, status);
}
