#ifndef RIGBOOK_CSQLITE_SHIM_H
#define RIGBOOK_CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer: Swift cannot import it.
static inline sqlite3_destructor_type rb_sqlite_transient(void) { return SQLITE_TRANSIENT; }

// sqlite3_db_config is variadic: Swift cannot call it. Turns this connection's triggers on (1) or off (0) and
// returns whether they are now on, or -1 when SQLite refused.
static inline int rb_sqlite_enable_triggers(sqlite3 *db, int on) {
    int now = -1;
    return sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, on, &now) == SQLITE_OK ? now : -1;
}
#endif
