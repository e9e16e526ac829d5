## src/engine: the engine: workflows as node tables, one commit per step.
libaivista_a_SOURCES += \
	%D%/cancel.c %D%/commit.c %D%/decide.c %D%/engine.h %D%/engine.c %D%/entry.c \
	%D%/follow.c %D%/graph.h %D%/lease.c %D%/lease_back.c %D%/registry.c %D%/run.h %D%/run_base.c \
	%D%/step.c %D%/step_prov.c %D%/tid.h %D%/tid.c
