## src/store: the store and its backends.
libaivista_a_SOURCES += \
	%D%/assets.c %D%/backend.h %D%/backends.h %D%/backends.c %D%/bdb.h %D%/bdb_backup.c \
	%D%/bdb_ckpt.c %D%/bdb_env.c %D%/bdb_kv.c %D%/bdb_stats.c %D%/cache.c %D%/ckpt.c \
	%D%/events.c %D%/pack.h %D%/pack.c %D%/pg.h %D%/pg_conn.c %D%/pg_exec.c %D%/pg_kv.c %D%/pg_notify.c \
	%D%/pg_stats.c %D%/prune.c %D%/rec_cache.h %D%/rec_cache.c %D%/store.h %D%/store.c \
	%D%/threads.c %D%/version.c \
	%D%/zdict.h %D%/zdict_1.c
