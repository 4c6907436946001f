// Loads and expands every calendar under the folders given, many times, so
// that valgrind (or LeakSanitizer) run over it shows any memory
// TrackeeCalendar's use of libical fails to free. `make test` runs it under
// `valgrind --leak-check=full --errors-for-leak-kinds=definite`.
// Usage: trackee-calendar-leaks [--rounds N] FOLDER...
import Glibc

exit(LeakCheck.run(Array(CommandLine.arguments.dropFirst())))
