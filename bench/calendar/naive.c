/*
 * The floor for any calendar expansion built on libical: the least work a
 * program can do to count a file's occurrences in a window with it.
 *
 * It reads the whole file, parses it with icalparser_parse_string, and for
 * every VEVENT:
 *   - with an RRULE: walks the rule with icalrecur_iterator_new/_next from
 *     DTSTART (no icalrecur_iterator_set_start), counting the instances
 *     whose local start date is in [FROM, TO) and stopping at the first one
 *     on or after TO;
 *   - without one: counts it if its DTSTART's local date is in [FROM, TO).
 * Nothing else: no EXDATE, no RECURRENCE-ID (an override counts as one more
 * single event, and the instance it replaces is still counted at its
 * original time), no RDATE, no time-zone conversion. Start times are
 * compared as wall-clock dates in their own zone, which is exact for the
 * benchmark's file (every event is in Europe/Prague, as is the window), so
 * its count is higher than an oracle's by the EXDATE values in the window
 * plus the overrides.
 *
 * Prints the count to stdout, and the count with the milliseconds spent
 * reading, parsing and iterating to stderr. Frees everything it allocates,
 * and what the libraries keep for the process too, so that valgrind
 * --leak-check=full --show-leak-kinds=all finds nothing in use at exit:
 * ICU's caches (libical 3.0 runs each recurrence iterator on an ICU
 * calendar) with u_cleanup, hence icu-uc on the link line, and libical's
 * per-thread error slot by ending main with pthread_exit.
 *
 * Build: cc -O2 -o naive naive.c $(pkg-config --cflags --libs libical icu-uc)
 * Usage: naive FILE FROM TO   (FROM, TO: YYYYMMDD local dates, e.g. 20270101 20280101)
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libical/ical.h>
#include <unicode/uclean.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* YYYYMMDD as a number that orders like the date. */
static long day_key(struct icaltimetype t)
{
    return t.year * 10000L + t.month * 100L + t.day;
}

static int parse_day(const char *s, long *out)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || *end || strlen(s) != 8 || v % 100 < 1 || v % 100 > 31 ||
        v / 100 % 100 < 1 || v / 100 % 100 > 12)
        return -1;
    *out = v;
    return 0;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long size;

    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)size + 1)) != NULL) {
        if (fread(buf, 1, (size_t)size, f) == (size_t)size) {
            buf[size] = '\0';
        } else {
            free(buf);
            buf = NULL;
        }
    }
    fclose(f);
    return buf;
}

int main(int argc, char **argv)
{
    long from, to, count = 0, events = 0, series = 0;
    double t0, t1, t2, t3;
    char *text;
    icalcomponent *root, *ev;

    if (argc != 4 || parse_day(argv[2], &from) || parse_day(argv[3], &to)) {
        fprintf(stderr, "usage: naive FILE FROM TO   (FROM, TO: YYYYMMDD)\n");
        return 64;
    }

    t0 = now_ms();
    text = read_file(argv[1]);
    if (!text) {
        fprintf(stderr, "naive: cannot read %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    t1 = now_ms();
    root = icalparser_parse_string(text);
    free(text);
    if (!root) {
        fprintf(stderr, "naive: %s: no calendar parsed\n", argv[1]);
        icalmemory_free_ring();
        return 1;
    }
    t2 = now_ms();

    /* A file with several calendars parses to an XROOT holding them. */
    for (icalcomponent *cal = icalcomponent_isa(root) == ICAL_XROOT_COMPONENT
                                  ? icalcomponent_get_first_component(root, ICAL_VCALENDAR_COMPONENT)
                                  : root;
         cal; cal = icalcomponent_isa(root) == ICAL_XROOT_COMPONENT
                        ? icalcomponent_get_next_component(root, ICAL_VCALENDAR_COMPONENT)
                        : NULL) {
        for (ev = icalcomponent_get_first_component(cal, ICAL_VEVENT_COMPONENT); ev;
             ev = icalcomponent_get_next_component(cal, ICAL_VEVENT_COMPONENT)) {
            struct icaltimetype start = icalcomponent_get_dtstart(ev);
            icalproperty *rrule = icalcomponent_get_first_property(ev, ICAL_RRULE_PROPERTY);

            events++;
            if (icaltime_is_null_time(start))
                continue;
            if (!rrule) {
                long d = day_key(start);
                count += d >= from && d < to;
                continue;
            }
            series++;
            icalrecur_iterator *it = icalrecur_iterator_new(icalproperty_get_rrule(rrule), start);
            if (!it)
                continue;
            for (struct icaltimetype t = icalrecur_iterator_next(it); !icaltime_is_null_time(t);
                 t = icalrecur_iterator_next(it)) {
                long d = day_key(t);
                if (d >= to)
                    break;
                count += d >= from;
            }
            icalrecur_iterator_free(it);
        }
    }
    t3 = now_ms();

    icalcomponent_free(root);
    icaltimezone_free_builtin_timezones();
    icalmemory_free_ring();
    u_cleanup();

    printf("%ld\n", count);
    fprintf(stderr,
            "naive: %ld occurrences (%ld VEVENTs, %ld with RRULE); read %.1f ms, parse %.1f ms, "
            "iterate %.1f ms, total %.1f ms\n",
            count, events, series, t1 - t0, t2 - t1, t3 - t2, t3 - t0);
    if (fflush(stdout) != 0)
        return 1;
    /* Exit status 0, once the thread-specific data of this thread (libical's
       icalerrno slot) has been freed by its destructor; return would skip it. */
    pthread_exit(NULL);
}
