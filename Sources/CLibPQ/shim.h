#ifndef CDQI_CLIBPQ_SHIM_H
#define CDQI_CLIBPQ_SHIM_H

/* PostgreSQL's client library (Debian's libpq-dev): connections, the extended query protocol
   (PQprepare, PQexecPrepared, PQexecParams) and results. */
#include <libpq-fe.h>

#endif
