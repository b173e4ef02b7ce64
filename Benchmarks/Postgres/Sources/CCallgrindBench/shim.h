#ifndef CDQI_CCALLGRIND_BENCH_SHIM_H
#define CDQI_CCALLGRIND_BENCH_SHIM_H

/* Callgrind's client requests, for `bin/bench-postgres --callgrind`: count instructions in the timed runs
   only, and write one profile per run named after it. Outside valgrind (or without its headers) they do
   nothing. */
#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define CDQI_BENCH_HAS_CALLGRIND 1
#endif
#endif

#ifdef CDQI_BENCH_HAS_CALLGRIND
/* Whether the process runs under valgrind. */
static inline int cdqi_bench_on_valgrind(void) { return (int)RUNNING_ON_VALGRIND; }
/* Starts counting (every thread). */
static inline void cdqi_bench_callgrind_start(void) { CALLGRIND_START_INSTRUMENTATION; }
/* Stops counting and writes what was counted since the last dump as a profile described by `name`. */
static inline void cdqi_bench_callgrind_stop(const char *name) {
    CALLGRIND_STOP_INSTRUMENTATION;
    CALLGRIND_DUMP_STATS_AT(name);
}
#else
static inline int cdqi_bench_on_valgrind(void) { return 0; }
static inline void cdqi_bench_callgrind_start(void) {}
static inline void cdqi_bench_callgrind_stop(const char *name) { (void)name; }
#endif

#endif
