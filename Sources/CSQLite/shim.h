#ifndef CDQI_CSQLITE_SHIM_H
#define CDQI_CSQLITE_SHIM_H

#include <sqlite3.h>

/* sqlite3_db_config is variadic, which Swift cannot call. */
static inline int cdqi_sqlite3_enable_defensive(sqlite3 *db) {
#ifdef SQLITE_DBCONFIG_DEFENSIVE
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
#else
    return SQLITE_OK;
#endif
}

/* sqlite3_config is variadic too. SQLITE_MISUSE when SQLite is already initialized (the setting then
   stays as it was). */
static inline int cdqi_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

#endif
