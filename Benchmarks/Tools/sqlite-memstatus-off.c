/*
 * Runs an older cdqi-bench under today's SQLite setting, for before-and-after comparisons.
 *
 * Since 2026-11-27 the benchmark turns SQLite's memory statistics off before anything opens SQLite
 * (SQLiteProcessSettings), for every contender; a binary built before that ran them with the
 * statistics on, which made every contender slower, raw SQLite the most. Preloading this library
 * turns them off before such a binary's main runs, so that both binaries measure under the same
 * setting:
 *
 *     cc -shared -fPIC -O2 -o /tmp/sqlite-memstatus-off.so Benchmarks/Tools/sqlite-memstatus-off.c -lsqlite3
 *     LD_PRELOAD=/tmp/sqlite-memstatus-off.so path/to/old/cdqi-bench --only W1,W7 --rounds 15
 *
 * Set SQLITE_MEMSTATUS_OFF_VERBOSE=1 to see SQLite's answer (0 is SQLITE_OK) on standard error.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((constructor)) static void sqlite_memstatus_off(void) {
    int code = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    if (getenv("SQLITE_MEMSTATUS_OFF_VERBOSE") != NULL) {
        fprintf(stderr, "sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) = %d\n", code);
    }
}
