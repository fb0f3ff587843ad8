#ifndef RIGBOOK_CPOSTGRES_SHIM_H
#define RIGBOOK_CPOSTGRES_SHIM_H
// PostgreSQL's client library (Debian libpq-dev): the organisation's register on a server.
#include <libpq-fe.h>
#endif
